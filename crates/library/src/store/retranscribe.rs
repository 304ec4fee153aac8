//! Replacing an audio item's transcript with another one (a Whisper run over an item made
//! from YouTube's captions), and the run it waits for.

use chrono::Utc;
use sea_orm::{ActiveModelTrait as _, DbErr, EntityTrait as _, Set};

use super::LibraryStore;
use super::items::StoredItem;
use crate::domain::{LibraryItem, ReplacementTranscript, SourceType, TranscriptSource};
use crate::entity::library_item::{self, Column};
use crate::entity::library_segment::{self, Entity as Segments};

impl LibraryStore {
    /// The user's audio item `id`, for a transcript to replace; `None` for another user's
    /// item or another kind.
    async fn audio_item_in(
        connection: &impl sea_orm::ConnectionTrait,
        user_id: &str,
        id: &str,
    ) -> Result<Option<StoredItem>, DbErr> {
        Ok(Self::find_where(connection, user_id, Column::Id, id)
            .await?
            .filter(|stored| stored.item.source_type == SourceType::Audio))
    }

    /// Replaces the text, segments and source of one of the user's audio items in one
    /// transaction (the search index follows the text by trigger or generated column), and
    /// clears the run it waited for. The item keeps its id, metadata, tags and recording.
    /// `None` when the user has no such audio item.
    ///
    /// # Errors
    /// Database failure.
    pub async fn replace_transcript(
        &self,
        user_id: &str,
        id: &str,
        replacement: ReplacementTranscript,
    ) -> Result<Option<LibraryItem>, DbErr> {
        let transaction = self.write_transaction().await?;
        let Some(stored) = Self::audio_item_in(&transaction, user_id, id).await? else {
            return Ok(None);
        };
        library_item::ActiveModel {
            seq: Set(stored.seq),
            content_bytes: Set(i64::try_from(replacement.content.len()).unwrap_or(i64::MAX)),
            content: Set(replacement.content),
            transcript_source: Set(Some(replacement.source.as_str().to_owned())),
            language: Set(replacement.language),
            review: Set(super::items::review_json(replacement.review.as_ref())?),
            whisper_job_id: Set(None),
            updated_at: Set(Utc::now()),
            processed_at: Set(None),
            ..Default::default()
        }
        .update(&transaction)
        .await?;
        Segments::delete_by_id(stored.seq)
            .exec(&transaction)
            .await?;
        if !replacement.segments.is_empty() {
            let json = serde_json::to_string(&replacement.segments)
                .map_err(|error| DbErr::Custom(error.to_string()))?;
            Segments::insert(library_segment::ActiveModel {
                item_seq: Set(stored.seq),
                segments: Set(json),
            })
            .exec_without_returning(&transaction)
            .await?;
        }
        let item = Self::find_where(&transaction, user_id, Column::Id, id).await?;
        transaction.commit().await?;
        Ok(item.map(|stored| stored.item))
    }

    /// Records the Whisper run that will replace the user's audio item's transcript. `None`
    /// when the user has no such audio item. A transcript that is Whisper's already (a short
    /// run can land before its job is recorded) is left without a job to wait for.
    ///
    /// # Errors
    /// Database failure.
    pub async fn set_whisper_job(
        &self,
        user_id: &str,
        id: &str,
        job_id: &str,
    ) -> Result<Option<LibraryItem>, DbErr> {
        let Some(stored) = Self::audio_item_in(&self.db, user_id, id).await? else {
            return Ok(None);
        };
        if stored.item.transcript_source == Some(TranscriptSource::Whisper) {
            return Ok(Some(stored.item));
        }
        library_item::ActiveModel {
            seq: Set(stored.seq),
            whisper_job_id: Set(Some(job_id.to_owned())),
            updated_at: Set(Utc::now()),
            ..Default::default()
        }
        .update(&self.db)
        .await?;
        Ok(Self::find_where(&self.db, user_id, Column::Id, id)
            .await?
            .map(|stored| stored.item))
    }
}
