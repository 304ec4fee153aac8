//! Queries for the Vault's player: an item's recording and its timed segments.

use sea_orm::{ColumnTrait as _, DbErr, EntityTrait as _, QueryFilter as _, QuerySelect as _};

use super::LibraryStore;
use super::items::parse_segments;
use crate::domain::Segment;
use crate::entity::library_item::{Column, Entity as Items};
use crate::entity::library_segment::Entity as Segments;

/// What the player needs to know of an item.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ItemAudio {
    /// The owner.
    pub user_id: String,
    /// `AUDIO`, `PDF`, ….
    pub source_type: String,
    /// Storage's client path of the MP3, when recorded.
    pub audio_path: Option<String>,
}

impl LibraryStore {
    /// The recording of item `id`: of `user_id`'s items only when a user is given, of any
    /// user's when `None` (a signed link, whose signature names the owner, is checked by the
    /// caller against the answer's `user_id`).
    ///
    /// # Errors
    /// Database failure.
    pub async fn item_audio(
        &self,
        user_id: Option<&str>,
        id: &str,
    ) -> Result<Option<ItemAudio>, DbErr> {
        let mut select = Items::find()
            .select_only()
            .columns([Column::UserId, Column::SourceType, Column::AudioPath])
            .filter(Column::Id.eq(id));
        if let Some(user_id) = user_id {
            select = select.filter(Column::UserId.eq(user_id));
        }
        let row: Option<(String, String, Option<String>)> =
            select.into_tuple().one(&self.db).await?;
        Ok(row.map(|(user_id, source_type, audio_path)| ItemAudio {
            user_id,
            source_type,
            audio_path,
        }))
    }

    /// The timed segments of `user_id`'s item `id` (`None`: no such item of theirs; an empty
    /// list: an item with none).
    ///
    /// # Errors
    /// Database failure or unreadable segments.
    pub async fn item_segments(
        &self,
        user_id: &str,
        id: &str,
    ) -> Result<Option<Vec<Segment>>, DbErr> {
        let seq: Option<i64> = Items::find()
            .select_only()
            .column(Column::Seq)
            .filter(Column::UserId.eq(user_id))
            .filter(Column::Id.eq(id))
            .into_tuple()
            .one(&self.db)
            .await?;
        let Some(seq) = seq else {
            return Ok(None);
        };
        match Segments::find_by_id(seq).one(&self.db).await? {
            Some(row) => parse_segments(row.item_seq, &row.segments).map(Some),
            None => Ok(Some(Vec::new())),
        }
    }
}
