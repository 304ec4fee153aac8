//! The HTTP side of a delivery: which URLs may be called (the SSRF guard), the Standard
//! Webhooks signature, and one attempt through both.

pub mod address;
pub mod sender;
pub mod signature;

use chrono::Utc;

use crate::domain::{Attempt, Webhook, WebhookPayload};
use sender::Outcome;

/// The JSON body of `payload`.
pub(crate) fn body(payload: &WebhookPayload) -> String {
    // Plain data of the contract's types: serializing cannot fail.
    serde_json::to_string(payload).unwrap_or_default()
}

/// One attempt as the log keeps it.
pub(crate) fn logged(
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
