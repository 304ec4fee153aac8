//! Uploads: an MP3 streamed in, checked by content, measured, hashed, counted against the
//! quota and stored once per user; the per-video registry it feeds.

use std::sync::{Arc, Mutex};

use bytes::Bytes;
use chrono::Utc;
use futures::{Stream, StreamExt as _};
use scribevault_blob::{BlobError, ByteStream, owned_key};
use scribevault_core::UserId;
use scribevault_core::human::human_duration;
use sha2::Digest as _;

use super::audio_length::AudioLength;
use super::{Storage, invalid_path};
use crate::domain::inspection::{UploadInspection, lock};
use crate::domain::{Mp3Upload, RegisteredMp3, StoredMp3, UNTITLED, UPLOADS_ROOT, human_size};
use crate::error::StorageError;

/// An upload that passed every check, with what was measured of it.
struct Kept {
    upload_id: String,
    key: scribevault_blob::BlobKey,
    path: String,
    size: u64,
    sha: String,
    measured: Option<f64>,
}

impl Storage {
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
        let (room, over_quota) = self.upload_room(user).await?;
        let inspection = Arc::new(Mutex::new(
            UploadInspection::new(self.max_upload_bytes).with_room(room, over_quota),
        ));
        // The audio's length is walked as it goes by, and the upload stops at the limit.
        let length = Arc::new(AudioLength::start(self.max_audio_seconds));
        let limit = human_duration(self.max_audio_seconds);
        let checked = checked_body(body, &inspection, &length, &limit);
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
        self.keep(
            user,
            upload,
            Kept {
                upload_id,
                key,
                path,
                size,
                sha,
                measured,
            },
        )
        .await
    }

    /// What is left of `user`'s quota, and the refusal an upload past it gets.
    async fn upload_room(&self, user: &UserId) -> Result<(u64, StorageError), StorageError> {
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
        Ok((room, over_quota))
    }

    /// Records a checked upload: the same bytes stored before by this user are used instead
    /// (the new blob goes), then the upload is registered under its video.
    async fn keep(
        &self,
        user: &UserId,
        upload: Mp3Upload,
        kept: Kept,
    ) -> Result<StoredMp3, StorageError> {
        let Kept {
            upload_id,
            key,
            path,
            size,
            sha,
            measured,
        } = kept;
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
}

/// `body` as the blob store reads it: every chunk inspected (MP3, size, quota) and its audio
/// length counted; the first refusal is kept in `inspection` and stops the stream.
fn checked_body(
    body: impl Stream<Item = Result<Bytes, StorageError>> + Send + 'static,
    inspection: &Arc<Mutex<UploadInspection>>,
    length: &Arc<AudioLength>,
    limit: &str,
) -> ByteStream {
    let watcher = inspection.clone();
    let inspected: ByteStream = Box::pin(body.map(move |chunk| {
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
    let (counter, refusals, limit_text) = (length.clone(), inspection.clone(), limit.to_owned());
    Box::pin(inspected.then(move |item| {
        let (counter, refusals, limit) = (counter.clone(), refusals.clone(), limit_text.clone());
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
    }))
}
