//! What the owner's sockets hear about their Vault: `libraryUpdate` for an item created,
//! changed or deleted, and `statsUpdate` with the new figures. A failed publish is logged; the
//! change itself has happened.

use chrono::Utc;
use scribevault_bus::contract::{LibraryItemRef, LibraryUpdate};
use scribevault_bus::{Event, EventEnvelope};
use scribevault_core::UserId;

use super::Library;

/// What happened to an item.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ItemChange {
    Created,
    Updated,
    Deleted,
}

impl ItemChange {
    fn as_str(self) -> &'static str {
        match self {
            Self::Created => "created",
            Self::Updated => "updated",
            Self::Deleted => "deleted",
        }
    }
}

impl Library {
    async fn publish(&self, user: &UserId, event: Event) {
        let envelope = EventEnvelope::for_event(
            &event,
            user.as_str(),
            scribevault_core::telemetry::current_traceparent(),
        );
        if let Err(error) = self.events.publish(&envelope).await {
            tracing::warn!(error = %error, event = event.name(), "event not published");
        }
    }

    /// Announces a change to an item, then the stats it changed.
    pub(super) async fn announce(&self, user: &UserId, change: ItemChange, id: &str, title: &str) {
        self.publish(
            user,
            Event::LibraryUpdate(LibraryUpdate {
                change: change.as_str().into(),
                transcript: LibraryItemRef {
                    id: id.to_owned(),
                    title: title.to_owned(),
                },
            }),
        )
        .await;
        self.announce_stats(user).await;
    }

    /// Sends the owner's current stats.
    pub(super) async fn announce_stats(&self, user: &UserId) {
        match self.store.stats(user.as_str(), Utc::now()).await {
            Ok(stats) => match serde_json::to_value(&stats) {
                Ok(value) => self.publish(user, Event::StatsUpdate(value)).await,
                Err(error) => tracing::warn!(error = %error, "stats not serialised"),
            },
            Err(error) => tracing::warn!(error = %error, "stats for statsUpdate not read"),
        }
    }
}
