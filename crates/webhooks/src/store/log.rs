//! The delivery log: the last attempts of each webhook.

use std::collections::HashMap;

use sea_orm::{
    ActiveModelTrait as _, ColumnTrait as _, DbErr, EntityTrait as _, QueryFilter as _,
    QueryOrder as _, QuerySelect as _, Set,
};

use super::{WebhookStore, attempt_of};
use crate::domain::{Attempt, LOG_LENGTH};
use crate::entity::attempt;

impl WebhookStore {
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
}

#[cfg(test)]
mod tests {
    use chrono::{DateTime, Utc};

    use super::*;
    use crate::domain::WebhookEvent;

    async fn store() -> (WebhookStore, scribevault_db::TestDatabase) {
        let database = scribevault_db::TestDatabase::sqlite();
        let db = scribevault_db::connect(&database.url).await.unwrap();
        (WebhookStore::open(db).await.unwrap(), database)
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
