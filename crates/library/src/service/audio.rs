//! The Vault's player: where an audio item's recording is, signed links to it that an
//! `<audio>` element can follow without a bearer header, and the timed segments to follow along.

use chrono::{DateTime, Utc};
use scribevault_core::UserId;

use super::Library;
use crate::domain::{Segment, SourceType};
use crate::error::LibraryError;
use crate::store::ItemAudio;

/// How long a player link works: a listening session, during which the element fetches ranges
/// as the user seeks. The SPA asks for a new one when it opens the item again.
pub const AUDIO_LINK_TTL: chrono::Duration = chrono::Duration::hours(2);

/// A signed link to an item's recording.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AudioLink {
    /// Path and query (`/api/library/audio/{id}?expires=…&signature=…`).
    pub url: String,
    /// When it stops working.
    pub expires_at: DateTime<Utc>,
}

/// The recording a player link or a signed-in caller may read: the owner reads it from storage.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ItemRecording {
    /// The owner, as whom storage is asked.
    pub owner: UserId,
    /// Storage's client path of the MP3.
    pub audio_path: String,
}

/// The recording of an item, when it is an audio item that has one.
fn recording_of(audio: Option<ItemAudio>) -> Result<ItemRecording, LibraryError> {
    match audio {
        Some(ItemAudio {
            user_id,
            source_type,
            audio_path: Some(audio_path),
        }) if source_type == SourceType::Audio.as_str() => Ok(ItemRecording {
            owner: UserId::new(user_id),
            audio_path,
        }),
        _ => Err(LibraryError::NotFound),
    }
}

impl Library {
    /// The recording of the caller's audio item `id`.
    ///
    /// # Errors
    /// [`LibraryError::NotFound`] when the item is another user's, not audio, or has no
    /// recording; database failure.
    pub async fn recording(&self, user: &UserId, id: &str) -> Result<ItemRecording, LibraryError> {
        recording_of(self.store.item_audio(Some(user.as_str()), id).await?)
    }

    /// A signed, expiring link to the caller's audio item `id`, bound to the item and to them.
    ///
    /// # Errors
    /// As [`Self::recording`].
    pub async fn audio_link(&self, user: &UserId, id: &str) -> Result<AudioLink, LibraryError> {
        self.recording(user, id).await?;
        let expires_at = Utc::now() + AUDIO_LINK_TTL;
        Ok(AudioLink {
            url: self.signer.audio_link(user.as_str(), id, expires_at),
            expires_at,
        })
    }

    /// Follows a player link: the recording, once the signature is checked against the item's
    /// owner.
    ///
    /// # Errors
    /// [`LibraryError::Link`] for a changed or expired link; [`LibraryError::NotFound`] when the
    /// item is gone or has no recording.
    #[tracing::instrument(skip_all, fields(item = id))]
    pub async fn open_audio_link(
        &self,
        id: &str,
        expires: i64,
        signature: &str,
    ) -> Result<ItemRecording, LibraryError> {
        let audio = self.store.item_audio(None, id).await?;
        let Some(owner) = audio.as_ref().map(|audio| audio.user_id.clone()) else {
            // Answer as for a bad signature: a link to a deleted item must not say so apart
            // from a forged one, or ids could be probed.
            return Err(LibraryError::Link(crate::export::LinkError::BadSignature));
        };
        self.signer
            .verify_audio(&owner, id, expires, signature, Utc::now())?;
        recording_of(audio)
    }

    /// The timed segments (with word times when the transcript has them) of the caller's item.
    ///
    /// # Errors
    /// [`LibraryError::NotFound`] when the item is another user's; database failure.
    pub async fn segments(&self, user: &UserId, id: &str) -> Result<Vec<Segment>, LibraryError> {
        self.store
            .item_segments(user.as_str(), id)
            .await?
            .ok_or(LibraryError::NotFound)
    }
}
