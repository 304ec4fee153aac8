//! A member's webhooks, reached through their owner only (an unknown id and another member's
//! answer alike).

use chrono::{DateTime, Utc};
use sea_orm::sea_query::Expr;
use sea_orm::{
    ActiveModelTrait as _, ColumnTrait as _, DbErr, EntityTrait as _, PaginatorTrait as _,
    QueryFilter as _, QueryOrder as _, Set,
};

use super::{WebhookStore, events_column, webhook_of};
use crate::domain::{DeliveryState, NewWebhook, Webhook, WebhookChange, WebhookEvent};
use crate::entity::{attempt, delivery, webhook};

impl WebhookStore {
    /// How many webhooks `user` holds.
    pub async fn count(&self, user: &str) -> Result<u64, DbErr> {
        webhook::Entity::find()
            .filter(webhook::Column::UserId.eq(user))
            .count(&self.db)
            .await
    }

    pub async fn create(
        &self,
        user: &str,
        new: NewWebhook,
        secret: String,
        now: DateTime<Utc>,
    ) -> Result<Webhook, DbErr> {
        let row = webhook::ActiveModel {
            id: Set(uuid::Uuid::new_v4().to_string()),
            user_id: Set(user.to_owned()),
            url: Set(new.url),
            description: Set(new.description),
            events: Set(events_column(&new.events)),
            secret: Set(secret),
            enabled: Set(true),
            disabled_reason: Set(None),
            created_at: Set(now),
            updated_at: Set(now),
        }
        .insert(&self.db)
        .await?;
        Ok(webhook_of(row))
    }

    /// The member's webhooks, oldest first (the order they were made in).
    pub async fn list(&self, user: &str) -> Result<Vec<Webhook>, DbErr> {
        Ok(webhook::Entity::find()
            .filter(webhook::Column::UserId.eq(user))
            .order_by_asc(webhook::Column::CreatedAt)
            .order_by_asc(webhook::Column::Id)
            .all(&self.db)
            .await?
            .into_iter()
            .map(webhook_of)
            .collect())
    }

    /// The member's webhook `id`; `None` for an unknown id or another member's.
    pub async fn get(&self, user: &str, id: &str) -> Result<Option<Webhook>, DbErr> {
        Ok(webhook::Entity::find_by_id(id.to_owned())
            .filter(webhook::Column::UserId.eq(user))
            .one(&self.db)
            .await?
            .map(webhook_of))
    }

    /// Applies `change`; switching a webhook on clears why it was switched off.
    pub async fn update(
        &self,
        user: &str,
        id: &str,
        change: WebhookChange,
        now: DateTime<Utc>,
    ) -> Result<Option<Webhook>, DbErr> {
        let Some(row) = webhook::Entity::find_by_id(id.to_owned())
            .filter(webhook::Column::UserId.eq(user))
            .one(&self.db)
            .await?
        else {
            return Ok(None);
        };
        let mut row: webhook::ActiveModel = row.into();
        if let Some(url) = change.url {
            row.url = Set(url);
        }
        if let Some(description) = change.description {
            row.description = Set(description);
        }
        if let Some(events) = change.events {
            row.events = Set(events_column(&events));
        }
        if let Some(enabled) = change.enabled {
            row.enabled = Set(enabled);
            if enabled {
                row.disabled_reason = Set(None);
            }
        }
        row.updated_at = Set(now);
        Ok(Some(webhook_of(row.update(&self.db).await?)))
    }

    /// Replaces the secret; false for an unknown id or another member's.
    pub async fn set_secret(&self, user: &str, id: &str, secret: &str) -> Result<bool, DbErr> {
        let updated = webhook::Entity::update_many()
            .col_expr(webhook::Column::Secret, Expr::value(secret))
            .filter(webhook::Column::Id.eq(id))
            .filter(webhook::Column::UserId.eq(user))
            .exec(&self.db)
            .await?;
        Ok(updated.rows_affected == 1)
    }

    /// Deletes a webhook with its outbox and log; false for an unknown id or another
    /// member's.
    pub async fn delete(&self, user: &str, id: &str) -> Result<bool, DbErr> {
        let deleted = webhook::Entity::delete_many()
            .filter(webhook::Column::Id.eq(id))
            .filter(webhook::Column::UserId.eq(user))
            .exec(&self.db)
            .await?;
        if deleted.rows_affected == 0 {
            return Ok(false);
        }
        delivery::Entity::delete_many()
            .filter(delivery::Column::WebhookId.eq(id))
            .exec(&self.db)
            .await?;
        attempt::Entity::delete_many()
            .filter(attempt::Column::WebhookId.eq(id))
            .exec(&self.db)
            .await?;
        Ok(true)
    }

    /// A webhook by id alone, for the dispatcher (which acts for every member).
    pub async fn webhook(&self, id: &str) -> Result<Option<Webhook>, DbErr> {
        Ok(webhook::Entity::find_by_id(id.to_owned())
            .one(&self.db)
            .await?
            .map(webhook_of))
    }

    /// The member's switched-on webhooks that want `event`.
    pub async fn subscribers(
        &self,
        user: &str,
        event: WebhookEvent,
    ) -> Result<Vec<Webhook>, DbErr> {
        Ok(webhook::Entity::find()
            .filter(webhook::Column::UserId.eq(user))
            .filter(webhook::Column::Enabled.eq(true))
            .all(&self.db)
            .await?
            .into_iter()
            .map(webhook_of)
            .filter(|hook| hook.events.contains(&event))
            .collect())
    }

    /// Switches a webhook off with `reason` (a 410 Gone), and cancels what it still had
    /// waiting.
    pub async fn disable(&self, id: &str, reason: &str, now: DateTime<Utc>) -> Result<(), DbErr> {
        webhook::Entity::update_many()
            .col_expr(webhook::Column::Enabled, Expr::value(false))
            .col_expr(webhook::Column::DisabledReason, Expr::value(reason))
            .col_expr(webhook::Column::UpdatedAt, Expr::value(now))
            .filter(webhook::Column::Id.eq(id))
            .exec(&self.db)
            .await?;
        delivery::Entity::update_many()
            .col_expr(
                delivery::Column::Status,
                Expr::value(DeliveryState::Cancelled.as_str()),
            )
            .filter(delivery::Column::WebhookId.eq(id))
            .filter(delivery::Column::Status.eq(DeliveryState::Pending.as_str()))
            .filter(delivery::Column::ClaimToken.is_null())
            .exec(&self.db)
            .await?;
        Ok(())
    }
}
