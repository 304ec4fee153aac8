//! A channel or playlist a user follows.

use sea_orm::entity::prelude::*;

/// A row of `sources`.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "sources")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: String,
    pub user_id: String,
    pub kind: String,
    /// `UC…` or `PL…`; unique per user.
    pub list_id: String,
    pub playlist_id: String,
    pub url: String,
    pub title: String,
    pub thumbnail_url: String,
    pub created_at: DateTimeUtc,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
