//! A local account's authenticator-app second factor.

use sea_orm::entity::prelude::*;

/// A row of `two_factor`.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "two_factor")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub user_id: String,
    /// The active secret (base32), once confirmed with a code.
    pub secret: Option<String>,
    /// A secret handed out by set-up and not confirmed yet.
    pub pending_secret: Option<String>,
    /// The last time step a code was accepted for: a code works once (RFC 6238 §5.2).
    pub last_step: Option<i64>,
    /// When a secret last became active: a member signing in after it is told.
    pub changed_at: Option<DateTimeUtc>,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
