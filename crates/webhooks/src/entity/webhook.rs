//! A member's webhook.

use sea_orm::entity::prelude::*;

/// A row of `webhooks`.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "webhooks")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: String,
    pub user_id: String,
    pub url: String,
    pub description: String,
    /// The event types, comma-separated (`item.created,transcription.failed`).
    pub events: String,
    /// `whsec_…`, kept as is: signing needs the key itself, so it cannot be hashed.
    pub secret: String,
    pub enabled: bool,
    /// Why the service switched it off (a 410 Gone), shown in Settings.
    pub disabled_reason: Option<String>,
    pub created_at: DateTimeUtc,
    pub updated_at: DateTimeUtc,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
