//! Deleting an account's rows, for administrators.

use sea_orm::{ColumnTrait as _, DbErr, EntityTrait as _, QueryFilter as _, TransactionTrait as _};

use super::StorageStore;
use crate::entity::{mp3_upload, storage_policy, stored_audio};

impl StorageStore {
    /// Deletes every row of the user's, in one transaction: the MP3 registry, the stored audio
    /// (and so their usage) and their policy. Answers how many rows went.
    ///
    /// # Errors
    /// Database failure (nothing is deleted then).
    pub async fn delete_user(&self, user_id: &str) -> Result<u64, DbErr> {
        let transaction = self.db.begin().await?;
        let registry = mp3_upload::Entity::delete_many()
            .filter(mp3_upload::Column::UserId.eq(user_id))
            .exec(&transaction)
            .await?;
        let audio = stored_audio::Entity::delete_many()
            .filter(stored_audio::Column::UserId.eq(user_id))
            .exec(&transaction)
            .await?;
        let policy = storage_policy::Entity::delete_many()
            .filter(storage_policy::Column::UserId.eq(user_id))
            .exec(&transaction)
            .await?;
        transaction.commit().await?;
        Ok(registry.rows_affected + audio.rows_affected + policy.rows_affected)
    }
}
