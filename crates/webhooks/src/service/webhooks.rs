//! A member's webhooks: made, listed, changed, rotated and deleted, each through its owner.

use chrono::Utc;
use scribevault_core::UserId;

use super::Webhooks;
use crate::delivery::signature::new_secret;
use crate::domain::{
    Attempt, MAX_WEBHOOKS_PER_USER, NewWebhook, Webhook, WebhookChange, checked_description,
    checked_events,
};
use crate::error::WebhookError;

/// A webhook with its newest attempt, as Settings lists it.
pub struct WebhookWithLastAttempt {
    pub webhook: Webhook,
    pub last_attempt: Option<Attempt>,
}

/// A change asked for, not yet checked; `None` keeps a field as it is.
#[derive(Default)]
pub struct WebhookUpdate {
    pub url: Option<String>,
    pub events: Option<Vec<String>>,
    pub description: Option<String>,
    pub enabled: Option<bool>,
}

impl Webhooks {
    /// Makes a webhook; answers it with its signing secret.
    ///
    /// # Errors
    /// A refused URL, events or description; too many webhooks.
    pub async fn create(
        &self,
        user: &UserId,
        url: &str,
        events: &[String],
        description: &str,
    ) -> Result<(Webhook, String), WebhookError> {
        let events = checked_events(events)?;
        let description = checked_description(description)?;
        let url = self.config.policy.check(url).await?;
        if self.store.count(user.as_str()).await? >= MAX_WEBHOOKS_PER_USER as u64 {
            return Err(WebhookError::TooMany);
        }
        let secret = new_secret();
        let new = NewWebhook {
            url: url.to_string(),
            description,
            events,
        };
        let hook = self
            .store
            .create(user.as_str(), new, secret.clone(), Utc::now())
            .await?;
        tracing::info!(user = %user, webhook = %hook.id, "webhook created");
        Ok((hook, secret))
    }

    /// The member's webhooks, oldest first, each with its newest attempt.
    ///
    /// # Errors
    /// The database fails.
    pub async fn list(&self, user: &UserId) -> Result<Vec<WebhookWithLastAttempt>, WebhookError> {
        let hooks = self.store.list(user.as_str()).await?;
        let ids: Vec<String> = hooks.iter().map(|hook| hook.id.clone()).collect();
        let mut last = self.store.last_attempts(&ids).await?;
        Ok(hooks
            .into_iter()
            .map(|webhook| WebhookWithLastAttempt {
                last_attempt: last.remove(&webhook.id),
                webhook,
            })
            .collect())
    }

    /// The member's webhook `id`.
    ///
    /// # Errors
    /// Unknown id or another member's: [`WebhookError::NotFound`].
    pub async fn owned(&self, user: &UserId, id: &str) -> Result<Webhook, WebhookError> {
        self.store
            .get(user.as_str(), id)
            .await?
            .ok_or(WebhookError::NotFound)
    }

    /// Applies `update` once every field of it is checked.
    ///
    /// # Errors
    /// Unknown id or another member's; a refused URL, events or description.
    pub async fn update(
        &self,
        user: &UserId,
        id: &str,
        update: WebhookUpdate,
    ) -> Result<WebhookWithLastAttempt, WebhookError> {
        self.owned(user, id).await?;
        let events = update.events.as_deref().map(checked_events).transpose()?;
        let description = update
            .description
            .as_deref()
            .map(checked_description)
            .transpose()?;
        let url = match update.url {
            Some(url) => Some(self.config.policy.check(&url).await?.to_string()),
            None => None,
        };
        let change = WebhookChange {
            url,
            description,
            events,
            enabled: update.enabled,
        };
        let webhook = self
            .store
            .update(user.as_str(), id, change, Utc::now())
            .await?
            .ok_or(WebhookError::NotFound)?;
        let last = self
            .store
            .last_attempts(std::slice::from_ref(&webhook.id))
            .await?;
        Ok(WebhookWithLastAttempt {
            last_attempt: last.into_values().next(),
            webhook,
        })
    }

    /// Deletes a webhook with what it still had to deliver and its log.
    ///
    /// # Errors
    /// Unknown id or another member's.
    pub async fn delete(&self, user: &UserId, id: &str) -> Result<(), WebhookError> {
        if !self.store.delete(user.as_str(), id).await? {
            return Err(WebhookError::NotFound);
        }
        tracing::info!(user = %user, webhook = %id, "webhook deleted");
        Ok(())
    }

    /// Gives a webhook a new signing secret; answers it.
    ///
    /// # Errors
    /// Unknown id or another member's.
    pub async fn rotate_secret(&self, user: &UserId, id: &str) -> Result<String, WebhookError> {
        let secret = new_secret();
        if !self.store.set_secret(user.as_str(), id, &secret).await? {
            return Err(WebhookError::NotFound);
        }
        Ok(secret)
    }

    /// The webhook's log, newest first.
    ///
    /// # Errors
    /// Unknown id or another member's.
    pub async fn attempts(&self, user: &UserId, id: &str) -> Result<Vec<Attempt>, WebhookError> {
        let hook = self.owned(user, id).await?;
        Ok(self.store.attempts(&hook.id).await?)
    }
}
