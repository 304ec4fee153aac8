//! The shape of every event on the bus (docs/design.md §4).

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use serde::de::DeserializeOwned;

use crate::contract::{Event, WorkerControl};

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
        Self::new(event.name(), user_id, payload(event), traceparent)
    }

    /// A worker order about `user_id`'s work, happening now.
    #[must_use]
    pub fn for_control(
        order: &WorkerControl,
        user_id: impl Into<String>,
        traceparent: Option<String>,
    ) -> Self {
        Self::new(order.name(), user_id, payload(order), traceparent)
    }

    /// The same message under an id derived from `name`, so that announcing one fact twice (a
    /// producer that cannot tell whether its first announcement went out before it died)
    /// gives consumers one id, which they de-duplicate on (the webhook outbox does).
    #[must_use]
    pub fn with_id_for(mut self, name: &str) -> Self {
        self.id = uuid::Uuid::new_v5(&uuid::Uuid::NAMESPACE_OID, name.as_bytes());
        self
    }

    /// The typed event, when the envelope carries one this build knows.
    #[must_use]
    pub fn event(&self) -> Option<Event> {
        self.typed()
    }

    /// The typed worker order, when the envelope carries one this build knows.
    #[must_use]
    pub fn control(&self) -> Option<WorkerControl> {
        self.typed()
    }

    fn typed<T: DeserializeOwned>(&self) -> Option<T> {
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

/// The `data` half of a message tagged `{type, data}`. The contract types are plain data, so
/// serializing them cannot fail.
fn payload(tagged: &impl Serialize) -> serde_json::Value {
    serde_json::to_value(tagged)
        .ok()
        .and_then(|mut tagged| tagged.get_mut("data").map(serde_json::Value::take))
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_fact_announced_twice_has_one_id_and_two_facts_have_two() {
        let announce = |name: &str| {
            EventEnvelope::new("libraryUpdate", "alice", serde_json::json!({}), None)
                .with_id_for(name)
        };
        assert_eq!(
            announce("created/alice/1").id,
            announce("created/alice/1").id
        );
        assert_ne!(
            announce("created/alice/1").id,
            announce("created/alice/2").id
        );
        let plain = EventEnvelope::new("libraryUpdate", "alice", serde_json::json!({}), None);
        assert_ne!(plain.id, announce("created/alice/1").id);
    }
}
