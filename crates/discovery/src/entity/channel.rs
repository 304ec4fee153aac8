//! A cached YouTube channel.

use sea_orm::entity::prelude::*;

/// A row of `youtube_channels`.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "youtube_channels")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: String,
    pub title: String,
    pub thumbnail_url: String,
    pub subscriber_count: Option<i64>,
    pub video_count: i64,
    pub uploads_playlist: String,
    /// When its uploads were last read from the API.
    pub fetched_at: DateTimeUtc,
    /// Whether that read reached the end of the uploads playlist.
    pub complete: bool,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
