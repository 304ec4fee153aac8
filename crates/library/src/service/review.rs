//! 'Needs review' dismissed by the item's owner ('Mark as reviewed').

use scribevault_bus::contract::ItemChange;
use scribevault_core::UserId;

use super::Library;
use crate::domain::LibraryItem;
use crate::error::LibraryError;
use crate::store::ReviewCleared;

impl Library {
    /// Forgets what the quality guard left to check on one of the caller's items. Idempotent:
    /// an item with nothing to check is answered as it is, and only a real change is announced
    /// (`libraryUpdate`), so a second click does not refresh every open Vault again.
    ///
    /// # Errors
    /// [`LibraryError::NotFound`] for an unknown id or another user's item; database failure.
    #[tracing::instrument(skip_all, fields(user = %user, item = id))]
    pub async fn mark_reviewed(
        &self,
        user: &UserId,
        id: &str,
    ) -> Result<LibraryItem, LibraryError> {
        match self.store.clear_review(user.as_str(), id).await? {
            None => Err(LibraryError::NotFound),
            Some(ReviewCleared::AlreadyClear(item)) => Ok(item),
            Some(ReviewCleared::Cleared(item)) => {
                self.announce(user, ItemChange::Updated, &item.id, &item.title)
                    .await;
                Ok(item)
            }
        }
    }
}
