//! What account deletion clears.

use sea_orm::{ColumnTrait as _, DbErr, EntityTrait as _, QueryFilter as _, QuerySelect as _};

use super::WebhookStore;
use crate::entity::{attempt, delivery, webhook};

impl WebhookStore {
    /// Deletes every webhook of `user` with their outboxes, logs and signing secrets (the
    /// member is deleted); answers the rows deleted. The webhooks go last, so a deletion that
    /// fails halfway still finds their ids when it is repeated.
    pub async fn delete_all(&self, user: &str) -> Result<u64, DbErr> {
        let ids: Vec<String> = webhook::Entity::find()
            .select_only()
            .column(webhook::Column::Id)
            .filter(webhook::Column::UserId.eq(user))
            .into_tuple::<String>()
            .all(&self.db)
            .await?;
        let attempts = attempt::Entity::delete_many()
            .filter(attempt::Column::WebhookId.is_in(ids))
            .exec(&self.db)
            .await?;
        let deliveries = delivery::Entity::delete_many()
            .filter(delivery::Column::UserId.eq(user))
            .exec(&self.db)
            .await?;
        let webhooks = webhook::Entity::delete_many()
            .filter(webhook::Column::UserId.eq(user))
            .exec(&self.db)
            .await?;
        Ok(attempts.rows_affected + deliveries.rows_affected + webhooks.rows_affected)
    }
}
