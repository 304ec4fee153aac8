//! Deleting an account's rows, for administrators.

use sea_orm::{ColumnTrait as _, DbErr, EntityTrait as _, QueryFilter as _};

use super::ConversionStore;
use crate::entity::template;

impl ConversionStore {
    /// Deletes every row of the user's (their templates); answers how many.
    ///
    /// # Errors
    /// Database failure.
    pub async fn delete_user(&self, user_id: &str) -> Result<u64, DbErr> {
        Ok(template::Entity::delete_many()
            .filter(template::Column::UserId.eq(user_id))
            .exec(&self.db)
            .await?
            .rows_affected)
    }
}
