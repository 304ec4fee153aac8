//! The delivery log: the last attempts of each webhook.

use sea_orm::entity::prelude::*;

/// A row of `webhook_attempts`.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "webhook_attempts")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: String,
    pub webhook_id: String,
    pub delivery_id: String,
    pub event_type: String,
    /// 1 for the first try of a delivery.
    pub attempt: i32,
    pub attempted_at: DateTimeUtc,
    /// The HTTP status, when an answer came.
    pub status_code: Option<i32>,
    pub duration_ms: i64,
    /// The first KiB of the answer's body.
    pub response_excerpt: Option<String>,
    /// Why no acceptable answer came (refused address, timeout, connection error).
    pub error: Option<String>,
    pub succeeded: bool,
    /// When the next try is due, if there is one.
    pub next_attempt_at: Option<DateTimeUtc>,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
