//! The dispatcher: claims due deliveries (one replica at a time per delivery), makes one
//! attempt of each and settles it: done, due again later, or given up.

use std::sync::Arc;
use std::time::Duration;

use chrono::Utc;
use sea_orm::DbErr;
use tokio::sync::Semaphore;

use crate::delivery::{logged, sender};
use crate::domain::{ClaimedDelivery, DeliveryState};
use crate::service::Webhooks;

/// Attempts made at once by one replica.
const CONCURRENT_ATTEMPTS: usize = 16;
/// How long settled deliveries stay in the outbox (see `WebhookStore::purge_settled`).
const KEEP_SETTLED: chrono::Duration = chrono::Duration::days(1);

pub(super) async fn run(webhooks: Webhooks) {
    let permits = Arc::new(Semaphore::new(CONCURRENT_ATTEMPTS));
    let mut last_purge = Utc::now();
    loop {
        let now = Utc::now();
        match webhooks.store.due(now, 64).await {
            Ok(ids) => {
                for id in ids {
                    let Ok(permit) = permits.clone().acquire_owned().await else {
                        return;
                    };
                    claim_and_deliver(&webhooks, &id, permit).await;
                }
            }
            Err(error) => tracing::warn!(error = %error, "due webhook deliveries not read"),
        }
        if now - last_purge > chrono::Duration::hours(1) {
            last_purge = now;
            if let Err(error) = webhooks.store.purge_settled(now - KEEP_SETTLED).await {
                tracing::warn!(error = %error, "settled webhook deliveries not purged");
            }
        }
        tokio::select! {
            () = webhooks.wake.notified() => {}
            () = tokio::time::sleep(webhooks.config.poll_interval) => {}
        }
    }
}

/// Claims delivery `id` for the length of one attempt and spawns the attempt; nothing when
/// another replica holds it.
async fn claim_and_deliver(
    webhooks: &Webhooks,
    id: &str,
    permit: tokio::sync::OwnedSemaphorePermit,
) {
    let now = Utc::now();
    let lease = webhooks.config.timeout + Duration::from_secs(30);
    let until = now + chrono::Duration::from_std(lease).unwrap_or_default();
    match webhooks.store.claim(id, now, until).await {
        Ok(Some(claimed)) => {
            let webhooks = webhooks.clone();
            tokio::spawn(async move {
                deliver(&webhooks, claimed).await;
                drop(permit);
            });
        }
        Ok(None) => {}
        Err(error) => tracing::warn!(error = %error, "webhook delivery not claimed"),
    }
}

/// One attempt of a claimed delivery, logged, then settled: done, due again later, or given
/// up (out of attempts, or 410 Gone, which also switches the webhook off).
#[tracing::instrument(skip_all, fields(delivery = claimed.id, webhook = claimed.webhook_id, attempt = claimed.attempt))]
async fn deliver(webhooks: &Webhooks, claimed: ClaimedDelivery) {
    if let Err(error) = try_deliver(webhooks, &claimed).await {
        // The claim runs out and another pass tries again.
        tracing::warn!(error = %error, "webhook delivery not settled");
    }
}

async fn try_deliver(webhooks: &Webhooks, claimed: &ClaimedDelivery) -> Result<(), DbErr> {
    let store = &webhooks.store;
    let hook = match store.webhook(&claimed.webhook_id).await? {
        Some(hook) if hook.enabled => hook,
        _ => {
            store
                .settle(claimed, DeliveryState::Cancelled, None)
                .await?;
            return Ok(());
        }
    };
    let config = &webhooks.config;
    let outcome = sender::send(
        config,
        &hook.url,
        &hook.secret,
        &claimed.id,
        &claimed.payload,
    )
    .await;
    let now = Utc::now();
    let retry_in = usize::try_from(claimed.attempt)
        .ok()
        .and_then(|attempt| config.retry_delays.get(attempt.checked_sub(1)?));
    let (state, next_attempt_at) = if outcome.succeeded() {
        (DeliveryState::Succeeded, None)
    } else if outcome.gone() {
        (DeliveryState::Failed, None)
    } else if let Some(delay) = retry_in {
        let delay = chrono::Duration::from_std(*delay).unwrap_or_default();
        (DeliveryState::Pending, Some(now + delay))
    } else {
        (DeliveryState::Failed, None)
    };
    let attempt = logged(
        &hook,
        &claimed.id,
        &claimed.event_type,
        claimed.attempt,
        &outcome,
        next_attempt_at,
    );
    store.log_attempt(&attempt).await?;
    store.settle(claimed, state, next_attempt_at).await?;
    tracing::info!(
        status = outcome.status_code,
        state = ?state,
        duration_ms = attempt.duration_ms,
        "webhook attempt"
    );
    if outcome.gone() {
        webhooks.disable_gone(&hook).await?;
    }
    Ok(())
}
