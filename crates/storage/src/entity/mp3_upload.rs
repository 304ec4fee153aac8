//! The MP3 registry: which audio belongs to which video, and the manual uploads.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, DeriveEntityModel)]
#[sea_orm(table_name = "mp3_uploads")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: String,
    pub user_id: String,
    /// The YouTube video id, or a generated `manual-…` id for a manual upload.
    pub video_id: String,
    pub manual: bool,
    pub title: String,
    pub channel_title: String,
    pub duration_seconds: Option<f64>,
    pub published_at: String,
    pub path: String,
    pub size: i64,
    pub created_at: DateTimeUtc,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
