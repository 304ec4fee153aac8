//! A download job.

use sea_orm::entity::prelude::*;

/// A row of `download_jobs`.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "download_jobs")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: String,
    pub user_id: String,
    pub source_id: String,
    pub source_title: String,
    pub status: String,
    pub total_videos: i32,
    pub processed_videos: i32,
    pub failed_videos: i32,
    pub error_message: Option<String>,
    pub transcribe: bool,
    pub model: String,
    pub output_format: String,
    /// 'Use YouTube captions when available'.
    pub use_captions: bool,
    /// Who runs it: set by a claim, checked by every write of the runner.
    pub claim_token: Option<String>,
    /// The runner's last sign of life; a running job whose runner went quiet is taken over.
    pub heartbeat_at: Option<DateTimeUtc>,
    pub current_video_id: Option<String>,
    pub current_video_title: Option<String>,
    pub current_percent: i32,
    /// The job a retry made of this one (then this one is no longer listed).
    pub superseded_by: Option<String>,
    pub started_at: Option<DateTimeUtc>,
    pub completed_at: Option<DateTimeUtc>,
    pub created_at: DateTimeUtc,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
