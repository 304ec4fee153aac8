//! The hand-off of finished transcripts to the library's ingest queue. Ingest is idempotent on
//! the source reference, so handing a file over twice never makes a second Vault item.

use scribevault_bus::contract::{LibraryIngest, SourceType, TranscriptSource};
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

impl Transcriptions {
    /// Queues `content` as `file`'s Vault item (or as the new transcript of the item it
    /// replaces), whose transcript is in `language` when known.
    pub(crate) async fn hand_to_library(
        &self,
        file: &TranscriptionFile,
        content: String,
        duration_seconds: Option<f64>,
        paths: VaultPaths,
        language: Option<String>,
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
            traceparent: scribevault_core::telemetry::current_traceparent(),
        };
        enqueue_work(self.work.as_ref(), &ingest)
            .await
            .map_err(unavailable)
    }
}
