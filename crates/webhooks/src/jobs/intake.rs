//! The intake: each user event a webhook wants becomes one delivery in the outbox. Events come
//! from a queue bound to the user events' topic, not from a fan-out subscription, so what is
//! published while no webhook service runs (a restart, a crash) waits for it; an event is
//! acknowledged once its deliveries are recorded, and one that fails to record comes back.

use std::sync::Arc;

use chrono::Utc;
use scribevault_bus::contract::WorkItem;
use scribevault_bus::{EventEnvelope, Settlement, WorkQueue, run_work_consumer};
use sea_orm::DbErr;
use serde::{Deserialize, Serialize};

use crate::delivery::body;
use crate::domain::{WebhookData, WebhookEvent, WebhookPayload};
use crate::service::Webhooks;

/// Events recorded at once.
const CONCURRENT_RECORDS: usize = 4;
/// How long an event that could not be recorded waits before it is delivered again.
const RETRY_PAUSE: std::time::Duration = std::time::Duration::from_secs(2);

/// A user event as the webhook service's bound queue carries it.
#[derive(Debug, Serialize, Deserialize)]
#[serde(transparent)]
pub(crate) struct QueuedEvent(EventEnvelope);

impl WorkItem for QueuedEvent {
    const QUEUE: &'static str = "webhooks.events";

    fn traceparent(&self) -> Option<&str> {
        self.0.traceparent.as_deref()
    }
}

pub(super) async fn run(webhooks: Webhooks, work: Arc<dyn WorkQueue>) {
    run_work_consumer(
        work,
        CONCURRENT_RECORDS,
        std::future::pending(),
        |queued: &QueuedEvent, delivery| {
            tracing::info_span!("webhook intake", event = %queued.0.event_type, delivery)
        },
        move |QueuedEvent(envelope), _| {
            let webhooks = webhooks.clone();
            async move {
                match intake(&webhooks, envelope).await {
                    Ok(()) => Settlement::Done,
                    Err(error) => {
                        tracing::warn!(error = %error, "webhook deliveries not recorded");
                        // The database is likely restarting: a pause before the event comes
                        // back keeps its deliveries from being used up in a moment.
                        tokio::time::sleep(RETRY_PAUSE).await;
                        Settlement::Retry
                    }
                }
            }
        },
    )
    .await;
}

async fn intake(webhooks: &Webhooks, envelope: EventEnvelope) -> Result<(), DbErr> {
    let Some((event, data)) = envelope.event().and_then(WebhookData::of) else {
        return Ok(());
    };
    record(
        webhooks,
        &envelope.user_id,
        &envelope.id.to_string(),
        event,
        data,
        envelope.occurred_at,
    )
    .await
}

async fn record(
    webhooks: &Webhooks,
    user: &str,
    event_id: &str,
    event: WebhookEvent,
    data: WebhookData,
    occurred_at: chrono::DateTime<Utc>,
) -> Result<(), DbErr> {
    let hooks = webhooks.store.subscribers(user, event).await?;
    if hooks.is_empty() {
        return Ok(());
    }
    let payload = body(&WebhookPayload {
        event,
        timestamp: occurred_at,
        data,
    });
    let now = Utc::now();
    let mut recorded = false;
    for hook in &hooks {
        recorded |= webhooks
            .store
            .record_delivery(hook, event, event_id, &payload, now)
            .await?;
    }
    if recorded {
        webhooks.wake.notify_one();
    }
    Ok(())
}
