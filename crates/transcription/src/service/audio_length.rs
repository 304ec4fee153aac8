//! Measures a submitted MP3's length from its first bytes (`domain::mp3_length`), so that the
//! queue forecast knows a file's length before any worker has decoded it.

use scribevault_blob::{BlobKey, collect_body, owned_key};
use scribevault_core::UserId;

use crate::domain::FileToTranscribe;
use crate::domain::mp3_length::{HEAD_BYTES, audio_offset, estimate_seconds};
use crate::service::Transcriptions;

/// Bytes after a tag that hold the first frame and its successor at any bitrate (a 320 kbit/s
/// frame at 32 kHz is 1,441 bytes).
const MIN_FRAME_BYTES: usize = 4096;

impl Transcriptions {
    /// The length of each file's audio, in order; `None` where it could not be read (the
    /// forecast then assumes the usual length). A failed read is no reason to refuse a job.
    pub(crate) async fn audio_lengths(
        &self,
        user: &UserId,
        files: &[FileToTranscribe],
    ) -> Vec<Option<f64>> {
        let mut lengths = Vec::with_capacity(files.len());
        for file in files {
            let length = self.audio_length(user, &file.mp3_path).await;
            if length.is_none() {
                tracing::debug!(path = %file.mp3_path, "audio length unknown until transcribed");
            }
            lengths.push(length);
        }
        lengths
    }

    async fn audio_length(&self, user: &UserId, mp3_path: &str) -> Option<f64> {
        let key = owned_key(user.as_str(), mp3_path).ok()?;
        let size = self.blobs.head(&key).await.ok()??.size;
        let mut head = self.read_range(&key, 0).await?;
        let offset = audio_offset(&head);
        if offset >= size {
            return None;
        }
        if offset > 0 {
            let start = usize::try_from(offset).ok()?;
            head = if head.len().saturating_sub(start) >= MIN_FRAME_BYTES {
                head.split_off(start)
            } else {
                // A large tag (cover art): the audio starts past the bytes read.
                self.read_range(&key, offset).await?
            };
        }
        let seconds = estimate_seconds(&head, size - offset);
        (seconds.is_finite() && seconds > 0.0).then_some(seconds)
    }

    /// Up to [`HEAD_BYTES`] from `offset`.
    async fn read_range(&self, key: &BlobKey, offset: u64) -> Option<Vec<u8>> {
        let body = self.blobs.get_range(key, offset, HEAD_BYTES).await.ok()?;
        collect_body(body).await.ok()
    }
}
