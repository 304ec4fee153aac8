//! Every query of webhooks, their outbox and their delivery log. Each member's webhooks are
//! reached through their owner only; the outbox's state changes are conditional updates, so
//! two replicas can never both claim, or both settle, one delivery.

use std::collections::HashMap;

use chrono::{DateTime, Utc};
use sea_orm::sea_query::{Expr, ExprTrait as _, OnConflict};
use sea_orm::{
    ActiveModelTrait as _, ColumnTrait as _, Condition, DatabaseConnection, DbErr,
    EntityTrait as _, PaginatorTrait as _, QueryFilter as _, QueryOrder as _, QuerySelect as _,
    Set,
};

use super::WebhookEvent;
use super::entity::{attempt, delivery, webhook};

/// Webhooks one member may hold.
pub const MAX_WEBHOOKS_PER_USER: usize = 20;
/// Longest description, in characters.
pub const MAX_DESCRIPTION_CHARS: usize = 200;
/// Attempts kept per webhook in its log.
pub const LOG_LENGTH: u64 = 50;

/// A member's webhook.
#[derive(Debug, Clone)]
pub struct Webhook {
    pub id: String,
    pub user_id: String,
    pub url: String,
    pub description: String,
    pub events: Vec<WebhookEvent>,
    pub secret: String,
    pub enabled: bool,
    pub disabled_reason: Option<String>,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

/// What a webhook is made with (already checked).
pub struct NewWebhook {
    pub url: String,
    pub description: String,
    pub events: Vec<WebhookEvent>,
}

/// A change to a webhook (already checked); `None` keeps a field as it is.
#[derive(Default)]
pub struct WebhookChange {
    pub url: Option<String>,
    pub description: Option<String>,
    pub events: Option<Vec<WebhookEvent>>,
    pub enabled: Option<bool>,
}

/// One try of one delivery, as the log keeps it.
#[derive(Debug, Clone)]
pub struct Attempt {
    pub id: String,
    pub webhook_id: String,
    pub delivery_id: String,
    pub event: String,
    pub attempt: u32,
    pub attempted_at: DateTime<Utc>,
    pub status_code: Option<u16>,
    pub duration_ms: u64,
    pub response_excerpt: Option<String>,
    pub error: Option<String>,
    pub succeeded: bool,
    pub next_attempt_at: Option<DateTime<Utc>>,
}

/// A delivery claimed by this replica.
#[derive(Debug, Clone)]
pub struct ClaimedDelivery {
    pub id: String,
    pub webhook_id: String,
    pub event_type: String,
    pub payload: String,
    /// This attempt's number, 1 for the first.
    pub attempt: u32,
    pub claim_token: String,
}

/// Where a delivery stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DeliveryState {
    /// Waiting for its next attempt.
    Pending,
    Succeeded,
    /// Out of attempts, or the receiver answered 410 Gone.
    Failed,
    /// Its webhook was switched off before it went out.
    Cancelled,
}

impl DeliveryState {
    fn as_str(self) -> &'static str {
        match self {
            Self::Pending => "pending",
            Self::Succeeded => "succeeded",
            Self::Failed => "failed",
            Self::Cancelled => "cancelled",
        }
    }
}

fn events_column(events: &[WebhookEvent]) -> String {
    events
        .iter()
        .map(|event| event.as_str())
        .collect::<Vec<_>>()
        .join(",")
}

fn webhook(row: webhook::Model) -> Webhook {
    Webhook {
        events: row
            .events
            .split(',')
            .filter_map(WebhookEvent::parse)
            .collect(),
        id: row.id,
        user_id: row.user_id,
        url: row.url,
        description: row.description,
        secret: row.secret,
        enabled: row.enabled,
        disabled_reason: row.disabled_reason,
        created_at: row.created_at,
        updated_at: row.updated_at,
    }
}

fn attempt_of(row: attempt::Model) -> Attempt {
    Attempt {
        id: row.id,
        webhook_id: row.webhook_id,
        delivery_id: row.delivery_id,
        event: row.event_type,
        attempt: u32::try_from(row.attempt).unwrap_or_default(),
        attempted_at: row.attempted_at,
        status_code: row.status_code.and_then(|code| u16::try_from(code).ok()),
        duration_ms: u64::try_from(row.duration_ms).unwrap_or_default(),
        response_excerpt: row.response_excerpt,
        error: row.error,
        succeeded: row.succeeded,
        next_attempt_at: row.next_attempt_at,
    }
}

/// The webhook tables.
#[derive(Clone)]
pub struct WebhookStore {
    db: DatabaseConnection,
}

impl WebhookStore {
    pub fn new(db: DatabaseConnection) -> Self {
        Self { db }
    }

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
        Ok(webhook(row))
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
            .map(webhook)
            .collect())
    }

    /// The member's webhook `id`; `None` for an unknown id or another member's.
    pub async fn get(&self, user: &str, id: &str) -> Result<Option<Webhook>, DbErr> {
        Ok(webhook::Entity::find_by_id(id.to_owned())
            .filter(webhook::Column::UserId.eq(user))
            .one(&self.db)
            .await?
            .map(webhook))
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
        Ok(Some(webhook(row.update(&self.db).await?)))
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

    /// Deletes every webhook of `user` with their outboxes, logs and signing secrets (the
    /// member is deleted).
    pub async fn delete_all(&self, user: &str) -> Result<(), DbErr> {
        let ids: Vec<String> = webhook::Entity::find()
            .filter(webhook::Column::UserId.eq(user))
            .all(&self.db)
            .await?
            .into_iter()
            .map(|row| row.id)
            .collect();
        attempt::Entity::delete_many()
            .filter(attempt::Column::WebhookId.is_in(ids.clone()))
            .exec(&self.db)
            .await?;
        delivery::Entity::delete_many()
            .filter(delivery::Column::UserId.eq(user))
            .exec(&self.db)
            .await?;
        webhook::Entity::delete_many()
            .filter(webhook::Column::UserId.eq(user))
            .exec(&self.db)
            .await?;
        Ok(())
    }

    /// A webhook by id alone, for the dispatcher (which acts for every member).
    pub async fn webhook(&self, id: &str) -> Result<Option<Webhook>, DbErr> {
        Ok(webhook::Entity::find_by_id(id.to_owned())
            .one(&self.db)
            .await?
            .map(webhook))
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
            .map(webhook)
            .filter(|hook| hook.events.contains(&event))
            .collect())
    }

    /// Records the delivery of event `event_id` to `hook`, due now. False when it is already
    /// recorded (another replica saw the event first).
    pub async fn record_delivery(
        &self,
        hook: &Webhook,
        event: WebhookEvent,
        event_id: &str,
        payload: &str,
        now: DateTime<Utc>,
    ) -> Result<bool, DbErr> {
        let row = delivery::ActiveModel {
            id: Set(super::signature::new_message_id()),
            webhook_id: Set(hook.id.clone()),
            user_id: Set(hook.user_id.clone()),
            event_id: Set(event_id.to_owned()),
            event_type: Set(event.as_str().to_owned()),
            payload: Set(payload.to_owned()),
            status: Set(DeliveryState::Pending.as_str().to_owned()),
            attempts: Set(0),
            next_attempt_at: Set(now),
            claim_token: Set(None),
            claimed_until: Set(None),
            created_at: Set(now),
        };
        let inserted = delivery::Entity::insert(row)
            .on_conflict(
                OnConflict::columns([delivery::Column::WebhookId, delivery::Column::EventId])
                    .do_nothing()
                    .to_owned(),
            )
            .exec_without_returning(&self.db)
            .await?;
        Ok(inserted == 1)
    }

    /// Ids of deliveries due by `now` that nobody holds, oldest due first.
    pub async fn due(&self, now: DateTime<Utc>, limit: u64) -> Result<Vec<String>, DbErr> {
        delivery::Entity::find()
            .select_only()
            .column(delivery::Column::Id)
            .filter(delivery::Column::Status.eq(DeliveryState::Pending.as_str()))
            .filter(delivery::Column::NextAttemptAt.lte(now))
            .filter(
                Condition::any()
                    .add(delivery::Column::ClaimedUntil.is_null())
                    .add(delivery::Column::ClaimedUntil.lte(now)),
            )
            .order_by_asc(delivery::Column::NextAttemptAt)
            .limit(limit)
            .into_tuple::<String>()
            .all(&self.db)
            .await
    }

    /// Claims delivery `id` until `until` for one attempt; `None` when another replica holds
    /// it or it is no longer due. The attempt is counted here.
    pub async fn claim(
        &self,
        id: &str,
        now: DateTime<Utc>,
        until: DateTime<Utc>,
    ) -> Result<Option<ClaimedDelivery>, DbErr> {
        let token = uuid::Uuid::new_v4().to_string();
        let updated = delivery::Entity::update_many()
            .col_expr(delivery::Column::ClaimToken, Expr::value(token.clone()))
            .col_expr(delivery::Column::ClaimedUntil, Expr::value(until))
            .col_expr(
                delivery::Column::Attempts,
                Expr::col(delivery::Column::Attempts).add(1),
            )
            .filter(delivery::Column::Id.eq(id))
            .filter(delivery::Column::Status.eq(DeliveryState::Pending.as_str()))
            .filter(delivery::Column::NextAttemptAt.lte(now))
            .filter(
                Condition::any()
                    .add(delivery::Column::ClaimedUntil.is_null())
                    .add(delivery::Column::ClaimedUntil.lte(now)),
            )
            .exec(&self.db)
            .await?;
        if updated.rows_affected != 1 {
            return Ok(None);
        }
        Ok(delivery::Entity::find_by_id(id.to_owned())
            .one(&self.db)
            .await?
            .map(|row| ClaimedDelivery {
                id: row.id,
                webhook_id: row.webhook_id,
                event_type: row.event_type,
                payload: row.payload,
                attempt: u32::try_from(row.attempts).unwrap_or(1),
                claim_token: token,
            }))
    }

    /// Settles a claimed delivery: `state`, and when pending, its next attempt's time. Nothing
    /// changes when the claim was lost (it outlived its lease and another replica took it).
    pub async fn settle(
        &self,
        claimed: &ClaimedDelivery,
        state: DeliveryState,
        next_attempt_at: Option<DateTime<Utc>>,
    ) -> Result<bool, DbErr> {
        let mut update = delivery::Entity::update_many()
            .col_expr(delivery::Column::Status, Expr::value(state.as_str()))
            .col_expr(delivery::Column::ClaimToken, Expr::value(None::<String>))
            .col_expr(
                delivery::Column::ClaimedUntil,
                Expr::value(None::<DateTime<Utc>>),
            );
        if let Some(at) = next_attempt_at {
            update = update.col_expr(delivery::Column::NextAttemptAt, Expr::value(at));
        }
        let updated = update
            .filter(delivery::Column::Id.eq(&claimed.id))
            .filter(delivery::Column::ClaimToken.eq(&claimed.claim_token))
            .exec(&self.db)
            .await?;
        Ok(updated.rows_affected == 1)
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

    /// Adds an attempt to its webhook's log and drops what is past the last
    /// [`LOG_LENGTH`].
    pub async fn log_attempt(&self, attempt: &Attempt) -> Result<(), DbErr> {
        attempt::ActiveModel {
            id: Set(attempt.id.clone()),
            webhook_id: Set(attempt.webhook_id.clone()),
            delivery_id: Set(attempt.delivery_id.clone()),
            event_type: Set(attempt.event.clone()),
            attempt: Set(i32::try_from(attempt.attempt).unwrap_or(i32::MAX)),
            attempted_at: Set(attempt.attempted_at),
            status_code: Set(attempt.status_code.map(i32::from)),
            duration_ms: Set(i64::try_from(attempt.duration_ms).unwrap_or(i64::MAX)),
            response_excerpt: Set(attempt.response_excerpt.clone()),
            error: Set(attempt.error.clone()),
            succeeded: Set(attempt.succeeded),
            next_attempt_at: Set(attempt.next_attempt_at),
        }
        .insert(&self.db)
        .await?;
        // Skipped here rather than with OFFSET: SQLite refuses an OFFSET without a LIMIT, and
        // the log is trimmed at every attempt, so this reads at most one row past the length.
        let stale: Vec<String> = attempt::Entity::find()
            .select_only()
            .column(attempt::Column::Id)
            .filter(attempt::Column::WebhookId.eq(&attempt.webhook_id))
            .order_by_desc(attempt::Column::AttemptedAt)
            .order_by_desc(attempt::Column::Id)
            .into_tuple::<String>()
            .all(&self.db)
            .await?
            .into_iter()
            .skip(usize::try_from(LOG_LENGTH).unwrap_or(usize::MAX))
            .collect();
        if !stale.is_empty() {
            attempt::Entity::delete_many()
                .filter(attempt::Column::Id.is_in(stale))
                .exec(&self.db)
                .await?;
        }
        Ok(())
    }

    /// The webhook's log, newest first.
    pub async fn attempts(&self, webhook_id: &str) -> Result<Vec<Attempt>, DbErr> {
        Ok(attempt::Entity::find()
            .filter(attempt::Column::WebhookId.eq(webhook_id))
            .order_by_desc(attempt::Column::AttemptedAt)
            .order_by_desc(attempt::Column::Id)
            .limit(LOG_LENGTH)
            .all(&self.db)
            .await?
            .into_iter()
            .map(attempt_of)
            .collect())
    }

    /// The newest attempt of each of `webhook_ids`.
    pub async fn last_attempts(
        &self,
        webhook_ids: &[String],
    ) -> Result<HashMap<String, Attempt>, DbErr> {
        let mut last = HashMap::new();
        for id in webhook_ids {
            if let Some(row) = attempt::Entity::find()
                .filter(attempt::Column::WebhookId.eq(id))
                .order_by_desc(attempt::Column::AttemptedAt)
                .order_by_desc(attempt::Column::Id)
                .one(&self.db)
                .await?
            {
                last.insert(id.clone(), attempt_of(row));
            }
        }
        Ok(last)
    }

    /// Forgets settled deliveries made before `before`. They are kept a while after they are
    /// settled so that a replica that sees an event late finds it recorded and adds no
    /// second delivery.
    pub async fn purge_settled(&self, before: DateTime<Utc>) -> Result<u64, DbErr> {
        Ok(delivery::Entity::delete_many()
            .filter(delivery::Column::Status.ne(DeliveryState::Pending.as_str()))
            .filter(delivery::Column::CreatedAt.lt(before))
            .exec(&self.db)
            .await?
            .rows_affected)
    }
}

#[cfg(test)]
mod tests {
    use sea_orm_migration::MigratorTrait as _;

    use super::*;

    async fn store() -> (WebhookStore, scribevault_db::TestDatabase) {
        let database = scribevault_db::TestDatabase::sqlite();
        let db = scribevault_db::connect(&database.url).await.unwrap();
        crate::migration::Migrator::up(&db, None).await.unwrap();
        (WebhookStore::new(db), database)
    }

    fn attempt(webhook_id: &str, number: u32, at: DateTime<Utc>) -> Attempt {
        Attempt {
            id: uuid::Uuid::now_v7().to_string(),
            webhook_id: webhook_id.to_owned(),
            delivery_id: format!("msg_{number}"),
            event: WebhookEvent::ItemCreated.as_str().to_owned(),
            attempt: 1,
            attempted_at: at,
            status_code: Some(200),
            duration_ms: 3,
            response_excerpt: None,
            error: None,
            succeeded: true,
            next_attempt_at: None,
        }
    }

    #[tokio::test]
    async fn the_log_keeps_the_newest_attempts_of_each_webhook_only() {
        let (store, _database) = store().await;
        let start = Utc::now();
        let extra = 7;
        for number in 0..u32::try_from(LOG_LENGTH).unwrap() + extra {
            let at = start + chrono::Duration::seconds(i64::from(number));
            store
                .log_attempt(&attempt("one", number, at))
                .await
                .unwrap();
        }
        store.log_attempt(&attempt("two", 0, start)).await.unwrap();

        let kept = store.attempts("one").await.unwrap();
        assert_eq!(kept.len(), usize::try_from(LOG_LENGTH).unwrap());
        let newest = u32::try_from(LOG_LENGTH).unwrap() + extra - 1;
        assert_eq!(kept[0].delivery_id, format!("msg_{newest}"));
        assert_eq!(
            kept.last().unwrap().delivery_id,
            format!("msg_{extra}"),
            "the oldest were dropped"
        );
        assert_eq!(store.attempts("two").await.unwrap().len(), 1);
        let last = store
            .last_attempts(&["one".to_owned(), "two".to_owned()])
            .await
            .unwrap();
        assert_eq!(last["one"].delivery_id, format!("msg_{newest}"));
    }
}
