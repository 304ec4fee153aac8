//! One file of a job and everything the SPA shows about it.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, DeriveEntityModel)]
#[sea_orm(table_name = "transcription_files")]
pub struct Model {
    /// Row id (the client's file id is only unique within its job).
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: String,
    pub job_id: String,
    /// The id the client chose.
    pub file_id: String,
    pub user_id: String,
    pub youtube_video_id: String,
    pub title: String,
    pub mp3_path: String,
    /// pending, scheduled, transcribing, completed, error, retrying, failed.
    pub status: String,
    pub progress: i32,
    pub error_message: Option<String>,
    pub retry_count: i32,
    pub max_retries: i32,
    pub last_failed_at: Option<DateTimeUtc>,
    pub next_attempt_at: Option<DateTimeUtc>,
    pub transcript_path: Option<String>,
    pub markdown_path: Option<String>,
    pub segments_path: Option<String>,
    pub processing_time_ms: Option<i64>,
    /// Seconds the audio plays (estimated at intake, decoded at completion).
    pub audio_seconds: Option<f64>,
    /// Bumped by every claim and cancel; a worker's reports must carry the current one.
    pub claim_token: i32,
    pub heartbeat_at: Option<DateTimeUtc>,
    /// Times the file was taken back from a worker that went silent.
    pub take_back_count: i32,
    /// Made for its caller only (an OpenAI-style request): no Vault item is made from it.
    pub skip_vault: bool,
    /// The Vault item whose transcript this file's replaces.
    pub replaces_item: Option<String>,
    /// A completed file's transcript language (a Whisper code), when known.
    pub language: Option<String>,
    pub created_at: DateTimeUtc,
    pub updated_at: DateTimeUtc,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
