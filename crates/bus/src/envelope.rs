//! The shape of every event on the bus (DESIGN §4).

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use crate::contract::Event;

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
    /// `event` for `user_id`'s sockets, happening now.
    #[must_use]
    pub fn for_event(
        event: &Event,
        user_id: impl Into<String>,
        traceparent: Option<String>,
    ) -> Self {
        // An `Event` is plain data: serializing it cannot fail.
        let data = serde_json::to_value(event)
            .ok()
            .and_then(|mut tagged| tagged.get_mut("data").map(serde_json::Value::take))
            .unwrap_or_default();
        Self::new(event.name(), user_id, data, traceparent)
    }

    /// The typed event, when the envelope carries one this build knows.
    #[must_use]
    pub fn event(&self) -> Option<Event> {
        serde_json::from_value(serde_json::json!({ "type": self.event_type, "data": self.data }))
            .ok()
    }

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
