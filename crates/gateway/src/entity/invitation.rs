//! A single-use sign-up link an admin made. Only the SHA-256 of its secret is kept.

use sea_orm::entity::prelude::*;

/// A row of `invitations`.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "invitations")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: String,
    /// Hex SHA-256 of the secret in the link.
    #[sea_orm(unique)]
    pub secret_hash: String,
    pub created_by: String,
    pub created_at: DateTimeUtc,
    pub expires_at: DateTimeUtc,
    pub used_at: Option<DateTimeUtc>,
    pub used_by: Option<String>,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
