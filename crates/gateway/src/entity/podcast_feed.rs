//! A private podcast feed: a member's whole Vault, one of their sources or one of their tags,
//! published under a secret URL that podcast apps (which cannot sign in) fetch. Only the
//! SHA-256 of the secret is kept, so a database dump hands out no usable feed URL.

use sea_orm::entity::prelude::*;

/// A row of `podcast_feeds`.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "podcast_feeds")]
pub struct Model {
    /// Also the feed's `podcast:guid`: stable for the feed's life, through rotations.
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: String,
    #[sea_orm(indexed)]
    pub user_id: String,
    /// `vault`, `source` or `tag`.
    pub scope: String,
    /// The source id (`source`) or the tag name (`tag`); absent for `vault`.
    pub scope_id: Option<String>,
    /// Hex SHA-256 of the secret in the feed's URL.
    #[sea_orm(unique)]
    pub secret_hash: String,
    pub created_at: DateTimeUtc,
    /// Last time a podcast app fetched the feed's XML, recorded at most once a minute.
    pub last_fetched_at: Option<DateTimeUtc>,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
