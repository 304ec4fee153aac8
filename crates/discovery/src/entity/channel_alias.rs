//! A resolved way of naming a channel (`handle:…`, `user:…`, `video:…`), so the next search
//! that names it the same way costs nothing.

use sea_orm::entity::prelude::*;

/// A row of `youtube_channel_aliases`.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "youtube_channel_aliases")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub alias: String,
    pub channel_id: String,
    pub resolved_at: DateTimeUtc,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
