//! The outbox: one row per event and webhook, claimed by one replica at a time.

use sea_orm::entity::prelude::*;

/// A row of `webhook_deliveries`.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "webhook_deliveries")]
pub struct Model {
    /// `msg_…`: the `webhook-id` header, the same on every attempt so receivers can
    /// de-duplicate.
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: String,
    pub webhook_id: String,
    pub user_id: String,
    /// The bus envelope's id: unique with `webhook_id`, which is what makes the replicas
    /// that all see one event record one delivery.
    pub event_id: String,
    pub event_type: String,
    /// The JSON body, fixed when the event arrived.
    pub payload: String,
    /// `pending`, `succeeded`, `failed` or `cancelled`.
    pub status: String,
    /// Attempts started so far (counted at the claim, so a replica dying mid-attempt
    /// still uses one up).
    pub attempts: i32,
    pub next_attempt_at: DateTimeUtc,
    /// Whoever holds the claim; the result is written only under it.
    pub claim_token: Option<String>,
    pub claimed_until: Option<DateTimeUtc>,
    pub created_at: DateTimeUtc,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
