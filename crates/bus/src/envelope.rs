//! The shape of every event on the bus (DESIGN §4).

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

/// One state change, addressed to one user's sessions.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct EventEnvelope {
    /// Unique id, for de-duplication by consumers.
    pub id: uuid::Uuid,
    /// The event name as the SPA knows it, e.g. `transcriptionProgress`.
    #[serde(rename = "type")]
    pub event_type: String,
    /// Whose sockets receive it.
    pub user_id: String,
    /// When the change happened.
    pub occurred_at: DateTime<Utc>,
    /// W3C trace context of the operation that caused it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub traceparent: Option<String>,
    /// The payload the SPA receives.
    pub data: serde_json::Value,
}

impl EventEnvelope {
    /// A new event happening now, carrying the caller's trace context.
    #[must_use]
    pub fn new(
        event_type: impl Into<String>,
        user_id: impl Into<String>,
        data: serde_json::Value,
        traceparent: Option<String>,
    ) -> Self {
        Self {
            id: uuid::Uuid::new_v4(),
            event_type: event_type.into(),
            user_id: user_id.into(),
            occurred_at: Utc::now(),
            traceparent,
            data,
        }
    }
}
