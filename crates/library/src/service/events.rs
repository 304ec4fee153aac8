//! What the owner's sockets hear about their Vault: `libraryUpdate` for an item created,
//! changed or deleted, and `statsUpdate` with the new figures. A failed publish is logged; the
//! change itself has happened.

use std::sync::PoisonError;
use std::time::Duration;

use chrono::Utc;
use scribevault_bus::contract::{ItemChange, LibraryItemRef, LibraryUpdate};
use scribevault_bus::{Event, EventEnvelope};
use scribevault_core::UserId;

use super::Library;

/// How long `statsUpdate` waits for more changes of the same burst.
const STATS_COALESCE: Duration = Duration::from_millis(300);

impl Library {
    async fn publish(&self, user: &UserId, event: Event) {
        let mut envelope = EventEnvelope::for_event(
            &event,
            user.as_str(),
            scribevault_core::telemetry::current_traceparent(),
        );
        if let Event::LibraryUpdate(update) = &event
            && update.change == ItemChange::Created
        {
            // One item is made once: its announcement has one id however often it is sent.
            envelope = envelope.with_id_for(&format!(
                "libraryUpdate/created/{}/{}",
                user.as_str(),
                update.transcript.id
            ));
        }
        if let Err(error) = self.events.publish(&envelope).await {
            tracing::warn!(error = %error, event = event.name(), "event not published");
        }
    }

    /// Announces a change to an item, then the stats it changed.
    pub(super) async fn announce(&self, user: &UserId, change: ItemChange, id: &str, title: &str) {
        self.publish(
            user,
            Event::LibraryUpdate(LibraryUpdate {
                change,
                transcript: LibraryItemRef {
                    id: id.to_owned(),
                    title: title.to_owned(),
                },
            }),
        )
        .await;
        self.announce_stats(user).await;
    }

    /// Announces again that `id` was made: an ingest delivered again may come from a library
    /// that stored the item and died before it said so. The announcement keeps its one id.
    pub async fn announce_created_again(&self, user: &UserId, id: &str, title: &str) {
        self.announce(user, ItemChange::Created, id, title).await;
    }

    /// Sends the owner's current stats, once for a burst of changes: the first change of a
    /// burst schedules one `statsUpdate` [`STATS_COALESCE`] later, and changes until then ride
    /// along. (Computing the figures on every change made a bulk ingest spend most of its time
    /// on stats nobody had time to look at.) A change after the figures were read schedules the
    /// next one, so the last `statsUpdate` is always current.
    pub(super) async fn announce_stats(&self, user: &UserId) {
        let first_of_burst = self
            .stats_pending
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(user.as_str().to_owned());
        if !first_of_burst {
            return;
        }
        let library = self.clone();
        let user = user.clone();
        tokio::spawn(async move {
            tokio::time::sleep(STATS_COALESCE).await;
            library
                .stats_pending
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .remove(user.as_str());
            library.publish_stats(&user).await;
        });
    }

    async fn publish_stats(&self, user: &UserId) {
        match self.store.stats(user.as_str(), Utc::now()).await {
            Ok(stats) => self.publish(user, Event::StatsUpdate(stats)).await,
            Err(error) => tracing::warn!(error = %error, "stats for statsUpdate not read"),
        }
    }
}
