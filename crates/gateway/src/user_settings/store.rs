//! Every query of user settings: one JSON row per user.

use chrono::Utc;
use sea_orm::sea_query::OnConflict;
use sea_orm::{DatabaseConnection, DbErr, EntityTrait as _, Set};

use super::UserSettings;
use crate::entity::user_setting;

/// The `user_settings` table.
#[derive(Clone)]
pub struct UserSettingsStore {
    db: DatabaseConnection,
}

impl UserSettingsStore {
    #[must_use]
    pub fn new(db: DatabaseConnection) -> Self {
        Self { db }
    }

    /// The user's settings merged over the defaults.
    ///
    /// # Errors
    /// Database failure.
    pub async fn get(&self, user_id: &str) -> Result<UserSettings, DbErr> {
        Ok(user_setting::Entity::find_by_id(user_id.to_owned())
            .one(&self.db)
            .await?
            .map(|row| UserSettings::from_stored(&row.settings))
            .unwrap_or_default())
    }

    /// Stores `settings` for the user.
    ///
    /// # Errors
    /// Database failure.
    pub async fn put(&self, user_id: &str, settings: &UserSettings) -> Result<(), DbErr> {
        let value =
            serde_json::to_value(settings).map_err(|error| DbErr::Custom(error.to_string()))?;
        user_setting::Entity::insert(user_setting::ActiveModel {
            user_id: Set(user_id.to_owned()),
            settings: Set(value),
            updated_at: Set(Utc::now()),
        })
        .on_conflict(
            OnConflict::column(user_setting::Column::UserId)
                .update_columns([
                    user_setting::Column::Settings,
                    user_setting::Column::UpdatedAt,
                ])
                .to_owned(),
        )
        .exec(&self.db)
        .await?;
        Ok(())
    }

    /// Forgets a deleted user's settings.
    ///
    /// # Errors
    /// Database failure.
    pub async fn delete(&self, user_id: &str) -> Result<(), DbErr> {
        user_setting::Entity::delete_by_id(user_id.to_owned())
            .exec(&self.db)
            .await?;
        Ok(())
    }
}
