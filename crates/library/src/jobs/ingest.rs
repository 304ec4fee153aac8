//! Turns `library.ingest` work messages into Vault items.
//!
//! Producers (the transcription service today) enqueue one message per finished piece of
//! content. Ingest is idempotent, so a redelivered message is settled without a second item, and
//! `libraryUpdate` is published only when an item was really created.

use std::future::Future;
use std::sync::Arc;

use scribevault_bus::contract::{LibraryIngest, LibraryItemRef, LibraryUpdate};
use scribevault_bus::{Event, EventBus, EventEnvelope, Settlement, WorkQueue, run_work_consumer};
use scribevault_core::UserId;

use crate::domain::NewLibraryItem;
use crate::service::Library;

/// Consumes the ingest queue until `shutdown` resolves.
pub async fn run_ingest_consumer(
    library: Library,
    work: Arc<dyn WorkQueue>,
    events: Arc<dyn EventBus>,
    concurrency: usize,
    shutdown: impl Future<Output = ()> + Send,
) {
    run_work_consumer(
        work,
        concurrency,
        shutdown,
        |ingest: &LibraryIngest, attempt| {
            tracing::info_span!("library.ingest", source_ref = %ingest.source_ref, attempt)
        },
        move |ingest: LibraryIngest, _attempt| {
            let library = library.clone();
            let events = events.clone();
            async move { ingest_one(&library, events.as_ref(), ingest).await }
        },
    )
    .await;
}

#[tracing::instrument(skip_all)]
async fn ingest_one(library: &Library, events: &dyn EventBus, ingest: LibraryIngest) -> Settlement {
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
                let event = Event::LibraryUpdate(LibraryUpdate {
                    change: "created".into(),
                    transcript: LibraryItemRef {
                        id: ingested.item.id,
                        title: ingested.item.title,
                    },
                });
                let envelope = EventEnvelope::for_event(
                    &event,
                    user.as_str(),
                    scribevault_core::telemetry::current_traceparent(),
                );
                if let Err(error) = events.publish(&envelope).await {
                    tracing::warn!(error = %error, "libraryUpdate event not published");
                }
            }
            Settlement::Done
        }
        Err(error) => {
            tracing::error!(error = %error, "ingest failed");
            Settlement::Retry
        }
    }
}
