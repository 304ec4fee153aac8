//! A cached YouTube video (public metadata, shared by every user).

use sea_orm::entity::prelude::*;

/// A row of `youtube_videos`.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "youtube_videos")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: String,
    pub channel_id: String,
    pub title: String,
    pub channel_title: String,
    pub duration_seconds: i64,
    pub published_at: DateTimeUtc,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
