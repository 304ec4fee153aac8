//! The outbox: one row per event and webhook. Its state changes are conditional updates, so
//! two replicas can never both claim, or both settle, one delivery.

use chrono::{DateTime, Utc};
use sea_orm::sea_query::{Expr, ExprTrait as _, OnConflict};
use sea_orm::{
    ColumnTrait as _, Condition, DbErr, EntityTrait as _, QueryFilter as _, QueryOrder as _,
    QuerySelect as _, Set,
};

use super::WebhookStore;
use crate::domain::{ClaimedDelivery, DeliveryState, Webhook, WebhookEvent};
use crate::entity::delivery;

impl WebhookStore {
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
            id: Set(crate::delivery::signature::new_message_id()),
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
