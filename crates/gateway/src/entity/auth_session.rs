//! A local sign-in: access tokens name it, so ending it ends them.

use sea_orm::entity::prelude::*;

/// A row of `auth_sessions`.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "auth_sessions")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: String,
    #[sea_orm(indexed)]
    pub user_id: String,
    pub created_at: DateTimeUtc,
    /// Renewed with each token; the session ends when this passes.
    pub expires_at: DateTimeUtc,
    pub ended_at: Option<DateTimeUtc>,
    /// SHA-256 of the refresh secret the member's browser holds now.
    pub refresh_hash: Option<String>,
    /// SHA-256 of the secret it replaced: presented again, it was copied, and the session ends.
    pub previous_refresh_hash: Option<String>,
    /// The absolute end, which no renewal moves (none for sessions from before it existed).
    pub ends_by: Option<DateTimeUtc>,
    /// When the refresh secret was last swapped.
    pub rotated_at: Option<DateTimeUtc>,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
