//! The webhook service: a member's webhooks (made, changed, tested, deleted through their
//! owner only) and the machinery the delivery jobs share with 'Send test'.

mod test_delivery;
mod user_data;
mod webhooks;

use std::sync::Arc;

use chrono::Utc;
use sea_orm::DbErr;
use tokio::sync::Notify;

use crate::config::WebhookConfig;
use crate::domain::Webhook;
use crate::store::WebhookStore;

pub use webhooks::{WebhookUpdate, WebhookWithLastAttempt};

/// The webhook store and the delivery machinery around it.
#[derive(Clone)]
pub struct Webhooks {
    pub(crate) store: WebhookStore,
    pub(crate) config: Arc<WebhookConfig>,
    /// Rung when a delivery is recorded, so the dispatcher does not wait for its next poll.
    pub(crate) wake: Arc<Notify>,
    /// Webhooks tested in the last `test_interval`: 'Send test' answers with the receiver's
    /// status and timing, so unlimited it would let a member scan ports from the instance.
    recent_tests: moka::future::Cache<String, ()>,
}

impl Webhooks {
    pub fn new(store: WebhookStore, config: WebhookConfig) -> Self {
        Self {
            store,
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

    /// Switches `hook` off after its receiver answered 410 Gone, saying so in Settings.
    pub(crate) async fn disable_gone(&self, hook: &Webhook) -> Result<(), DbErr> {
        let now = Utc::now();
        let reason = format!(
            "The receiver answered 410 Gone on {}",
            now.format("%Y-%m-%d %H:%M UTC")
        );
        tracing::info!(webhook = hook.id, "webhook switched off after 410 Gone");
        self.store.disable(&hook.id, &reason, now).await
    }
}
