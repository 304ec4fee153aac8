//! What an administrator needs of one account here: how many of its files still wait, and the
//! deletion of everything transcription keeps of it.

use scribevault_blob::owned_folder;
use scribevault_core::UserId;

use crate::domain::{DeletedUserData, FileStatus, TRANSCRIPTS_ROOT};
use crate::error::TranscriptionError;
use crate::service::{Transcriptions, unavailable};

impl Transcriptions {
    /// How many of the caller's files are not finished: pending, scheduled, transcribing or
    /// retrying ([`FileStatus::WAITING`]).
    ///
    /// # Errors
    /// Database failure.
    pub async fn count_waiting(&self, user: &UserId) -> Result<u64, TranscriptionError> {
        Ok(self
            .store
            .count_files_in(user.as_str(), &FileStatus::WAITING)
            .await?)
    }

    /// Deletes everything the caller has here: their jobs and files, and every object under
    /// their `transcripts/`. A queued file is gone when a worker asks for it (its claim is
    /// answered not found, and the worker drops the message); a worker holding one is ordered
    /// to stop, as on a cancel. Another user's data is never read. Deleting again finds nothing
    /// and succeeds; a transcript a worker was storing meanwhile may stay, and the next call
    /// deletes it. No event is sent: the account is going away.
    ///
    /// # Errors
    /// Database or blob store failure (a second call finishes the work).
    #[tracing::instrument(skip(self), fields(user = %user))]
    pub async fn delete_user_data(
        &self,
        user: &UserId,
    ) -> Result<DeletedUserData, TranscriptionError> {
        let (files, rows) = self.store.delete_user(user.as_str()).await?;
        for file in files
            .iter()
            .filter(|file| file.status == FileStatus::Transcribing)
        {
            self.order_stop(file, None).await;
        }
        // A user id that cannot be one key segment (a `/` in it) never owned an object.
        let blobs = match owned_folder(user.as_str(), TRANSCRIPTS_ROOT) {
            Ok(folder) => self
                .blobs
                .delete_prefix(&folder)
                .await
                .map_err(unavailable)?,
            Err(_) => 0,
        };
        tracing::info!(rows, blobs, "user data deleted");
        // Their files left the queue: the files behind them moved up.
        self.queue_changed(&[]).await;
        Ok(DeletedUserData { rows, blobs })
    }
}
