//! A recovery code of a local account's second factor: its SHA-256 (the codes are random, so
//! a fast hash is enough, as for API tokens), usable once.

use sea_orm::entity::prelude::*;

/// A row of `two_factor_recovery_codes`.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "two_factor_recovery_codes")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub code_hash: String,
    pub user_id: String,
    /// Set when the code signed someone in; it never works again.
    pub used_at: Option<DateTimeUtc>,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
