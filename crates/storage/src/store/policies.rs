//! Each user's quota and MP3 clean-up policy, as the gateway handed it over.

use chrono::Utc;
use sea_orm::sea_query::OnConflict;
use sea_orm::{ColumnTrait as _, DbErr, EntityTrait as _, QueryFilter as _, Set};

use super::{StorageStore, to_i64};
use crate::domain::StoragePolicy;
use crate::entity::storage_policy;

impl StorageStore {
    /// The user's policy, or the defaults when the gateway never handed one over.
    ///
    /// # Errors
    /// Database failure.
    pub async fn policy(&self, user_id: &str) -> Result<StoragePolicy, DbErr> {
        Ok(storage_policy::Entity::find_by_id(user_id.to_owned())
            .one(&self.db)
            .await?
            .map(policy_from_row)
            .unwrap_or_default())
    }

    /// Records the user's policy.
    ///
    /// # Errors
    /// Database failure.
    pub async fn set_policy(&self, user_id: &str, policy: StoragePolicy) -> Result<(), DbErr> {
        storage_policy::Entity::insert(storage_policy::ActiveModel {
            user_id: Set(user_id.to_owned()),
            max_bytes: Set(to_i64(policy.max_bytes)),
            cleanup_after_days: Set(policy
                .cleanup_after_days
                .map(|days| i32::try_from(days).unwrap_or(i32::MAX))),
            updated_at: Set(Utc::now()),
        })
        .on_conflict(
            OnConflict::column(storage_policy::Column::UserId)
                .update_columns([
                    storage_policy::Column::MaxBytes,
                    storage_policy::Column::CleanupAfterDays,
                    storage_policy::Column::UpdatedAt,
                ])
                .to_owned(),
        )
        .exec(&self.db)
        .await?;
        Ok(())
    }

    /// The users whose MP3s are cleaned up, with their age limit in days.
    ///
    /// # Errors
    /// Database failure.
    pub async fn cleanup_policies(&self) -> Result<Vec<(String, u32)>, DbErr> {
        Ok(storage_policy::Entity::find()
            .filter(storage_policy::Column::CleanupAfterDays.is_not_null())
            .all(&self.db)
            .await?
            .into_iter()
            .filter_map(|row| {
                let days = u32::try_from(row.cleanup_after_days?).ok()?;
                Some((row.user_id, days))
            })
            .collect())
    }
}

fn policy_from_row(row: storage_policy::Model) -> StoragePolicy {
    StoragePolicy {
        max_bytes: u64::try_from(row.max_bytes).unwrap_or(0),
        cleanup_after_days: row
            .cleanup_after_days
            .and_then(|days| u32::try_from(days).ok()),
    }
}
