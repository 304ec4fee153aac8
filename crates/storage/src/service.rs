//! Storage's domain logic: streaming, checked, de-duplicated MP3 uploads and owner-scoped reads.

use std::sync::{Arc, Mutex};

use bytes::Bytes;
use chrono::{DateTime, Utc};
use futures::{Stream, StreamExt as _};
use scribevault_blob::{BlobError, BlobStore, ByteStream, owned_folder, owned_key};

/// Where the conversion service keeps a user's converted files; they count against the quota.
const CONVERTED_ROOT: &str = "converted/";
use scribevault_core::UserId;
use scribevault_core::human::human_duration;
use sha2::Digest as _;

use crate::audio_length::AudioLength;
use crate::domain::{
    DeletedUserData, Mp3Upload, RegisteredMp3, StoragePolicy, StoredMp3, UNTITLED, UPLOADS_ROOT,
    human_size,
};
use crate::error::StorageError;
use crate::inspection::{UploadInspection, lock};
use crate::store::StorageStore;

/// The storage service's state.
#[derive(Clone)]
pub struct Storage {
    store: StorageStore,
    blobs: Arc<dyn BlobStore>,
    max_upload_bytes: u64,
    max_audio_seconds: u64,
}

fn invalid_path(error: BlobError) -> StorageError {
    StorageError::InvalidPath(error.to_string())
}

impl Storage {
    /// The service over its store and blob store.
    #[must_use]
    pub fn new(store: StorageStore, blobs: Arc<dyn BlobStore>, max_upload_bytes: u64) -> Self {
        Self {
            store,
            blobs,
            max_upload_bytes,
            max_audio_seconds: u64::MAX / 1_000,
        }
    }

    /// Refuses uploads whose audio plays longer than `seconds`.
    #[must_use]
    pub fn with_max_audio_seconds(mut self, seconds: u64) -> Self {
        self.max_audio_seconds = seconds;
        self
    }

    /// Streams an upload into the blob store. Nothing is kept when the body is not MP3, is too
    /// large, or breaks off.
    ///
    /// # Errors
    /// [`StorageError::NotMp3`], [`StorageError::TooLarge`], [`StorageError::Interrupted`], or
    /// a backend failure.
    #[tracing::instrument(skip_all, fields(user = %user, video = %upload.video_id))]
    pub async fn store_mp3(
        &self,
        user: &UserId,
        upload: Mp3Upload,
        body: impl Stream<Item = Result<Bytes, StorageError>> + Send + 'static,
    ) -> Result<StoredMp3, StorageError> {
        let upload_id = uuid::Uuid::now_v7().simple().to_string();
        let path = format!("{UPLOADS_ROOT}{upload_id}.mp3");
        let key = owned_key(user.as_str(), &path).map_err(invalid_path)?;
        // The quota is checked as the upload streams: what is left of it is the upload's room.
        // (Two uploads at once may each fit alone and pass together; the next one is refused.)
        let policy = self.store.policy(user.as_str()).await?;
        let used = self.used_bytes(user).await?;
        let over_quota = StorageError::QuotaExceeded {
            limit: human_size(policy.max_bytes),
            used: human_size(used),
        };
        let room = policy.max_bytes.saturating_sub(used);
        if room == 0 {
            return Err(over_quota);
        }
        let inspection = Arc::new(Mutex::new(
            UploadInspection::new(self.max_upload_bytes).with_room(room, over_quota),
        ));
        let watcher = inspection.clone();
        let checked: ByteStream = Box::pin(body.map(move |chunk| {
            // The body's own error (a malformed part, a broken stream) is the caller's answer.
            let chunk = chunk.map_err(|error| {
                let message = error.to_string();
                lock(&watcher).refused.get_or_insert(error);
                std::io::Error::other(message)
            })?;
            lock(&watcher)
                .inspect(&chunk)
                .map_err(|()| std::io::Error::other("upload refused"))?;
            Ok(chunk)
        }));
        // The audio's length is walked as it goes by, and the upload stops at the limit.
        let length = Arc::new(AudioLength::start(self.max_audio_seconds));
        let limit = human_duration(self.max_audio_seconds);
        let (counter, refusals, limit_text) = (length.clone(), inspection.clone(), limit.clone());
        let checked: ByteStream = Box::pin(checked.then(move |item| {
            let (counter, refusals, limit) =
                (counter.clone(), refusals.clone(), limit_text.clone());
            async move {
                let chunk = item?;
                if !counter.feed(&chunk).await {
                    lock(&refusals)
                        .refused
                        .get_or_insert(StorageError::TooLong { limit });
                    return Err(std::io::Error::other("upload refused"));
                }
                Ok(chunk)
            }
        }));
        let stored = self.blobs.put(&key, checked).await;
        let measured = match Arc::try_unwrap(length) {
            Ok(length) => length.finish().await,
            Err(_) => None,
        };
        #[allow(clippy::cast_precision_loss)]
        let too_long = measured.is_some_and(|seconds| seconds > self.max_audio_seconds as f64);
        if stored.is_ok() && too_long {
            // The counter lagged the last chunks: the whole file was stored, and goes again.
            self.delete_quietly(&key).await;
            return Err(StorageError::TooLong { limit });
        }
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
        let existing = self.store.stored_audio_path(user.as_str(), &sha).await?;
        let (path, deduplicated) = match existing {
            Some(existing) => {
                self.delete_quietly(&key).await;
                (existing, true)
            }
            None => {
                if let Err(error) = self
                    .store
                    .insert_stored_audio(&upload_id, user.as_str(), &sha, &path, size, Utc::now())
                    .await
                {
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
            UNTITLED.to_owned()
        } else {
            upload.title.trim().to_owned()
        };
        self.store
            .register(RegisteredMp3 {
                upload_id,
                user_id: user.as_str().to_owned(),
                video_id: video_id.clone(),
                manual,
                title: title.clone(),
                channel_title: upload.channel_title,
                duration_seconds: upload.duration_seconds.or(measured),
                published_at: upload.published_at,
                path: path.clone(),
                size,
                created_at: Utc::now(),
            })
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
        let rows = self
            .store
            .registered_for_videos(user.as_str(), video_ids)
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
    pub async fn manual_uploads(&self, user: &UserId) -> Result<Vec<RegisteredMp3>, StorageError> {
        Ok(self.store.manual_uploads(user.as_str()).await?)
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

    /// Records the caller's quota and clean-up policy; answers what their audio takes now.
    ///
    /// # Errors
    /// A zero quota; database failure.
    #[tracing::instrument(skip(self), fields(user = %user))]
    pub async fn set_policy(
        &self,
        user: &UserId,
        policy: StoragePolicy,
    ) -> Result<u64, StorageError> {
        if policy.max_bytes == 0 {
            return Err(StorageError::BadRequest(
                "the quota must be positive".into(),
            ));
        }
        if policy.cleanup_after_days == Some(0) {
            return Err(StorageError::BadRequest(
                "cleanupAfterDays must be at least 1".into(),
            ));
        }
        self.store.set_policy(user.as_str(), policy).await?;
        self.used_bytes(user).await
    }

    /// Bytes the caller keeps, what their quota counts: their audio, each stored MP3 once
    /// however often it was uploaded, and their converted files (PDF originals and markdown,
    /// which the conversion service writes under `converted/`).
    ///
    /// # Errors
    /// Database or blob store failure.
    pub async fn used_bytes(&self, user: &UserId) -> Result<u64, StorageError> {
        let audio = self.store.used_bytes(user.as_str()).await?;
        // A user id that cannot be one key segment never owned an object.
        let Ok(folder) = owned_folder(user.as_str(), CONVERTED_ROOT) else {
            return Ok(audio);
        };
        let converted: u64 = self
            .blobs
            .list(&format!("{}/", folder.as_str()))
            .await
            .map_err(|error| StorageError::Blob(error.to_string()))?
            .iter()
            .map(|object| object.size)
            .sum();
        Ok(audio.saturating_add(converted))
    }

    /// Whether `bytes` more fit in the caller's quota, for another service about to store them
    /// (a PDF and its conversion).
    ///
    /// # Errors
    /// [`StorageError::QuotaExceeded`] when they do not; database or blob store failure.
    pub async fn check_room(&self, user: &UserId, bytes: u64) -> Result<(), StorageError> {
        let policy = self.store.policy(user.as_str()).await?;
        let used = self.used_bytes(user).await?;
        if used.saturating_add(bytes) > policy.max_bytes || used >= policy.max_bytes {
            return Err(StorageError::QuotaExceeded {
                limit: human_size(policy.max_bytes),
                used: human_size(used),
            });
        }
        Ok(())
    }

    /// Deletes everything the caller has here: their rows (the MP3 registry, stored audio,
    /// policy) and every object under their `uploads/`. Another user's data is never read.
    /// Deleting again finds nothing and succeeds; an upload that was streaming meanwhile may
    /// leave its file, which the next call deletes.
    ///
    /// # Errors
    /// Database or blob store failure (a second call finishes the work).
    #[tracing::instrument(skip(self), fields(user = %user))]
    pub async fn delete_user_data(&self, user: &UserId) -> Result<DeletedUserData, StorageError> {
        let rows = self.store.delete_user(user.as_str()).await?;
        // A user id that cannot be one key segment (a `/` in it) never owned an object.
        let blobs = match owned_folder(user.as_str(), UPLOADS_ROOT) {
            Ok(folder) => self
                .blobs
                .delete_prefix(&folder)
                .await
                .map_err(|error| StorageError::Blob(error.to_string()))?,
            Err(_) => 0,
        };
        tracing::info!(rows, blobs, "user data deleted");
        Ok(DeletedUserData { rows, blobs })
    }

    /// Deletes, for every user with clean-up on, the MP3s last uploaded more than their
    /// `cleanupAfterDays` before `now`. Transcripts, converted files and Vault items are other
    /// services' and are never touched. Logs each file removed; answers how many.
    ///
    /// # Errors
    /// Database failure (a blob that cannot be deleted is logged and kept registered).
    #[tracing::instrument(skip(self))]
    pub async fn sweep_old_mp3s(&self, now: DateTime<Utc>) -> Result<usize, StorageError> {
        let mut removed = 0;
        for (user_id, days) in self.store.cleanup_policies().await? {
            let before = now - chrono::Duration::days(i64::from(days));
            for (path, size) in self.store.audio_older_than(&user_id, before).await? {
                let key = owned_key(&user_id, &path).map_err(invalid_path)?;
                if let Err(error) = self.blobs.delete(&key).await {
                    tracing::warn!(user = user_id, path, error = %error, "old MP3 not deleted; kept for the next sweep");
                    continue;
                }
                self.store.forget_audio(&user_id, &path).await?;
                tracing::info!(
                    user = user_id,
                    path,
                    size,
                    older_than_days = days,
                    "old MP3 removed by automatic clean-up"
                );
                removed += 1;
            }
        }
        Ok(removed)
    }
}
