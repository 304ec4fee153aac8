//! A personal API token: scripts and other tools act as its member with it. Only the SHA-256
//! of the secret is kept, so a database dump hands out no usable token.

use sea_orm::entity::prelude::*;

/// A row of `api_tokens`.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "api_tokens")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: String,
    #[sea_orm(indexed)]
    pub user_id: String,
    pub name: String,
    /// Hex SHA-256 of the whole token (`svt_…`).
    #[sea_orm(unique)]
    pub secret_hash: String,
    pub created_at: DateTimeUtc,
    pub expires_at: Option<DateTimeUtc>,
    /// Updated at most once a minute, so a busy script does not write on every request.
    pub last_used_at: Option<DateTimeUtc>,
    /// Whether transcriptions asked for with this token through `/v1/audio/transcriptions`
    /// are also kept in the Vault.
    pub save_to_vault: bool,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
