//! The hand-off of finished transcripts to the library's ingest queue. Ingest is idempotent on
//! the source reference, so handing a file over twice never makes a second Vault item.

use scribevault_blob::owned_key;
use scribevault_bus::contract::{LibraryIngest, SourceType, TranscriptReview, TranscriptSource};
use scribevault_bus::enqueue_work;

use crate::domain::TranscriptionFile;
use crate::error::TranscriptionError;
use crate::service::{Transcriptions, unavailable};

/// The library's idempotency key for a transcribed file.
fn source_ref(file: &TranscriptionFile) -> String {
    format!("transcription:{}", file.row_id)
}

/// Where the worker stored a file's transcript and its segments, for the library to keep.
pub(crate) struct VaultPaths {
    pub transcript_path: Option<String>,
    pub segments_path: Option<String>,
}

impl VaultPaths {
    /// The paths of a transcript stored at `transcript_path` (`….txt`): the worker writes the
    /// segments beside it as `….segments.json`.
    pub fn beside(transcript_path: Option<&str>) -> Self {
        Self {
            transcript_path: transcript_path.map(str::to_owned),
            segments_path: transcript_path
                .and_then(|path| path.strip_suffix(".txt"))
                .map(|base| format!("{base}.segments.json")),
        }
    }
}

/// Where the worker stores a file's review (only when the quality guard left anything to
/// check), beside its transcript `….txt`: the completion carries the review, and a resend
/// after a crash reads it from here.
pub(crate) fn review_path_beside(transcript_path: &str) -> Option<String> {
    transcript_path
        .strip_suffix(".txt")
        .map(|base| format!("{base}.review.json"))
}

impl Transcriptions {
    /// The review the worker stored beside `file`'s transcript, if it stored one. A review
    /// that cannot be read is logged and left out: the item is still worth having.
    pub(crate) async fn stored_review(&self, file: &TranscriptionFile) -> Option<TranscriptReview> {
        let path = review_path_beside(file.transcript_path.as_deref()?)?;
        let key = owned_key(&file.user_id, &path).ok()?;
        let body = self.blobs.get(&key).await.ok()?;
        let bytes = match scribevault_blob::collect_body(body).await {
            Ok(bytes) => bytes,
            Err(error) => {
                tracing::warn!(error = %error, file = %file.row_id, "review unreadable; re-sent without it");
                return None;
            }
        };
        serde_json::from_slice::<TranscriptReview>(&bytes)
            .inspect_err(|error| tracing::warn!(error = %error, file = %file.row_id, "review malformed; re-sent without it"))
            .ok()
            .and_then(TranscriptReview::if_needed)
    }

    /// Queues `content` as `file`'s Vault item (or as the new transcript of the item it
    /// replaces), whose transcript is in `language` when known, with what the worker's
    /// quality guard left to check.
    #[allow(clippy::too_many_arguments)] // each is one thing the item is made of
    pub(crate) async fn hand_to_library(
        &self,
        file: &TranscriptionFile,
        content: String,
        duration_seconds: Option<f64>,
        paths: VaultPaths,
        language: Option<String>,
        review: Option<TranscriptReview>,
    ) -> Result<(), TranscriptionError> {
        if file.skip_vault {
            tracing::debug!(file = %file.row_id, "transcribed for its caller only: no Vault item");
            return Ok(());
        }
        let ingest = LibraryIngest {
            user_id: file.user_id.clone(),
            source_ref: source_ref(file),
            title: file.title.clone(),
            source_type: SourceType::Audio,
            content,
            duration_seconds,
            file_name: paths.transcript_path,
            segments_path: paths.segments_path,
            audio_path: Some(file.mp3_path.clone()),
            transcript_source: Some(TranscriptSource::Whisper),
            segments: Vec::new(),
            replaces_item: file.replaces_item.clone(),
            language,
            review,
            traceparent: scribevault_core::telemetry::current_traceparent(),
        };
        enqueue_work(self.work.as_ref(), &ingest)
            .await
            .map_err(unavailable)
    }
}
