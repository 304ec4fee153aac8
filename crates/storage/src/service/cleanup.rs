//! The automatic clean-up of old MP3s (run by `jobs/cleanup.rs`).

use chrono::{DateTime, Utc};
use scribevault_blob::owned_key;

use super::{Storage, invalid_path};
use crate::error::StorageError;

impl Storage {
    /// Deletes, for every user with clean-up on, the MP3s last uploaded more than their
    /// `cleanupAfterDays` before `now`. Transcripts, converted files and Vault items are other
    /// services' and are never touched. Logs each file removed; answers how many.
    ///
    /// # Errors
    /// Database failure (a blob that cannot be deleted is logged and kept registered).
    #[tracing::instrument(skip(self))]
    pub async fn sweep_old_mp3s(&self, now: DateTime<Utc>) -> Result<usize, StorageError> {
        let mut removed = 0;
        for (user_id, days) in self.store.cleanup_policies().await? {
            let before = now - chrono::Duration::days(i64::from(days));
            for (path, size) in self.store.audio_older_than(&user_id, before).await? {
                let key = owned_key(&user_id, &path).map_err(invalid_path)?;
                if let Err(error) = self.blobs.delete(&key).await {
                    tracing::warn!(user = user_id, path, error = %error, "old MP3 not deleted; kept for the next sweep");
                    continue;
                }
                self.store.forget_audio(&user_id, &path).await?;
                tracing::info!(
                    user = user_id,
                    path,
                    size,
                    older_than_days = days,
                    "old MP3 removed by automatic clean-up"
                );
                removed += 1;
            }
        }
        Ok(removed)
    }
}
