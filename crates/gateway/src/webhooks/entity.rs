//! The webhook tables, owned by the gateway beside its members and settings (a webhook belongs
//! to a member, and the gateway is what sees every user event).

/// A member's webhook.
pub mod webhook {
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
        /// Why the gateway switched it off (a 410 Gone), shown in Settings.
        pub disabled_reason: Option<String>,
        pub created_at: DateTimeUtc,
        pub updated_at: DateTimeUtc,
    }

    #[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
    pub enum Relation {}

    impl ActiveModelBehavior for ActiveModel {}
}

/// The outbox: one row per event and webhook, claimed by one replica at a time.
pub mod delivery {
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
}

/// The delivery log: the last attempts of each webhook.
pub mod attempt {
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
}
