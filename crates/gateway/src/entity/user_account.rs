//! A local account (only used when `SCRIBEVAULT_AUTH=local`).

use sea_orm::entity::prelude::*;

/// A row of `user_accounts`.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "user_accounts")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: String,
    /// Lower-cased; unique.
    #[sea_orm(unique)]
    pub email: String,
    /// argon2id PHC string.
    pub password_hash: String,
    pub created_at: DateTimeUtc,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
