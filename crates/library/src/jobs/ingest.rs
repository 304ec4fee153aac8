//! Turns `library.ingest` work messages into Vault items.
//!
//! Producers (the transcription service today) enqueue one message per finished piece of
//! content. Ingest is idempotent, so a redelivered message is settled without a second item;
//! the service publishes `libraryUpdate` when an item was really created, and again (under the
//! same event id) when a redelivered message finds it made: the library that made it may have
//! died before announcing it.

use std::future::Future;
use std::sync::Arc;

use scribevault_bus::contract::LibraryIngest;
use scribevault_bus::{Settlement, WorkQueue, run_work_consumer};
use scribevault_core::UserId;

use crate::domain::{NewLibraryItem, ReplacementTranscript, TranscriptSource};
use crate::error::LibraryError;
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
        move |ingest: LibraryIngest, attempt| {
            let library = library.clone();
            async move { ingest_one(&library, ingest, attempt).await }
        },
    )
    .await;
}

#[tracing::instrument(skip_all)]
async fn ingest_one(library: &Library, ingest: LibraryIngest, attempt: u32) -> Settlement {
    let user = UserId::new(ingest.user_id.clone());
    if let Some(item_id) = &ingest.replaces_item {
        let replacement = ReplacementTranscript {
            content: ingest.content,
            segments: ingest.segments,
            source: ingest
                .transcript_source
                .unwrap_or(TranscriptSource::Whisper),
            language: ingest.language,
            review: ingest.review,
        };
        return match library
            .replace_transcript(&user, item_id, replacement, ingest.segments_path.as_deref())
            .await
        {
            Ok(_) => Settlement::Done,
            // Deleted while Whisper ran: nothing is left to replace, and no retry brings it back.
            Err(LibraryError::NotFound) => {
                tracing::warn!(item = %item_id, "the item to replace is gone; transcript dropped");
                Settlement::Done
            }
            Err(error) => {
                tracing::error!(error = %error, "replacing a transcript failed");
                Settlement::Retry
            }
        };
    }
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
                segments: ingest.segments,
                audio_path: ingest.audio_path,
                transcript_source: ingest.transcript_source,
                language: ingest.language,
                review: ingest.review,
            },
            ingest.segments_path.as_deref(),
        )
        .await;
    match outcome {
        Ok(ingested) => {
            if !ingested.created && attempt > 1 {
                library
                    .announce_created_again(&user, &ingested.item.id, &ingested.item.title)
                    .await;
            }
            Settlement::Done
        }
        Err(error) => {
            tracing::error!(error = %error, "ingest failed");
            Settlement::Retry
        }
    }
}
