//! 'Send test': one `webhook.test` attempt made now, outside the outbox (no retries), logged
//! like any other, at most one per webhook every `test_interval`.

use chrono::Utc;
use scribevault_core::UserId;

use super::Webhooks;
use crate::delivery::signature::new_message_id;
use crate::delivery::{body, logged, sender};
use crate::domain::{Attempt, WebhookData, WebhookEvent, WebhookPayload, WebhookTest};
use crate::error::WebhookError;

impl Webhooks {
    /// Delivers a test event to the member's webhook `id` (even a switched-off one) and
    /// answers how the attempt went: a receiver's failure is this call's success.
    ///
    /// # Errors
    /// Unknown id or another member's; tested too recently; the log cannot be written.
    pub async fn send_test(&self, user: &UserId, id: &str) -> Result<Attempt, WebhookError> {
        let hook = self.owned(user, id).await?;
        if !self.claim_test(&hook.id).await {
            return Err(WebhookError::TestedRecently {
                seconds: self.config.test_interval.as_secs(),
            });
        }
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
            &hook,
            &message_id,
            WebhookEvent::Test.as_str(),
            1,
            &outcome,
            None,
        );
        self.store.log_attempt(&attempt).await?;
        if outcome.gone() {
            self.disable_gone(&hook).await?;
        }
        Ok(attempt)
    }

    /// Whether `hook` may be tested now: once per `test_interval`.
    async fn claim_test(&self, hook: &str) -> bool {
        if self.config.test_interval.is_zero() {
            return true;
        }
        self.recent_tests
            .entry(hook.to_owned())
            .or_insert(())
            .await
            .is_fresh()
    }
}
