//! Every query of the storage service: the de-duplication index of stored audio and the
//! per-video MP3 registry. Rows come out as domain types.

use chrono::{DateTime, Utc};
use sea_orm::{
    ActiveModelTrait as _, ColumnTrait as _, DatabaseConnection, DbErr, EntityTrait as _,
    QueryFilter as _, QueryOrder as _, Set,
};
use sea_orm_migration::MigratorTrait as _;

use crate::domain::RegisteredMp3;
use crate::entity::{mp3_upload, stored_audio};
use crate::migration::Migrator;

/// Storage's tables.
#[derive(Clone)]
pub struct StorageStore {
    db: DatabaseConnection,
}

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

fn to_i64(size: u64) -> i64 {
    i64::try_from(size).unwrap_or(i64::MAX)
}

impl StorageStore {
    /// The store over `db`, with storage's migrations applied.
    ///
    /// # Errors
    /// Migration failure.
    pub async fn open(db: DatabaseConnection) -> Result<Self, DbErr> {
        Migrator::up(&db, None).await?;
        Ok(Self { db })
    }

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
}
