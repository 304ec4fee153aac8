//! Users' sync preferences: whether a scheduled sync downloads what it finds.

use chrono::Utc;
use sea_orm::sea_query::OnConflict;
use sea_orm::{DbErr, EntityTrait as _, Set};

use super::DiscoveryStore;
use crate::entity::sync_preference;

impl DiscoveryStore {
    /// Whether the user has `autoDownload` on (off until they say otherwise, the default).
    ///
    /// # Errors
    /// Database failure.
    pub async fn auto_download(&self, user_id: &str) -> Result<bool, DbErr> {
        Ok(sync_preference::Entity::find_by_id(user_id.to_owned())
            .one(&self.db)
            .await?
            .is_some_and(|row| row.auto_download))
    }

    /// Records the user's `autoDownload`.
    ///
    /// # Errors
    /// Database failure.
    pub async fn set_auto_download(&self, user_id: &str, auto_download: bool) -> Result<(), DbErr> {
        sync_preference::Entity::insert(sync_preference::ActiveModel {
            user_id: Set(user_id.to_owned()),
            auto_download: Set(auto_download),
            updated_at: Set(Utc::now()),
        })
        .on_conflict(
            OnConflict::column(sync_preference::Column::UserId)
                .update_columns([
                    sync_preference::Column::AutoDownload,
                    sync_preference::Column::UpdatedAt,
                ])
                .to_owned(),
        )
        .exec(&self.db)
        .await?;
        Ok(())
    }
}
