//! Users' transcription defaults: the copy of their settings the gateway hands over (ADR 0015).

use chrono::Utc;
use sea_orm::ColumnTrait as _;
use sea_orm::sea_query::OnConflict;
use sea_orm::{ConnectionTrait, DbErr, EntityTrait as _, QueryFilter as _, Set};

use super::TranscriptionStore;
use crate::domain::LanguageChoice;
use crate::entity::transcription_preference::{self, Column, Entity};

impl TranscriptionStore {
    /// Records `language` as the user's default (replacing the one before).
    ///
    /// # Errors
    /// Database failure.
    pub async fn set_default_language(
        &self,
        user_id: &str,
        language: LanguageChoice,
    ) -> Result<(), DbErr> {
        Entity::insert(transcription_preference::ActiveModel {
            user_id: Set(user_id.to_owned()),
            language: Set(language.as_str().to_owned()),
            updated_at: Set(Utc::now()),
        })
        .on_conflict(
            OnConflict::column(Column::UserId)
                .update_columns([Column::Language, Column::UpdatedAt])
                .to_owned(),
        )
        .exec(&self.db)
        .await?;
        Ok(())
    }

    /// The user's default language; `None` when they never saved one.
    ///
    /// # Errors
    /// Database failure.
    pub async fn default_language(&self, user_id: &str) -> Result<Option<LanguageChoice>, DbErr> {
        let row = Entity::find_by_id(user_id.to_owned()).one(&self.db).await?;
        // Only checked languages are written; one this build no longer knows is detected.
        Ok(row.map(|row| row.language.parse().unwrap_or(LanguageChoice::Auto)))
    }
}

/// Deletes the user's defaults inside `transaction` (an account's data going away); answers
/// the rows deleted.
pub(super) async fn delete_preferences(
    transaction: &impl ConnectionTrait,
    user_id: &str,
) -> Result<u64, DbErr> {
    Ok(Entity::delete_many()
        .filter(Column::UserId.eq(user_id))
        .exec(transaction)
        .await?
        .rows_affected)
}
