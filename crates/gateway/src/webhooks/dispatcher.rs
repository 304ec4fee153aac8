//! Events in, deliveries out. Every replica runs both halves: the intake records a delivery
//! for each event a webhook wants (the outbox's unique key makes the replicas' copies one),
//! and the dispatcher claims due deliveries one at a time per delivery and makes one attempt.

use std::sync::Arc;
use std::time::Duration;

use chrono::Utc;
use scribevault_bus::{BusError, EventBus, EventSubscription};
use sea_orm::{DatabaseConnection, DbErr};
use tokio::sync::{Notify, Semaphore};

use super::sender::{self, Outcome};
use super::signature::new_message_id;
use super::store::{Attempt, ClaimedDelivery, DeliveryState, Webhook, WebhookStore};
use super::{WebhookConfig, WebhookData, WebhookEvent, WebhookPayload, WebhookTest};

/// Attempts made at once by one replica.
const CONCURRENT_ATTEMPTS: usize = 16;
/// How long settled deliveries stay in the outbox (see `WebhookStore::purge_settled`).
const KEEP_SETTLED: chrono::Duration = chrono::Duration::days(1);

/// The webhook store and the delivery machinery around it.
#[derive(Clone)]
pub struct Webhooks {
    store: WebhookStore,
    config: Arc<WebhookConfig>,
    wake: Arc<Notify>,
    /// Webhooks tested in the last `test_interval`: 'Send test' answers with the receiver's
    /// status and timing, so unlimited it would let a member scan ports from the instance.
    recent_tests: moka::future::Cache<String, ()>,
}

impl Webhooks {
    pub fn new(db: DatabaseConnection, config: WebhookConfig) -> Self {
        Self {
            store: WebhookStore::new(db),
            recent_tests: moka::future::Cache::builder()
                .time_to_live(
                    config
                        .test_interval
                        .max(std::time::Duration::from_millis(1)),
                )
                .max_capacity(100_000)
                .build(),
            config: Arc::new(config),
            wake: Arc::new(Notify::new()),
        }
    }

    /// The tables.
    #[must_use]
    pub fn store(&self) -> &WebhookStore {
        &self.store
    }

    /// What URLs may be called.
    #[must_use]
    pub fn policy(&self) -> super::address::AddressPolicy {
        self.config.policy
    }

    /// Subscribes to the user events (before returning, so no event published afterwards is
    /// missed) and runs the intake and the dispatcher until the task is aborted.
    ///
    /// # Errors
    /// The bus refuses the subscription.
    pub async fn start(
        self,
        events: &dyn EventBus,
    ) -> Result<tokio::task::JoinHandle<()>, BusError> {
        let subscription = events.subscribe().await?;
        Ok(tokio::spawn(async move {
            futures::join!(self.clone().intake(subscription), self.dispatch());
        }))
    }

    async fn intake(self, mut subscription: EventSubscription) {
        while let Some(envelope) = subscription.next().await {
            let Some((event, data)) = envelope.event().and_then(WebhookData::of) else {
                continue;
            };
            if let Err(error) = self
                .record(
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
        &self,
        user: &str,
        event_id: &str,
        event: WebhookEvent,
        data: WebhookData,
        occurred_at: chrono::DateTime<Utc>,
    ) -> Result<(), DbErr> {
        let hooks = self.store.subscribers(user, event).await?;
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
            recorded |= self
                .store
                .record_delivery(hook, event, event_id, &payload, now)
                .await?;
        }
        if recorded {
            self.wake.notify_one();
        }
        Ok(())
    }

    async fn dispatch(self) {
        let permits = Arc::new(Semaphore::new(CONCURRENT_ATTEMPTS));
        let mut last_purge = Utc::now();
        loop {
            let now = Utc::now();
            match self.store.due(now, 64).await {
                Ok(ids) => {
                    for id in ids {
                        let Ok(permit) = permits.clone().acquire_owned().await else {
                            return;
                        };
                        let now = Utc::now();
                        let lease = self.config.timeout + Duration::from_secs(30);
                        let until = now + chrono::Duration::from_std(lease).unwrap_or_default();
                        match self.store.claim(&id, now, until).await {
                            Ok(Some(claimed)) => {
                                let this = self.clone();
                                tokio::spawn(async move {
                                    this.deliver(claimed).await;
                                    drop(permit);
                                });
                            }
                            Ok(None) => {}
                            Err(error) => {
                                tracing::warn!(error = %error, "webhook delivery not claimed");
                            }
                        }
                    }
                }
                Err(error) => tracing::warn!(error = %error, "due webhook deliveries not read"),
            }
            if now - last_purge > chrono::Duration::hours(1) {
                last_purge = now;
                if let Err(error) = self.store.purge_settled(now - KEEP_SETTLED).await {
                    tracing::warn!(error = %error, "settled webhook deliveries not purged");
                }
            }
            tokio::select! {
                () = self.wake.notified() => {}
                () = tokio::time::sleep(self.config.poll_interval) => {}
            }
        }
    }

    /// One attempt of a claimed delivery, logged, then settled: done, due again later, or
    /// given up (out of attempts, or 410 Gone, which also switches the webhook off).
    #[tracing::instrument(skip_all, fields(delivery = claimed.id, webhook = claimed.webhook_id, attempt = claimed.attempt))]
    async fn deliver(&self, claimed: ClaimedDelivery) {
        if let Err(error) = self.try_deliver(&claimed).await {
            // The claim runs out and another pass tries again.
            tracing::warn!(error = %error, "webhook delivery not settled");
        }
    }

    async fn try_deliver(&self, claimed: &ClaimedDelivery) -> Result<(), DbErr> {
        let hook = match self.store.webhook(&claimed.webhook_id).await? {
            Some(hook) if hook.enabled => hook,
            _ => {
                self.store
                    .settle(claimed, DeliveryState::Cancelled, None)
                    .await?;
                return Ok(());
            }
        };
        let outcome = sender::send(
            &self.config,
            &hook.url,
            &hook.secret,
            &claimed.id,
            &claimed.payload,
        )
        .await;
        let now = Utc::now();
        let retry_in = usize::try_from(claimed.attempt)
            .ok()
            .and_then(|attempt| self.config.retry_delays.get(attempt.checked_sub(1)?));
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
        self.store.log_attempt(&attempt).await?;
        self.store.settle(claimed, state, next_attempt_at).await?;
        tracing::info!(
            status = outcome.status_code,
            state = ?state,
            duration_ms = attempt.duration_ms,
            "webhook attempt"
        );
        if outcome.gone() {
            self.disable_gone(&hook).await?;
        }
        Ok(())
    }

    async fn disable_gone(&self, hook: &Webhook) -> Result<(), DbErr> {
        let now = Utc::now();
        let reason = format!(
            "The receiver answered 410 Gone on {}",
            now.format("%Y-%m-%d %H:%M UTC")
        );
        tracing::info!(webhook = hook.id, "webhook switched off after 410 Gone");
        self.store.disable(&hook.id, &reason, now).await
    }

    /// Whether `hook` may be tested now: once per `test_interval`.
    pub async fn claim_test(&self, hook: &str) -> bool {
        if self.config.test_interval.is_zero() {
            return true;
        }
        self.recent_tests
            .entry(hook.to_owned())
            .or_insert(())
            .await
            .is_fresh()
    }

    /// The shortest time between two tests of one webhook.
    #[must_use]
    pub fn test_interval(&self) -> std::time::Duration {
        self.config.test_interval
    }

    /// 'Send test': a `webhook.test` delivery made now, outside the outbox (no retries),
    /// logged like any other attempt.
    ///
    /// # Errors
    /// The log cannot be written.
    pub async fn send_test(&self, hook: &Webhook) -> Result<Attempt, DbErr> {
        let message_id = new_message_id();
        let payload = body(&WebhookPayload {
            event: WebhookEvent::Test,
            timestamp: Utc::now(),
            data: WebhookData::Test(WebhookTest {
                webhook_id: hook.id.clone(),
                message: "A test delivery from Scribevault".to_owned(),
            }),
        });
        let outcome =
            sender::send(&self.config, &hook.url, &hook.secret, &message_id, &payload).await;
        let attempt = logged(
            hook,
            &message_id,
            WebhookEvent::Test.as_str(),
            1,
            &outcome,
            None,
        );
        self.store.log_attempt(&attempt).await?;
        if outcome.gone() {
            self.disable_gone(hook).await?;
        }
        Ok(attempt)
    }
}

fn body(payload: &WebhookPayload) -> String {
    // Plain data of the contract's types: serializing cannot fail.
    serde_json::to_string(payload).unwrap_or_default()
}

fn logged(
    hook: &Webhook,
    delivery_id: &str,
    event: &str,
    attempt: u32,
    outcome: &Outcome,
    next_attempt_at: Option<chrono::DateTime<Utc>>,
) -> Attempt {
    Attempt {
        id: uuid::Uuid::now_v7().to_string(),
        webhook_id: hook.id.clone(),
        delivery_id: delivery_id.to_owned(),
        event: event.to_owned(),
        attempt,
        attempted_at: Utc::now(),
        status_code: outcome.status_code,
        duration_ms: u64::try_from(outcome.duration.as_millis()).unwrap_or(u64::MAX),
        response_excerpt: outcome.response_excerpt.clone(),
        error: outcome.error.clone(),
        succeeded: outcome.succeeded(),
        next_attempt_at,
    }
}
