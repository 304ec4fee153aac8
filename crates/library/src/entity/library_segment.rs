//! An audio item's transcript segments.

use sea_orm::entity::prelude::*;

/// A row of `library_segments`: the worker's segment JSON, kept with the item.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "library_segments")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub item_seq: i64,
    #[sea_orm(column_type = "Text")]
    pub segments: String,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
