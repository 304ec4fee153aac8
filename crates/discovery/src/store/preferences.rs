//! Users' sync preferences: whether a scheduled sync downloads what it finds, and whether
//! downloads use YouTube's captions unless a job or schedule says otherwise.

use chrono::Utc;
use sea_orm::sea_query::OnConflict;
use sea_orm::{DbErr, EntityTrait as _, Set};

use super::DiscoveryStore;
use crate::domain::downloads::SyncPreferences;
use crate::entity::sync_preference;

impl DiscoveryStore {
    /// The user's preferences (both off until they say otherwise, the defaults).
    ///
    /// # Errors
    /// Database failure.
    pub async fn sync_preferences(&self, user_id: &str) -> Result<SyncPreferences, DbErr> {
        Ok(sync_preference::Entity::find_by_id(user_id.to_owned())
            .one(&self.db)
            .await?
            .map(|row| SyncPreferences {
                auto_download: row.auto_download,
                use_captions: row.use_captions,
            })
            .unwrap_or_default())
    }

    /// Whether the user has `autoDownload` on.
    ///
    /// # Errors
    /// Database failure.
    pub async fn auto_download(&self, user_id: &str) -> Result<bool, DbErr> {
        Ok(self.sync_preferences(user_id).await?.auto_download)
    }

    /// Records the user's preferences.
    ///
    /// # Errors
    /// Database failure.
    pub async fn set_sync_preferences(
        &self,
        user_id: &str,
        preferences: SyncPreferences,
    ) -> Result<(), DbErr> {
        sync_preference::Entity::insert(sync_preference::ActiveModel {
            user_id: Set(user_id.to_owned()),
            auto_download: Set(preferences.auto_download),
            use_captions: Set(preferences.use_captions),
            updated_at: Set(Utc::now()),
        })
        .on_conflict(
            OnConflict::column(sync_preference::Column::UserId)
                .update_columns([
                    sync_preference::Column::AutoDownload,
                    sync_preference::Column::UseCaptions,
                    sync_preference::Column::UpdatedAt,
                ])
                .to_owned(),
        )
        .exec(&self.db)
        .await?;
        Ok(())
    }
}
