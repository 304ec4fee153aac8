//! Turns `library.ingest` work messages into Vault items.
//!
//! The producer (the transcription service) enqueues one message per completed file. Ingest is
//! idempotent, so a redelivered message is acknowledged without a second item, and the
//! `libraryUpdate` event is published only when an item was really created.

use std::sync::Arc;

use scribevault_bus::{EventBus, EventEnvelope, WorkQueue};
use scribevault_core::UserId;
use serde::{Deserialize, Serialize};

use crate::service::{Library, NewLibraryItem};

/// The work queue the library consumes.
pub const INGEST_QUEUE: &str = "library.ingest";

/// A request to put a finished piece of content into a user's Vault.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct IngestMessage {
    /// The owner.
    pub user_id: String,
    /// Idempotency key (the transcription file id).
    pub source_ref: String,
    /// Item title.
    pub title: String,
    /// `AUDIO`, `PDF`, …
    pub source_type: String,
    /// The text.
    pub content: String,
    /// Audio length in seconds.
    #[serde(default)]
    pub duration_seconds: Option<f64>,
    /// W3C trace context of the producing operation.
    #[serde(default)]
    pub traceparent: Option<String>,
}

/// Consumes the ingest queue until the bus shuts down.
pub async fn run_ingest_consumer(
    library: Library,
    work: Arc<dyn WorkQueue>,
    events: Arc<dyn EventBus>,
) {
    let mut consumer = match work.consume(INGEST_QUEUE).await {
        Ok(consumer) => consumer,
        Err(error) => {
            tracing::error!(error = %error, "cannot consume the library ingest queue");
            return;
        }
    };
    while let Some(message) = consumer.next().await {
        let ingest: IngestMessage = match serde_json::from_slice(&message.body) {
            Ok(ingest) => ingest,
            Err(error) => {
                tracing::error!(error = %error, "undecodable ingest message dropped");
                let _ = message.ack().await;
                continue;
            }
        };
        let span = tracing::info_span!("library.ingest", source_ref = %ingest.source_ref);
        if let Some(traceparent) = &ingest.traceparent {
            scribevault_core::telemetry::set_parent_from_traceparent(&span, traceparent);
        }
        let _entered = span.enter();
        let user = UserId::new(ingest.user_id.clone());
        let outcome = library
            .ingest(
                &user,
                NewLibraryItem {
                    source_ref: ingest.source_ref,
                    title: ingest.title,
                    source_type: ingest.source_type,
                    content: ingest.content,
                    duration_seconds: ingest.duration_seconds,
                    created_at: None,
                },
            )
            .await;
        match outcome {
            Ok(ingested) => {
                if ingested.created {
                    let event = EventEnvelope::new(
                        "libraryUpdate",
                        user.as_str(),
                        serde_json::json!({ "type": "created", "transcript": { "id": ingested.item.id, "title": ingested.item.title } }),
                        scribevault_core::telemetry::current_traceparent(),
                    );
                    if let Err(error) = events.publish(&event).await {
                        tracing::warn!(error = %error, "libraryUpdate event not published");
                    }
                }
                let _ = message.ack().await;
            }
            Err(error) => {
                tracing::error!(error = %error, "ingest failed; will be retried");
                let _ = message.nack().await;
            }
        }
    }
}
