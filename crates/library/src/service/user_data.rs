//! A user's whole Vault, deleted for an administrator deleting the account.

use scribevault_blob::owned_folder;
use scribevault_core::UserId;

use super::Library;
use crate::domain::{DeletedUserData, EXPORTS_ROOT};
use crate::error::LibraryError;

impl Library {
    /// Deletes everything the caller has here: their items with their search entries,
    /// segments and tags, their tags, sections and exports (so their links answer not found),
    /// and every object under their `exports/`. Another user's data is never read. Deleting
    /// again finds nothing and succeeds. No event is sent: the account is going away.
    ///
    /// # Errors
    /// Database or blob store failure (a second call finishes the work).
    #[tracing::instrument(skip(self), fields(user = %user))]
    pub async fn delete_user_data(&self, user: &UserId) -> Result<DeletedUserData, LibraryError> {
        let rows = self.store.delete_user(user.as_str()).await?;
        // A user id that cannot be one key segment (a `/` in it) never owned an object.
        let blobs = match owned_folder(user.as_str(), EXPORTS_ROOT) {
            Ok(folder) => self.blobs.delete_prefix(&folder).await?,
            Err(_) => 0,
        };
        tracing::info!(rows, blobs, "user data deleted");
        Ok(DeletedUserData { rows, blobs })
    }
}
