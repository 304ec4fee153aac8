//! The hand-off of finished transcripts to the library's ingest queue. Ingest is idempotent on
//! the source reference, so handing a file over twice never makes a second Vault item.

use scribevault_bus::contract::LibraryIngest;
use scribevault_bus::enqueue_work;

use crate::domain::TranscriptionFile;
use crate::error::TranscriptionError;
use crate::service::{Transcriptions, unavailable};

/// The library's idempotency key for a transcribed file.
fn source_ref(file: &TranscriptionFile) -> String {
    format!("transcription:{}", file.row_id)
}

impl Transcriptions {
    /// Queues `content` as `file`'s Vault item.
    pub(crate) async fn hand_to_library(
        &self,
        file: &TranscriptionFile,
        content: String,
        duration_seconds: Option<f64>,
    ) -> Result<(), TranscriptionError> {
        let ingest = LibraryIngest {
            user_id: file.user_id.clone(),
            source_ref: source_ref(file),
            title: file.title.clone(),
            source_type: "AUDIO".into(),
            content,
            duration_seconds,
            traceparent: scribevault_core::telemetry::current_traceparent(),
        };
        enqueue_work(self.work.as_ref(), &ingest)
            .await
            .map_err(unavailable)
    }
}
