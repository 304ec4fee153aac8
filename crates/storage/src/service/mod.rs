//! Storage's use cases share one handle. They are split by concern: uploads and the MP3
//! registry (`uploads.rs`, with the length counter in `audio_length.rs`), owner-scoped reads
//! (`objects.rs`), the quota (`quota.rs`), the automatic clean-up of old MP3s (`cleanup.rs`,
//! run by `jobs/cleanup.rs`) and an account's data for administrators (`user_data.rs`).

mod audio_length;
mod cleanup;
mod objects;
mod quota;
mod uploads;
mod user_data;

use std::sync::Arc;

use scribevault_blob::{BlobError, BlobStore};

use crate::error::StorageError;
use crate::store::StorageStore;

/// The storage service's state.
#[derive(Clone)]
pub struct Storage {
    store: StorageStore,
    blobs: Arc<dyn BlobStore>,
    max_upload_bytes: u64,
    max_audio_seconds: u64,
}

fn invalid_path(error: BlobError) -> StorageError {
    StorageError::InvalidPath(error.to_string())
}

impl Storage {
    /// The service over its store and blob store.
    #[must_use]
    pub fn new(store: StorageStore, blobs: Arc<dyn BlobStore>, max_upload_bytes: u64) -> Self {
        Self {
            store,
            blobs,
            max_upload_bytes,
            max_audio_seconds: u64::MAX / 1_000,
        }
    }

    /// Refuses uploads whose audio plays longer than `seconds`.
    #[must_use]
    pub fn with_max_audio_seconds(mut self, seconds: u64) -> Self {
        self.max_audio_seconds = seconds;
        self
    }
}
