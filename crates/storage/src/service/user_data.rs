//! An account's data, deleted for administrators.

use scribevault_blob::owned_folder;
use scribevault_core::UserId;

use super::Storage;
use crate::domain::{DeletedUserData, UPLOADS_ROOT};
use crate::error::StorageError;

impl Storage {
    /// Deletes everything the caller has here: their rows (the MP3 registry, stored audio,
    /// policy) and every object under their `uploads/`. Another user's data is never read.
    /// Deleting again finds nothing and succeeds; an upload that was streaming meanwhile may
    /// leave its file, which the next call deletes.
    ///
    /// # Errors
    /// Database or blob store failure (a second call finishes the work).
    #[tracing::instrument(skip(self), fields(user = %user))]
    pub async fn delete_user_data(&self, user: &UserId) -> Result<DeletedUserData, StorageError> {
        let rows = self.store.delete_user(user.as_str()).await?;
        // A user id that cannot be one key segment (a `/` in it) never owned an object.
        let blobs = match owned_folder(user.as_str(), UPLOADS_ROOT) {
            Ok(folder) => self
                .blobs
                .delete_prefix(&folder)
                .await
                .map_err(|error| StorageError::Blob(error.to_string()))?,
            Err(_) => 0,
        };
        tracing::info!(rows, blobs, "user data deleted");
        Ok(DeletedUserData { rows, blobs })
    }
}
