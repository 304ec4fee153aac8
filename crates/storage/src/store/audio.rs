//! The stored audio (one row per user and content hash: the de-duplication index, and what the
//! quota counts) and the per-video MP3 registry (one row per upload).

use chrono::{DateTime, Utc};
use sea_orm::{
    ActiveModelTrait as _, ColumnTrait as _, DbErr, EntityTrait as _, QueryFilter as _,
    QueryOrder as _, QuerySelect as _, Set,
};

use super::{StorageStore, to_i64};
use crate::domain::RegisteredMp3;
use crate::entity::{mp3_upload, stored_audio};

fn registered(row: mp3_upload::Model) -> RegisteredMp3 {
    RegisteredMp3 {
        upload_id: row.id,
        user_id: row.user_id,
        video_id: row.video_id,
        manual: row.manual,
        title: row.title,
        channel_title: row.channel_title,
        duration_seconds: row.duration_seconds,
        published_at: row.published_at,
        path: row.path,
        size: u64::try_from(row.size).unwrap_or(0),
        created_at: row.created_at,
    }
}

impl StorageStore {
    /// Where this user's audio with this content hash is already stored.
    ///
    /// # Errors
    /// Database failure.
    pub async fn stored_audio_path(
        &self,
        user_id: &str,
        content_sha256: &str,
    ) -> Result<Option<String>, DbErr> {
        Ok(stored_audio::Entity::find()
            .filter(stored_audio::Column::UserId.eq(user_id))
            .filter(stored_audio::Column::ContentSha256.eq(content_sha256))
            .one(&self.db)
            .await?
            .map(|row| row.path))
    }

    /// Records newly stored audio under its content hash.
    ///
    /// # Errors
    /// Database failure.
    pub async fn insert_stored_audio(
        &self,
        id: &str,
        user_id: &str,
        content_sha256: &str,
        path: &str,
        size: u64,
        at: DateTime<Utc>,
    ) -> Result<(), DbErr> {
        stored_audio::ActiveModel {
            id: Set(id.to_owned()),
            user_id: Set(user_id.to_owned()),
            content_sha256: Set(content_sha256.to_owned()),
            path: Set(path.to_owned()),
            size: Set(to_i64(size)),
            created_at: Set(at),
        }
        .insert(&self.db)
        .await
        .map(|_| ())
    }

    /// Adds an entry to the MP3 registry.
    ///
    /// # Errors
    /// Database failure.
    pub async fn register(&self, entry: RegisteredMp3) -> Result<(), DbErr> {
        mp3_upload::ActiveModel {
            id: Set(entry.upload_id),
            user_id: Set(entry.user_id),
            video_id: Set(entry.video_id),
            manual: Set(entry.manual),
            title: Set(entry.title),
            channel_title: Set(entry.channel_title),
            duration_seconds: Set(entry.duration_seconds),
            published_at: Set(entry.published_at),
            path: Set(entry.path),
            size: Set(to_i64(entry.size)),
            created_at: Set(entry.created_at),
        }
        .insert(&self.db)
        .await
        .map(|_| ())
    }

    /// The user's registry entries for these videos, newest first.
    ///
    /// # Errors
    /// Database failure.
    pub async fn registered_for_videos(
        &self,
        user_id: &str,
        video_ids: &[String],
    ) -> Result<Vec<RegisteredMp3>, DbErr> {
        Ok(mp3_upload::Entity::find()
            .filter(mp3_upload::Column::UserId.eq(user_id))
            .filter(mp3_upload::Column::VideoId.is_in(video_ids.iter().cloned()))
            .order_by_desc(mp3_upload::Column::CreatedAt)
            .all(&self.db)
            .await?
            .into_iter()
            .map(registered)
            .collect())
    }

    /// The user's manual uploads, newest first.
    ///
    /// # Errors
    /// Database failure.
    pub async fn manual_uploads(&self, user_id: &str) -> Result<Vec<RegisteredMp3>, DbErr> {
        Ok(mp3_upload::Entity::find()
            .filter(mp3_upload::Column::UserId.eq(user_id))
            .filter(mp3_upload::Column::Manual.eq(true))
            .order_by_desc(mp3_upload::Column::CreatedAt)
            .all(&self.db)
            .await?
            .into_iter()
            .map(registered)
            .collect())
    }

    /// Bytes of audio the user keeps (each stored object once, however often registered).
    ///
    /// # Errors
    /// Database failure.
    pub async fn used_bytes(&self, user_id: &str) -> Result<u64, DbErr> {
        // PostgreSQL sums a BIGINT as NUMERIC; the cast keeps one type on both engines.
        let total: Option<i64> = stored_audio::Entity::find()
            .select_only()
            .column_as(
                sea_orm::sea_query::Expr::cust("CAST(COALESCE(SUM(size), 0) AS BIGINT)"),
                "total",
            )
            .filter(stored_audio::Column::UserId.eq(user_id))
            .into_tuple::<i64>()
            .one(&self.db)
            .await?;
        Ok(total
            .and_then(|total| u64::try_from(total).ok())
            .unwrap_or(0))
    }

    /// The user's stored audio last uploaded before `before`: `(path, size)`. Audio uploaded
    /// again since (the same content, stored once) counts from its latest upload.
    ///
    /// # Errors
    /// Database failure.
    pub async fn audio_older_than(
        &self,
        user_id: &str,
        before: DateTime<Utc>,
    ) -> Result<Vec<(String, u64)>, DbErr> {
        let candidates = stored_audio::Entity::find()
            .filter(stored_audio::Column::UserId.eq(user_id))
            .filter(stored_audio::Column::CreatedAt.lt(before))
            .all(&self.db)
            .await?;
        let mut old = Vec::new();
        for audio in candidates {
            let recent = mp3_upload::Entity::find()
                .filter(mp3_upload::Column::UserId.eq(user_id))
                .filter(mp3_upload::Column::Path.eq(audio.path.as_str()))
                .filter(mp3_upload::Column::CreatedAt.gte(before))
                .one(&self.db)
                .await?;
            if recent.is_none() {
                old.push((audio.path, u64::try_from(audio.size).unwrap_or(0)));
            }
        }
        Ok(old)
    }

    /// Forgets the user's audio at `path` and every registration of it.
    ///
    /// # Errors
    /// Database failure.
    pub async fn forget_audio(&self, user_id: &str, path: &str) -> Result<(), DbErr> {
        mp3_upload::Entity::delete_many()
            .filter(mp3_upload::Column::UserId.eq(user_id))
            .filter(mp3_upload::Column::Path.eq(path))
            .exec(&self.db)
            .await?;
        stored_audio::Entity::delete_many()
            .filter(stored_audio::Column::UserId.eq(user_id))
            .filter(stored_audio::Column::Path.eq(path))
            .exec(&self.db)
            .await?;
        Ok(())
    }
}
