//! One Vault item.

use sea_orm::entity::prelude::*;

/// A row of `library_items`.
#[derive(Clone, Debug, PartialEq, DeriveEntityModel)]
#[sea_orm(table_name = "library_items")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: String,
    pub user_id: String,
    /// What produced the item (a transcription file id, a vault-save path); unique per user.
    pub source_ref: String,
    pub title: String,
    pub author: String,
    #[sea_orm(column_type = "Text")]
    pub content: String,
    pub source_type: String,
    pub rating: Option<i32>,
    pub is_starred: bool,
    /// JSON array of strings.
    #[sea_orm(column_type = "Text")]
    pub tags: String,
    pub gwth_level: Option<i32>,
    pub duration_seconds: Option<f64>,
    pub created_at: DateTimeUtc,
    pub last_exported: Option<DateTimeUtc>,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
