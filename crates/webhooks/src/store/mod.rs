//! Every query of webhooks, their outbox and their delivery log, and the mapping between
//! their rows and the domain's types.

mod log;
mod outbox;
mod user_data;
mod webhooks;

use sea_orm::{DatabaseConnection, DbErr};
use sea_orm_migration::MigratorTrait as _;

use crate::domain::{Attempt, DeliveryState, Webhook, WebhookEvent};
use crate::entity::{attempt, webhook};

/// The webhook tables.
#[derive(Clone)]
pub struct WebhookStore {
    db: DatabaseConnection,
}

impl WebhookStore {
    /// Migrates the tables and opens the store.
    ///
    /// # Errors
    /// The migration fails.
    pub async fn open(db: DatabaseConnection) -> Result<Self, DbErr> {
        crate::migration::Migrator::up(&db, None).await?;
        Ok(Self { db })
    }
}

impl DeliveryState {
    fn as_str(self) -> &'static str {
        match self {
            Self::Pending => "pending",
            Self::Succeeded => "succeeded",
            Self::Failed => "failed",
            Self::Cancelled => "cancelled",
        }
    }
}

fn events_column(events: &[WebhookEvent]) -> String {
    events
        .iter()
        .map(|event| event.as_str())
        .collect::<Vec<_>>()
        .join(",")
}

fn webhook_of(row: webhook::Model) -> Webhook {
    Webhook {
        events: row
            .events
            .split(',')
            .filter_map(WebhookEvent::parse)
            .collect(),
        id: row.id,
        user_id: row.user_id,
        url: row.url,
        description: row.description,
        secret: row.secret,
        enabled: row.enabled,
        disabled_reason: row.disabled_reason,
        created_at: row.created_at,
        updated_at: row.updated_at,
    }
}

fn attempt_of(row: attempt::Model) -> Attempt {
    Attempt {
        id: row.id,
        webhook_id: row.webhook_id,
        delivery_id: row.delivery_id,
        event: row.event_type,
        attempt: u32::try_from(row.attempt).unwrap_or_default(),
        attempted_at: row.attempted_at,
        status_code: row.status_code.and_then(|code| u16::try_from(code).ok()),
        duration_ms: u64::try_from(row.duration_ms).unwrap_or_default(),
        response_excerpt: row.response_excerpt,
        error: row.error,
        succeeded: row.succeeded,
        next_attempt_at: row.next_attempt_at,
    }
}
