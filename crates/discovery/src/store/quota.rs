//! The YouTube quota ledger: units spent per key fingerprint and per user, by Pacific day.

use chrono::NaiveDate;
use sea_orm::sea_query::{Alias, Expr, ExprTrait as _, OnConflict};
use sea_orm::{ColumnTrait as _, DbErr, EntityTrait as _, QueryFilter as _, Set};

use crate::entity::{quota_spend, user_quota_spend};
use crate::youtube::KeySpend;

use super::{DiscoveryStore, to_i64};

impl DiscoveryStore {
    /// Adds units spent (and exhaustion) to the day's rows.
    ///
    /// # Errors
    /// Database failure.
    pub async fn add_spending(&self, spent: &[KeySpend]) -> Result<(), DbErr> {
        let excluded = Alias::new("excluded");
        for spend in spent {
            quota_spend::Entity::insert(quota_spend::ActiveModel {
                key_id: Set(spend.key_id.clone()),
                day: Set(spend.day.to_string()),
                units: Set(to_i64(spend.units)),
                exhausted: Set(spend.exhausted),
            })
            .on_conflict(
                OnConflict::columns([quota_spend::Column::KeyId, quota_spend::Column::Day])
                    .value(
                        quota_spend::Column::Units,
                        Expr::col((quota_spend::Entity, quota_spend::Column::Units))
                            .add(Expr::col((excluded.clone(), quota_spend::Column::Units))),
                    )
                    .value(
                        quota_spend::Column::Exhausted,
                        Expr::col((quota_spend::Entity, quota_spend::Column::Exhausted)).or(
                            Expr::col((excluded.clone(), quota_spend::Column::Exhausted)),
                        ),
                    )
                    .to_owned(),
            )
            .exec_without_returning(&self.db)
            .await?;
        }
        Ok(())
    }

    /// Adds `units` to what `user_id` spent on `day`; the day's total after it.
    ///
    /// # Errors
    /// Database failure.
    pub async fn add_user_spending(
        &self,
        user_id: &str,
        day: NaiveDate,
        units: u64,
    ) -> Result<u64, DbErr> {
        let excluded = Alias::new("excluded");
        user_quota_spend::Entity::insert(user_quota_spend::ActiveModel {
            user_id: Set(user_id.to_owned()),
            day: Set(day.to_string()),
            units: Set(to_i64(units)),
        })
        .on_conflict(
            OnConflict::columns([
                user_quota_spend::Column::UserId,
                user_quota_spend::Column::Day,
            ])
            .value(
                user_quota_spend::Column::Units,
                Expr::col((user_quota_spend::Entity, user_quota_spend::Column::Units)).add(
                    Expr::col((excluded.clone(), user_quota_spend::Column::Units)),
                ),
            )
            .to_owned(),
        )
        .exec_without_returning(&self.db)
        .await?;
        self.user_spending_on(user_id, day).await
    }

    /// What `user_id` spent on `day`.
    ///
    /// # Errors
    /// Database failure.
    pub async fn user_spending_on(&self, user_id: &str, day: NaiveDate) -> Result<u64, DbErr> {
        Ok(
            user_quota_spend::Entity::find_by_id((user_id.to_owned(), day.to_string()))
                .one(&self.db)
                .await?
                .map_or(0, |row| u64::try_from(row.units).unwrap_or(0)),
        )
    }

    /// What every key spent on `day`.
    ///
    /// # Errors
    /// Database failure.
    pub async fn spending_on(&self, day: NaiveDate) -> Result<Vec<KeySpend>, DbErr> {
        Ok(quota_spend::Entity::find()
            .filter(quota_spend::Column::Day.eq(day.to_string()))
            .all(&self.db)
            .await?
            .into_iter()
            .map(|row| KeySpend {
                key_id: row.key_id,
                day,
                units: u64::try_from(row.units).unwrap_or(0),
                exhausted: row.exhausted,
            })
            .collect())
    }
}
