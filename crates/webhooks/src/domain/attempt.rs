//! Deliveries: where one stands, the one this replica holds, and one attempt as the log keeps
//! it.

use chrono::{DateTime, Utc};

/// One try of one delivery, as the log keeps it.
#[derive(Debug, Clone)]
pub struct Attempt {
    pub id: String,
    pub webhook_id: String,
    pub delivery_id: String,
    pub event: String,
    pub attempt: u32,
    pub attempted_at: DateTime<Utc>,
    pub status_code: Option<u16>,
    pub duration_ms: u64,
    pub response_excerpt: Option<String>,
    pub error: Option<String>,
    pub succeeded: bool,
    pub next_attempt_at: Option<DateTime<Utc>>,
}

/// A delivery claimed by this replica.
#[derive(Debug, Clone)]
pub struct ClaimedDelivery {
    pub id: String,
    pub webhook_id: String,
    pub event_type: String,
    pub payload: String,
    /// This attempt's number, 1 for the first.
    pub attempt: u32,
    pub claim_token: String,
}

/// Where a delivery stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DeliveryState {
    /// Waiting for its next attempt.
    Pending,
    Succeeded,
    /// Out of attempts, or the receiver answered 410 Gone.
    Failed,
    /// Its webhook was switched off before it went out.
    Cancelled,
}
