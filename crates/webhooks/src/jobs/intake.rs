//! The intake: each user event a webhook wants becomes one delivery in the outbox.

use chrono::Utc;
use scribevault_bus::EventSubscription;
use sea_orm::DbErr;

use crate::delivery::body;
use crate::domain::{WebhookData, WebhookEvent, WebhookPayload};
use crate::service::Webhooks;

pub(super) async fn run(webhooks: Webhooks, mut subscription: EventSubscription) {
    while let Some(envelope) = subscription.next().await {
        let Some((event, data)) = envelope.event().and_then(WebhookData::of) else {
            continue;
        };
        if let Err(error) = record(
            &webhooks,
            &envelope.user_id,
            &envelope.id.to_string(),
            event,
            data,
            envelope.occurred_at,
        )
        .await
        {
            tracing::warn!(error = %error, event = event.as_str(), "webhook deliveries not recorded");
        }
    }
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
