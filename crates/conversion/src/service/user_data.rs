//! Everything conversion keeps of one user, deleted for an administrator deleting the account.

use scribevault_blob::owned_folder;
use scribevault_core::UserId;

use super::Conversion;
use crate::domain::{CONVERTED_ROOT, DeletedUserData};
use crate::error::ConversionError;

impl Conversion {
    /// Deletes everything the caller has here: their templates and every converted file (the
    /// objects under their `converted/`, PDFs kept for a premium reprocess included). Another
    /// user's data is never read. Deleting again finds nothing and succeeds; a conversion that
    /// was running meanwhile may leave its files, which the next call deletes.
    ///
    /// # Errors
    /// Database or blob store failure (a second call finishes the work).
    #[tracing::instrument(skip(self), fields(user = %user))]
    pub async fn delete_user_data(
        &self,
        user: &UserId,
    ) -> Result<DeletedUserData, ConversionError> {
        let rows = self.store.delete_user(user.as_str()).await?;
        // A user id that cannot be one key segment (a `/` in it) never owned an object.
        let blobs = match owned_folder(user.as_str(), CONVERTED_ROOT) {
            Ok(folder) => self.blobs.delete_prefix(&folder).await?,
            Err(_) => 0,
        };
        tracing::info!(rows, blobs, "user data deleted");
        Ok(DeletedUserData { rows, blobs })
    }
}
