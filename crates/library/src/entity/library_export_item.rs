//! An item in an export.

use sea_orm::entity::prelude::*;

/// A row of `library_export_items`.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "library_export_items")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub export_id: String,
    #[sea_orm(primary_key, auto_increment = false)]
    pub item_seq: i64,
    pub position: i32,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
