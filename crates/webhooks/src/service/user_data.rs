//! Deleting everything the service keeps of one member (their account is deleted).

use scribevault_core::UserId;

use super::Webhooks;
use crate::error::WebhookError;

impl Webhooks {
    /// Deletes every webhook of `user` with their outboxes, logs and signing secrets; answers
    /// the rows deleted. A second call deletes nothing and succeeds.
    ///
    /// # Errors
    /// The database fails; the call can be repeated.
    pub async fn delete_user_data(&self, user: &UserId) -> Result<u64, WebhookError> {
        let rows = self.store.delete_all(user.as_str()).await?;
        tracing::info!(user = %user, rows, "webhook data deleted");
        Ok(rows)
    }
}
