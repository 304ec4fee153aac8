//! The transcription service's use cases share one handle. They are split by concern: job
//! intake (`intake.rs`), the file life cycle (`lifecycle.rs`), the model catalogue
//! (`models.rs`), users' defaults (`preferences.rs`), events (`events.rs`), the queue's
//! forecast and announcements (`queue.rs`), the hand-off to the Vault (`handoff.rs`) and an
//! account's data for administrators (`user_data.rs`); the recovery sweeps are in
//! `jobs/housekeeping.rs`.

mod audio_length;
mod events;
pub(crate) mod handoff;
mod intake;
mod lifecycle;
mod models;
mod preferences;
pub(crate) mod queue;
mod user_data;

use std::sync::Arc;

use scribevault_blob::BlobStore;
use scribevault_bus::contract::TranscriptionWork;
use scribevault_bus::{EventBus, WorkQueue, enqueue_work};

use crate::config::TranscriptionConfig;
use crate::domain::TranscriptionFile;
use crate::error::TranscriptionError;
use crate::store::TranscriptionStore;

/// The transcription service.
#[derive(Clone)]
pub struct Transcriptions {
    pub(crate) store: TranscriptionStore,
    pub(crate) events: Arc<dyn EventBus>,
    pub(crate) work: Arc<dyn WorkQueue>,
    pub(crate) blobs: Arc<dyn BlobStore>,
    pub(crate) config: TranscriptionConfig,
    /// What each user was last told of their queued files.
    pub(crate) announced: Arc<queue::AnnouncedQueues>,
}

pub(crate) fn unavailable(error: impl std::fmt::Display) -> TranscriptionError {
    TranscriptionError::Unavailable(error.to_string())
}

impl Transcriptions {
    /// The service over its store and backends.
    #[must_use]
    pub fn new(
        store: TranscriptionStore,
        events: Arc<dyn EventBus>,
        work: Arc<dyn WorkQueue>,
        blobs: Arc<dyn BlobStore>,
        config: TranscriptionConfig,
    ) -> Self {
        Self {
            store,
            events,
            work,
            blobs,
            config,
            announced: Arc::default(),
        }
    }

    /// The service's settings.
    #[must_use]
    pub fn config(&self) -> &TranscriptionConfig {
        &self.config
    }

    /// Queues one work message for `file`.
    pub(crate) async fn enqueue(&self, file: &TranscriptionFile) -> Result<(), TranscriptionError> {
        let work = TranscriptionWork {
            user_id: file.user_id.clone(),
            job_id: file.job_id.clone(),
            file_id: file.file_id.clone(),
            traceparent: scribevault_core::telemetry::current_traceparent(),
        };
        enqueue_work(self.work.as_ref(), &work)
            .await
            .map_err(unavailable)
    }
}
