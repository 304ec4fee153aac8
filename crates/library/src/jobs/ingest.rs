//! Turns `library.ingest` work messages into Vault items.
//!
//! Producers (the transcription service today) enqueue one message per finished piece of
//! content. Ingest is idempotent, so a redelivered message is settled without a second item;
//! the service publishes `libraryUpdate` only when an item was really created.

use std::future::Future;
use std::sync::Arc;

use scribevault_bus::contract::LibraryIngest;
use scribevault_bus::{Settlement, WorkQueue, run_work_consumer};
use scribevault_core::UserId;

use crate::domain::NewLibraryItem;
use crate::service::Library;

/// Consumes the ingest queue until `shutdown` resolves.
pub async fn run_ingest_consumer(
    library: Library,
    work: Arc<dyn WorkQueue>,
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
            async move { ingest_one(&library, ingest).await }
        },
    )
    .await;
}

#[tracing::instrument(skip_all)]
async fn ingest_one(library: &Library, ingest: LibraryIngest) -> Settlement {
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
                file_name: ingest.file_name,
                segments: Vec::new(),
                audio_path: ingest.audio_path,
            },
            ingest.segments_path.as_deref(),
        )
        .await;
    match outcome {
        Ok(_) => Settlement::Done,
        Err(error) => {
            tracing::error!(error = %error, "ingest failed");
            Settlement::Retry
        }
    }
}
