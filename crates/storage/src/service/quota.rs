//! The quota: a user's policy, what their files take, and whether more fits.

use scribevault_blob::owned_folder;
use scribevault_core::UserId;

use super::Storage;
use crate::domain::{StoragePolicy, human_size};
use crate::error::StorageError;

/// Where the conversion service keeps a user's converted files; they count against the quota.
const CONVERTED_ROOT: &str = "converted/";

impl Storage {
    /// Records the caller's quota and clean-up policy; answers what their audio takes now.
    ///
    /// # Errors
    /// A zero quota; database failure.
    #[tracing::instrument(skip(self), fields(user = %user))]
    pub async fn set_policy(
        &self,
        user: &UserId,
        policy: StoragePolicy,
    ) -> Result<u64, StorageError> {
        if policy.max_bytes == 0 {
            return Err(StorageError::BadRequest(
                "the quota must be positive".into(),
            ));
        }
        if policy.cleanup_after_days == Some(0) {
            return Err(StorageError::BadRequest(
                "cleanupAfterDays must be at least 1".into(),
            ));
        }
        self.store.set_policy(user.as_str(), policy).await?;
        self.used_bytes(user).await
    }

    /// Bytes the caller keeps, what their quota counts: their audio, each stored MP3 once
    /// however often it was uploaded, and their converted files (PDF originals and markdown,
    /// which the conversion service writes under `converted/`).
    ///
    /// # Errors
    /// Database or blob store failure.
    pub async fn used_bytes(&self, user: &UserId) -> Result<u64, StorageError> {
        let audio = self.store.used_bytes(user.as_str()).await?;
        // A user id that cannot be one key segment never owned an object.
        let Ok(folder) = owned_folder(user.as_str(), CONVERTED_ROOT) else {
            return Ok(audio);
        };
        let converted: u64 = self
            .blobs
            .list(&format!("{}/", folder.as_str()))
            .await
            .map_err(|error| StorageError::Blob(error.to_string()))?
            .iter()
            .map(|object| object.size)
            .sum();
        Ok(audio.saturating_add(converted))
    }

    /// Whether `bytes` more fit in the caller's quota, for another service about to store them
    /// (a PDF and its conversion); answers what is left once they are stored.
    ///
    /// # Errors
    /// [`StorageError::QuotaExceeded`] when they do not; database or blob store failure.
    pub async fn check_room(&self, user: &UserId, bytes: u64) -> Result<u64, StorageError> {
        let policy = self.store.policy(user.as_str()).await?;
        let used = self.used_bytes(user).await?;
        if used.saturating_add(bytes) > policy.max_bytes || used >= policy.max_bytes {
            return Err(StorageError::QuotaExceeded {
                limit: human_size(policy.max_bytes),
                used: human_size(used),
            });
        }
        Ok(policy.max_bytes - used - bytes)
    }
}
