//! Storage's domain logic: streaming, checked, de-duplicated MP3 uploads and owner-scoped reads.

use std::sync::{Arc, Mutex, PoisonError};

use bytes::Bytes;
use chrono::Utc;
use futures::{Stream, StreamExt as _};
use scribevault_blob::{BlobError, BlobStore, ByteStream, owned_key};
use scribevault_core::UserId;
use sea_orm::{
    ActiveModelTrait as _, ColumnTrait as _, DatabaseConnection, EntityTrait as _,
    QueryFilter as _, QueryOrder as _, Set,
};
use sea_orm_migration::MigratorTrait as _;
use sha2::{Digest as _, Sha256};

use crate::entity::{mp3_upload, stored_audio};
use crate::error::StorageError;
use crate::migration::Migrator;
use crate::mp3_check::{AUDIO_PREFIX_BYTES, Mp3Verdict, audio_offset, check_mp3_prefix};

/// The storage service's state.
#[derive(Clone)]
pub struct Storage {
    db: DatabaseConnection,
    blobs: Arc<dyn BlobStore>,
    max_upload_bytes: u64,
}

/// What the uploader tells about the file.
#[derive(Debug, Clone, Default)]
pub struct Mp3Upload {
    /// YouTube video id; empty for a manual upload.
    pub video_id: String,
    pub title: String,
    pub channel_title: String,
    pub duration_seconds: Option<f64>,
    pub published_at: String,
}

/// A stored upload.
#[derive(Debug, Clone)]
pub struct StoredMp3 {
    /// Opaque, owner-scoped path of the audio.
    pub path: String,
    pub title: String,
    pub size: u64,
    pub content_sha256: String,
    /// The video id (generated `manual-…` for manual uploads).
    pub video_id: String,
    /// True when this user had stored the same audio before.
    pub deduplicated: bool,
}

/// Watches an upload go by: hashes it, counts it, and decides from its start whether it is MP3.
struct UploadInspection {
    hasher: Sha256,
    size: u64,
    limit: u64,
    /// The first bytes, until the audio offset is known (at most an ID3 header).
    head: Vec<u8>,
    audio_offset: Option<usize>,
    audio_prefix: Vec<u8>,
    verdict: Mp3Verdict,
    refused: Option<StorageError>,
}

impl UploadInspection {
    fn new(limit: u64) -> Self {
        Self {
            hasher: Sha256::new(),
            size: 0,
            limit,
            head: Vec::new(),
            audio_offset: None,
            audio_prefix: Vec::new(),
            verdict: Mp3Verdict::NeedMore,
            refused: None,
        }
    }

    fn inspect(&mut self, chunk: &[u8]) -> Result<(), ()> {
        let start = self.size;
        self.size += chunk.len() as u64;
        if self.size > self.limit {
            self.refused = Some(StorageError::TooLarge {
                limit_mb: self.limit / (1024 * 1024),
            });
            return Err(());
        }
        self.hasher.update(chunk);
        if self.verdict != Mp3Verdict::NeedMore {
            return Ok(());
        }
        if self.audio_offset.is_none() {
            self.head.extend_from_slice(
                &chunk[..chunk.len().min(10usize.saturating_sub(self.head.len()))],
            );
            match audio_offset(&self.head) {
                Err(reason) => return self.refuse(reason),
                Ok(usize::MAX) => {}
                Ok(offset) if self.head.len() >= 10 || offset == 0 => {
                    self.audio_offset = Some(offset)
                }
                Ok(_) => {}
            }
        }
        if let Some(offset) = self.audio_offset {
            let offset = offset as u64;
            let end = self.size;
            if end > offset {
                let from = usize::try_from(offset.saturating_sub(start))
                    .unwrap_or(usize::MAX)
                    .min(chunk.len());
                let room = AUDIO_PREFIX_BYTES - self.audio_prefix.len();
                let take = (chunk.len() - from).min(room);
                self.audio_prefix
                    .extend_from_slice(&chunk[from..from + take]);
                if self.audio_prefix.len() >= AUDIO_PREFIX_BYTES {
                    self.verdict = check_mp3_prefix(&self.audio_prefix, false);
                    self.audio_prefix = Vec::new();
                    if let Mp3Verdict::NotMp3(reason) = self.verdict.clone() {
                        return self.refuse(reason);
                    }
                }
            }
        }
        Ok(())
    }

    fn refuse(&mut self, detail: String) -> Result<(), ()> {
        self.refused = Some(StorageError::NotMp3 { detail });
        Err(())
    }

    /// The verdict once the whole body has been seen.
    fn finish(&mut self) -> Result<(), StorageError> {
        if self.verdict == Mp3Verdict::NeedMore {
            self.verdict = match self.audio_offset {
                _ if self.size == 0 => Mp3Verdict::NotMp3("the file is empty".into()),
                Some(offset) if (offset as u64) < self.size => {
                    check_mp3_prefix(&self.audio_prefix, true)
                }
                _ => Mp3Verdict::NotMp3("the file ends inside its ID3 tag".into()),
            };
        }
        match &self.verdict {
            Mp3Verdict::NotMp3(reason) => Err(StorageError::NotMp3 {
                detail: reason.clone(),
            }),
            _ => Ok(()),
        }
    }
}

fn lock(inspection: &Mutex<UploadInspection>) -> std::sync::MutexGuard<'_, UploadInspection> {
    inspection.lock().unwrap_or_else(PoisonError::into_inner)
}

fn invalid_path(error: BlobError) -> StorageError {
    StorageError::InvalidPath(error.to_string())
}

impl Storage {
    /// Applies storage's migrations.
    ///
    /// # Errors
    /// Migration failure.
    pub async fn start(
        db: DatabaseConnection,
        blobs: Arc<dyn BlobStore>,
        max_upload_bytes: u64,
    ) -> Result<Self, StorageError> {
        Migrator::up(&db, None).await?;
        Ok(Self {
            db,
            blobs,
            max_upload_bytes,
        })
    }

    /// Streams an upload into the blob store. Nothing is kept when the body is not MP3, is too
    /// large, or breaks off.
    ///
    /// # Errors
    /// [`StorageError::NotMp3`], [`StorageError::TooLarge`], [`StorageError::Interrupted`], or
    /// a backend failure.
    pub async fn store_mp3(
        &self,
        user: &UserId,
        upload: Mp3Upload,
        body: impl Stream<Item = Result<Bytes, StorageError>> + Send + 'static,
    ) -> Result<StoredMp3, StorageError> {
        let upload_id = uuid::Uuid::now_v7().simple().to_string();
        let path = format!("uploads/{upload_id}.mp3");
        let key = owned_key(user.as_str(), &path).map_err(invalid_path)?;
        let inspection = Arc::new(Mutex::new(UploadInspection::new(self.max_upload_bytes)));
        let watcher = inspection.clone();
        let checked: ByteStream = Box::pin(body.map(move |chunk| {
            let chunk = chunk.map_err(|error| std::io::Error::other(error.to_string()))?;
            lock(&watcher)
                .inspect(&chunk)
                .map_err(|()| std::io::Error::other("upload refused"))?;
            Ok(chunk)
        }));
        let stored = self.blobs.put(&key, checked).await;
        let verdict = lock(&inspection).refused.take();
        let size = match (stored, verdict) {
            (_, Some(refused)) => return Err(refused),
            (Err(BlobError::Body(_)), None) => return Err(StorageError::Interrupted),
            (Err(error), None) => return Err(StorageError::Blob(error.to_string())),
            (Ok(size), None) => size,
        };
        let (finished, sha) = {
            let mut inspection = lock(&inspection);
            let finished = inspection.finish();
            (
                finished,
                hex::encode(std::mem::take(&mut inspection.hasher).finalize()),
            )
        };
        if let Err(refused) = finished {
            self.delete_quietly(&key).await;
            return Err(refused);
        }
        let existing = stored_audio::Entity::find()
            .filter(stored_audio::Column::UserId.eq(user.as_str()))
            .filter(stored_audio::Column::ContentSha256.eq(&sha))
            .one(&self.db)
            .await?;
        let (path, deduplicated) = match existing {
            Some(existing) => {
                self.delete_quietly(&key).await;
                (existing.path, true)
            }
            None => {
                let row = stored_audio::ActiveModel {
                    id: Set(upload_id.clone()),
                    user_id: Set(user.as_str().to_owned()),
                    content_sha256: Set(sha.clone()),
                    path: Set(path.clone()),
                    size: Set(i64::try_from(size).unwrap_or(i64::MAX)),
                    created_at: Set(Utc::now()),
                };
                if let Err(error) = row.insert(&self.db).await {
                    self.delete_quietly(&key).await;
                    return Err(error.into());
                }
                (path, false)
            }
        };
        let manual = upload.video_id.is_empty();
        let video_id = if manual {
            format!("manual-{}", &upload_id[upload_id.len() - 12..])
        } else {
            upload.video_id
        };
        let title = if upload.title.trim().is_empty() {
            "Untitled".to_owned()
        } else {
            upload.title.trim().to_owned()
        };
        mp3_upload::ActiveModel {
            id: Set(upload_id),
            user_id: Set(user.as_str().to_owned()),
            video_id: Set(video_id.clone()),
            manual: Set(manual),
            title: Set(title.clone()),
            channel_title: Set(upload.channel_title),
            duration_seconds: Set(upload.duration_seconds),
            published_at: Set(upload.published_at),
            path: Set(path.clone()),
            size: Set(i64::try_from(size).unwrap_or(i64::MAX)),
            created_at: Set(Utc::now()),
        }
        .insert(&self.db)
        .await?;
        Ok(StoredMp3 {
            path,
            title,
            size,
            content_sha256: sha,
            video_id,
            deduplicated,
        })
    }

    async fn delete_quietly(&self, key: &scribevault_blob::BlobKey) {
        if let Err(error) = self.blobs.delete(key).await {
            tracing::warn!(error = %error, key = %key, "could not remove a refused upload");
        }
    }

    /// For each video id: whether the caller has an MP3 for it, and its path.
    ///
    /// # Errors
    /// Database failure.
    pub async fn mp3_status(
        &self,
        user: &UserId,
        video_ids: &[String],
    ) -> Result<Vec<(String, Option<String>)>, StorageError> {
        let rows = mp3_upload::Entity::find()
            .filter(mp3_upload::Column::UserId.eq(user.as_str()))
            .filter(mp3_upload::Column::VideoId.is_in(video_ids.iter().cloned()))
            .order_by_desc(mp3_upload::Column::CreatedAt)
            .all(&self.db)
            .await?;
        Ok(video_ids
            .iter()
            .map(|id| {
                (
                    id.clone(),
                    rows.iter()
                        .find(|row| &row.video_id == id)
                        .map(|row| row.path.clone()),
                )
            })
            .collect())
    }

    /// The caller's manual uploads, newest first.
    ///
    /// # Errors
    /// Database failure.
    pub async fn manual_uploads(
        &self,
        user: &UserId,
    ) -> Result<Vec<mp3_upload::Model>, StorageError> {
        Ok(mp3_upload::Entity::find()
            .filter(mp3_upload::Column::UserId.eq(user.as_str()))
            .filter(mp3_upload::Column::Manual.eq(true))
            .order_by_desc(mp3_upload::Column::CreatedAt)
            .all(&self.db)
            .await?)
    }

    /// Streams one of the caller's objects.
    ///
    /// # Errors
    /// Invalid path, or nothing of the caller's there.
    pub async fn open(&self, user: &UserId, path: &str) -> Result<ByteStream, StorageError> {
        let key = owned_key(user.as_str(), path).map_err(invalid_path)?;
        match self.blobs.get(&key).await {
            Ok(body) => Ok(body),
            Err(BlobError::NotFound(_)) => Err(StorageError::NotFound),
            Err(error) => Err(StorageError::Blob(error.to_string())),
        }
    }

    /// Size of one of the caller's objects.
    ///
    /// # Errors
    /// Invalid path, or nothing of the caller's there.
    pub async fn stat(&self, user: &UserId, path: &str) -> Result<u64, StorageError> {
        let key = owned_key(user.as_str(), path).map_err(invalid_path)?;
        match self.blobs.head(&key).await {
            Ok(Some(meta)) => Ok(meta.size),
            Ok(None) => Err(StorageError::NotFound),
            Err(error) => Err(StorageError::Blob(error.to_string())),
        }
    }
}
