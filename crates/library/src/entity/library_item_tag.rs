//! A tag on an item.

use sea_orm::entity::prelude::*;

/// A row of `library_item_tags`.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "library_item_tags")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub item_seq: i64,
    #[sea_orm(primary_key, auto_increment = false)]
    pub tag_id: String,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
