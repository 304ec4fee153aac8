//! Units one API key spent on one Pacific day.

use sea_orm::entity::prelude::*;

/// A row of `youtube_quota_spend`.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "youtube_quota_spend")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub key_id: String,
    #[sea_orm(primary_key, auto_increment = false)]
    pub day: String,
    pub units: i64,
    pub exhausted: bool,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
