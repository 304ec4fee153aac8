//! Transcription jobs: the state machine of spec §4 for every file, kept in the database, which
//! is the source of truth. Queue messages only say "look at this file"; claims are conditional
//! updates, so duplicate deliveries are harmless.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use chrono::{DateTime, Utc};
use scribevault_blob::{BlobStore, owned_key};
use scribevault_bus::contract::{
    LibraryIngest, TranscriptionComplete, TranscriptionErrorEvent, TranscriptionProgress,
    TranscriptionWork,
};
use scribevault_bus::{Event, EventBus, EventEnvelope, WorkQueue, enqueue_work};
use scribevault_core::UserId;
use sea_orm::sea_query::{Expr, ExprTrait as _};
use sea_orm::{
    ActiveModelTrait as _, ColumnTrait as _, ConnectionTrait as _, DatabaseConnection,
    EntityTrait as _, QueryFilter as _, QueryOrder as _, Set, TransactionTrait as _,
};
use sea_orm_migration::MigratorTrait as _;

use crate::entity::transcription_file::{self, Column as FileColumn, Entity as FileEntity};
use crate::entity::transcription_job::{self, Entity as JobEntity};
use crate::error::TranscriptionError;
use crate::migration::Migrator;
use crate::window::DailyWindow;

/// Model names (`ggml-<name>.bin`) in `dir`, sorted.
fn models_in(dir: &std::path::Path) -> Vec<String> {
    let mut models: Vec<String> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|entry| {
            let name = entry.file_name().into_string().ok()?;
            name.strip_prefix("ggml-")?
                .strip_suffix(".bin")
                .map(str::to_owned)
        })
        .collect();
    models.sort();
    models
}

/// File states (spec §4).
pub mod status {
    pub const PENDING: &str = "pending";
    pub const SCHEDULED: &str = "scheduled";
    pub const TRANSCRIBING: &str = "transcribing";
    pub const COMPLETED: &str = "completed";
    pub const ERROR: &str = "error";
    pub const RETRYING: &str = "retrying";
    pub const FAILED: &str = "failed";
}

/// Most files one job may hold (the SPA sends at most 100 per selection).
pub const MAX_FILES_PER_JOB: usize = 100;

/// Tunables of the service.
#[derive(Debug, Clone)]
pub struct TranscriptionConfig {
    /// Where `ggml-<model>.bin` files are.
    pub model_dir: PathBuf,
    /// The models on offer when they are configured rather than found in `model_dir`.
    pub offered_models: Option<Vec<String>>,
    /// Automatic retries before a file is `failed`.
    pub max_retries: u32,
    /// First retry delay; doubles each retry, capped at `retry_max_delay`.
    pub retry_base_delay: Duration,
    /// Longest delay between two automatic retries.
    pub retry_max_delay: Duration,
    /// The model used when a request names none.
    pub default_model: String,
    /// How often the housekeeping pass runs.
    pub housekeeping_interval: Duration,
    /// At start, files completed this recently are handed to the library again.
    pub resend_ingests_within: Duration,
    /// A transcribing file whose worker has not reported for this long is given to another.
    pub stale_after: Duration,
}

/// A file as the client submits it.
#[derive(Debug, Clone, Default)]
pub struct FileToTranscribe {
    pub id: String,
    pub mp3_path: String,
    pub title: String,
    pub youtube_video_id: String,
}

/// When a scheduled job may run: `HH:MM` bounds in an IANA zone (defaults 01:00, 06:00, UTC).
#[derive(Debug, Clone, Default)]
pub struct ScheduleWindow {
    pub start: String,
    pub end: String,
    pub timezone: String,
}

/// A claimed file, with what the worker needs.
#[derive(Debug, Clone)]
pub struct ClaimedFile {
    pub file: transcription_file::Model,
    pub model: String,
    pub output_format: String,
    pub claim_token: i32,
}

/// Why a claim was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClaimRefusal {
    /// Completed, failed or cancelled: nothing to do.
    Finished,
    /// A live worker holds it.
    Busy,
    /// Its scheduled window is closed.
    OutsideWindow,
}

impl ClaimRefusal {
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Finished => "finished",
            Self::Busy => "busy",
            Self::OutsideWindow => "outside_window",
        }
    }
}

/// What a worker produced for a file.
#[derive(Debug, Clone, Default)]
pub struct CompletedTranscript {
    pub transcript_path: String,
    pub markdown_path: String,
    pub segments_path: String,
    pub processing_time_ms: u64,
    pub duration_seconds: f64,
    pub vault_content: String,
}

/// The transcription service.
#[derive(Clone)]
pub struct Transcriptions {
    db: DatabaseConnection,
    events: Arc<dyn EventBus>,
    work: Arc<dyn WorkQueue>,
    blobs: Arc<dyn BlobStore>,
    config: TranscriptionConfig,
}

fn not_found_file() -> TranscriptionError {
    TranscriptionError::NotFound("No active job for this file".into())
}

fn unavailable(error: impl std::fmt::Display) -> TranscriptionError {
    TranscriptionError::Unavailable(error.to_string())
}

impl Transcriptions {
    /// Applies the service's migrations.
    ///
    /// # Errors
    /// Migration failure.
    pub async fn start(
        db: DatabaseConnection,
        events: Arc<dyn EventBus>,
        work: Arc<dyn WorkQueue>,
        blobs: Arc<dyn BlobStore>,
        config: TranscriptionConfig,
    ) -> Result<Self, TranscriptionError> {
        Migrator::up(&db, None).await?;
        Ok(Self {
            db,
            events,
            work,
            blobs,
            config,
        })
    }

    /// The models on offer: the configured list, or the `ggml-<name>.bin` files present in the
    /// model directory, sorted. The directory is read on a blocking thread.
    pub async fn available_models(&self) -> Vec<String> {
        if let Some(offered) = &self.config.offered_models {
            return offered.clone();
        }
        let model_dir = self.config.model_dir.clone();
        match tokio::task::spawn_blocking(move || models_in(&model_dir)).await {
            Ok(models) => models,
            Err(error) => {
                tracing::error!(error = %error, "scanning the model directory failed");
                Vec::new()
            }
        }
    }

    /// The service's settings.
    #[must_use]
    pub fn config(&self) -> &TranscriptionConfig {
        &self.config
    }

    async fn check_model(&self, model: &str) -> Result<String, TranscriptionError> {
        let model = if model.is_empty() {
            self.config.default_model.as_str()
        } else {
            model
        };
        let available = self.available_models().await;

        if available.iter().any(|name| name == model) {
            return Ok(model.to_owned());
        }
        let how_to_add = if self.config.offered_models.is_some() {
            format!(
                "Give the workers ggml-{model}.bin and add {model} to SCRIBEVAULT_WHISPER_MODELS."
            )
        } else {
            format!(
                "Run `scribevault model fetch {model}` or put ggml-{model}.bin in {}.",
                self.config.model_dir.display()
            )
        };
        Err(TranscriptionError::ModelUnavailable {
            requested: model.to_owned(),
            how_to_add,
            available: if available.is_empty() {
                "none".to_owned()
            } else {
                available.join(", ")
            },
        })
    }

    async fn check_files(
        &self,
        user: &UserId,
        files: &[FileToTranscribe],
    ) -> Result<(), TranscriptionError> {
        if files.is_empty() {
            return Err(TranscriptionError::InvalidArgument(
                "No files to transcribe".into(),
            ));
        }
        if files.len() > MAX_FILES_PER_JOB {
            return Err(TranscriptionError::InvalidArgument(format!(
                "At most {MAX_FILES_PER_JOB} files per job"
            )));
        }
        let mut ids = std::collections::HashSet::new();
        for file in files {
            if file.id.trim().is_empty() || file.id.len() > 200 {
                return Err(TranscriptionError::InvalidArgument(
                    "Every file needs an id".into(),
                ));
            }
            if !ids.insert(file.id.as_str()) {
                return Err(TranscriptionError::InvalidArgument(format!(
                    "File id {} appears twice",
                    file.id
                )));
            }
            let key = owned_key(user.as_str(), &file.mp3_path).map_err(|_| {
                TranscriptionError::InvalidArgument(format!("Invalid mp3Path {:?}", file.mp3_path))
            })?;
            if !file.mp3_path.starts_with("uploads/") {
                return Err(TranscriptionError::InvalidArgument(format!(
                    "Invalid mp3Path {:?}",
                    file.mp3_path
                )));
            }
            match self.blobs.head(&key).await {
                Ok(Some(_)) => {}
                Ok(None) => {
                    return Err(TranscriptionError::NotFound(format!(
                        "MP3 not found: {}",
                        file.mp3_path
                    )));
                }
                Err(error) => return Err(unavailable(error)),
            }
        }
        Ok(())
    }

    /// Creates a job whose files start now.
    ///
    /// # Errors
    /// Invalid files, unknown MP3 paths, an absent model.
    pub async fn start_job(
        &self,
        user: &UserId,
        files: Vec<FileToTranscribe>,
        model: &str,
        output_format: &str,
    ) -> Result<(transcription_job::Model, Vec<transcription_file::Model>), TranscriptionError>
    {
        self.create_job(user, files, model, output_format, None)
            .await
    }

    /// Creates a job whose files wait for the daily window.
    ///
    /// # Errors
    /// As [`Transcriptions::start_job`], plus a bad window.
    pub async fn schedule_job(
        &self,
        user: &UserId,
        files: Vec<FileToTranscribe>,
        model: &str,
        output_format: &str,
        window: &ScheduleWindow,
    ) -> Result<(transcription_job::Model, Vec<transcription_file::Model>), TranscriptionError>
    {
        let start = if window.start.is_empty() {
            "01:00"
        } else {
            window.start.as_str()
        };
        let end = if window.end.is_empty() {
            "06:00"
        } else {
            window.end.as_str()
        };
        let timezone = if window.timezone.is_empty() {
            "UTC"
        } else {
            window.timezone.as_str()
        };
        DailyWindow::parse(start, end, timezone)?;
        self.create_job(
            user,
            files,
            model,
            output_format,
            Some((start.to_owned(), end.to_owned(), timezone.to_owned())),
        )
        .await
    }

    async fn create_job(
        &self,
        user: &UserId,
        files: Vec<FileToTranscribe>,
        model: &str,
        output_format: &str,
        window: Option<(String, String, String)>,
    ) -> Result<(transcription_job::Model, Vec<transcription_file::Model>), TranscriptionError>
    {
        let output_format = match output_format {
            "" | "markdown" => "markdown",
            "txt" => "txt",
            other => {
                return Err(TranscriptionError::InvalidArgument(format!(
                    "outputFormat must be markdown or txt, not {other:?}"
                )));
            }
        };
        let model = self.check_model(model).await?;
        self.check_files(user, &files).await?;
        let now = Utc::now();
        let job_id = uuid::Uuid::now_v7().to_string();
        let scheduled = window.is_some();
        let (window_start, window_end, timezone) = match window {
            Some((start, end, zone)) => (Some(start), Some(end), zone),
            None => (None, None, "UTC".to_owned()),
        };
        let transaction = self.db.begin().await?;
        let job = transcription_job::ActiveModel {
            id: Set(job_id.clone()),
            user_id: Set(user.as_str().to_owned()),
            model: Set(model),
            output_format: Set(output_format.to_owned()),
            window_start: Set(window_start),
            window_end: Set(window_end),
            timezone: Set(timezone),
            created_at: Set(now),
        }
        .insert(&transaction)
        .await?;
        let mut rows = Vec::with_capacity(files.len());
        for file in files {
            let row = transcription_file::ActiveModel {
                id: Set(uuid::Uuid::now_v7().to_string()),
                job_id: Set(job_id.clone()),
                file_id: Set(file.id),
                user_id: Set(user.as_str().to_owned()),
                youtube_video_id: Set(file.youtube_video_id),
                title: Set(if file.title.trim().is_empty() {
                    "Untitled".into()
                } else {
                    file.title
                }),
                mp3_path: Set(file.mp3_path),
                status: Set(if scheduled {
                    status::SCHEDULED
                } else {
                    status::PENDING
                }
                .to_owned()),
                progress: Set(0),
                error_message: Set(None),
                retry_count: Set(0),
                max_retries: Set(i32::try_from(self.config.max_retries).unwrap_or(i32::MAX)),
                last_failed_at: Set(None),
                next_attempt_at: Set(None),
                transcript_path: Set(None),
                markdown_path: Set(None),
                segments_path: Set(None),
                processing_time_ms: Set(None),
                claim_token: Set(0),
                heartbeat_at: Set(None),
                created_at: Set(now),
                updated_at: Set(now),
            }
            .insert(&transaction)
            .await?;
            rows.push(row);
        }
        transaction.commit().await?;
        if !scheduled {
            for row in &rows {
                self.enqueue(row).await?;
            }
        }
        Ok((job, rows))
    }

    async fn enqueue(&self, file: &transcription_file::Model) -> Result<(), TranscriptionError> {
        let work = TranscriptionWork {
            user_id: file.user_id.clone(),
            job_id: file.job_id.clone(),
            file_id: file.file_id.clone(),
            traceparent: scribevault_core::telemetry::current_traceparent(),
        };
        enqueue_work(self.work.as_ref(), &work)
            .await
            .map_err(unavailable)
    }

    async fn find_file(
        &self,
        user: &UserId,
        job_id: &str,
        file_id: &str,
    ) -> Result<transcription_file::Model, TranscriptionError> {
        FileEntity::find()
            .filter(FileColumn::UserId.eq(user.as_str()))
            .filter(FileColumn::JobId.eq(job_id))
            .filter(FileColumn::FileId.eq(file_id))
            .one(&self.db)
            .await?
            .ok_or_else(not_found_file)
    }

    async fn find_job(
        &self,
        user: &UserId,
        job_id: &str,
    ) -> Result<transcription_job::Model, TranscriptionError> {
        JobEntity::find_by_id(job_id.to_owned())
            .filter(transcription_job::Column::UserId.eq(user.as_str()))
            .one(&self.db)
            .await?
            .ok_or_else(|| TranscriptionError::NotFound("No active transcription job".into()))
    }

    /// A job and its files.
    ///
    /// # Errors
    /// Unknown job (or another user's).
    pub async fn job(
        &self,
        user: &UserId,
        job_id: &str,
    ) -> Result<(transcription_job::Model, Vec<transcription_file::Model>), TranscriptionError>
    {
        let job = self.find_job(user, job_id).await?;
        let files = FileEntity::find()
            .filter(FileColumn::JobId.eq(job_id))
            .filter(FileColumn::UserId.eq(user.as_str()))
            .order_by_asc(FileColumn::CreatedAt)
            .order_by_asc(FileColumn::Id)
            .all(&self.db)
            .await?;
        Ok((job, files))
    }

    /// Retries a file that ended in `error` or `failed`: it becomes `retrying` and is queued.
    ///
    /// # Errors
    /// Unknown file, or a file that is not in error.
    pub async fn retry(
        &self,
        user: &UserId,
        job_id: &str,
        file_id: &str,
    ) -> Result<transcription_file::Model, TranscriptionError> {
        let file = self.find_file(user, job_id, file_id).await?;
        let now = Utc::now();
        let updated = FileEntity::update_many()
            .col_expr(FileColumn::Status, Expr::value(status::RETRYING))
            .col_expr(FileColumn::Progress, Expr::value(0))
            .col_expr(
                FileColumn::ErrorMessage,
                Expr::value(Option::<String>::None),
            )
            .col_expr(
                FileColumn::NextAttemptAt,
                Expr::value(Option::<DateTime<Utc>>::None),
            )
            .col_expr(FileColumn::UpdatedAt, Expr::value(now))
            .filter(FileColumn::Id.eq(&file.id))
            .filter(FileColumn::Status.is_in([status::ERROR, status::FAILED]))
            .exec(&self.db)
            .await?;
        if updated.rows_affected == 0 {
            return Err(TranscriptionError::Conflict(format!(
                "Only files in error can be retried; this one is {}",
                file.status
            )));
        }
        let file = self.find_file(user, job_id, file_id).await?;
        self.enqueue(&file).await?;
        Ok(file)
    }

    /// Cancels a file: it ends in `error` with 'Cancelled by user'; a running transcription is
    /// told to stop at its next report (within a second or two).
    ///
    /// # Errors
    /// Unknown file, or a finished one.
    pub async fn cancel(
        &self,
        user: &UserId,
        job_id: &str,
        file_id: &str,
    ) -> Result<transcription_file::Model, TranscriptionError> {
        let file = self.find_file(user, job_id, file_id).await?;
        let now = Utc::now();
        let updated = FileEntity::update_many()
            .col_expr(FileColumn::Status, Expr::value(status::ERROR))
            .col_expr(FileColumn::Progress, Expr::value(0))
            .col_expr(
                FileColumn::ErrorMessage,
                Expr::value(Some("Cancelled by user".to_owned())),
            )
            .col_expr(
                FileColumn::NextAttemptAt,
                Expr::value(Option::<DateTime<Utc>>::None),
            )
            .col_expr(
                FileColumn::ClaimToken,
                Expr::col(FileColumn::ClaimToken).add(1),
            )
            .col_expr(FileColumn::UpdatedAt, Expr::value(now))
            .filter(FileColumn::Id.eq(&file.id))
            .filter(FileColumn::Status.is_in([
                status::PENDING,
                status::SCHEDULED,
                status::TRANSCRIBING,
                status::RETRYING,
                status::ERROR,
            ]))
            .exec(&self.db)
            .await?;
        if updated.rows_affected == 0 {
            return Err(TranscriptionError::Conflict(format!(
                "The file is already {}",
                file.status
            )));
        }
        let file = self.find_file(user, job_id, file_id).await?;
        self.publish_error(&file).await;
        Ok(file)
    }

    /// Claims a file for a worker: `pending`/`retrying` (or a `transcribing` file whose worker
    /// went silent) becomes `transcribing` with a new claim token.
    ///
    /// # Errors
    /// Unknown file or database failure.
    pub async fn claim(
        &self,
        user: &UserId,
        job_id: &str,
        file_id: &str,
    ) -> Result<Result<ClaimedFile, ClaimRefusal>, TranscriptionError> {
        let file = self.find_file(user, job_id, file_id).await?;
        let job = self.find_job(user, job_id).await?;
        let now = Utc::now();
        if let (Some(start), Some(end)) = (&job.window_start, &job.window_end)
            && !DailyWindow::parse(start, end, &job.timezone)?.contains(now)
        {
            // The window closed before this file started: it waits for the next night.
            FileEntity::update_many()
                .col_expr(FileColumn::Status, Expr::value(status::SCHEDULED))
                .col_expr(FileColumn::UpdatedAt, Expr::value(now))
                .filter(FileColumn::Id.eq(&file.id))
                .filter(FileColumn::Status.is_in([status::PENDING, status::RETRYING]))
                .exec(&self.db)
                .await?;
            return Ok(Err(ClaimRefusal::OutsideWindow));
        }
        let stale_before =
            now - chrono::Duration::from_std(self.config.stale_after).unwrap_or_default();
        let claimable = sea_orm::Condition::any()
            .add(FileColumn::Status.is_in([status::PENDING, status::RETRYING]))
            .add(
                sea_orm::Condition::all()
                    .add(FileColumn::Status.eq(status::TRANSCRIBING))
                    .add(FileColumn::HeartbeatAt.lt(stale_before)),
            );
        let updated = FileEntity::update_many()
            .col_expr(FileColumn::Status, Expr::value(status::TRANSCRIBING))
            .col_expr(FileColumn::Progress, Expr::value(0))
            .col_expr(
                FileColumn::ClaimToken,
                Expr::col(FileColumn::ClaimToken).add(1),
            )
            .col_expr(FileColumn::HeartbeatAt, Expr::value(now))
            .col_expr(FileColumn::UpdatedAt, Expr::value(now))
            .filter(FileColumn::Id.eq(&file.id))
            .filter(claimable)
            .exec(&self.db)
            .await?;
        if updated.rows_affected == 0 {
            let refusal = if file.status == status::TRANSCRIBING {
                ClaimRefusal::Busy
            } else {
                ClaimRefusal::Finished
            };
            return Ok(Err(refusal));
        }
        let file = self.find_file(user, job_id, file_id).await?;
        self.publish_progress(&file, 0, Some(status::TRANSCRIBING))
            .await;
        let claim_token = file.claim_token;
        Ok(Ok(ClaimedFile {
            file,
            model: job.model,
            output_format: job.output_format,
            claim_token,
        }))
    }

    /// Records progress (and the worker's heartbeat). Returns whether the worker must stop
    /// (cancelled, or the claim was given to another worker).
    ///
    /// # Errors
    /// Unknown file or database failure.
    pub async fn report_progress(
        &self,
        user: &UserId,
        job_id: &str,
        file_id: &str,
        claim_token: i32,
        progress: u32,
    ) -> Result<bool, TranscriptionError> {
        let file = self.find_file(user, job_id, file_id).await?;
        let progress = i32::try_from(Ord::min(progress, 99)).unwrap_or(99);
        let updated = FileEntity::update_many()
            .col_expr(FileColumn::Progress, Expr::value(progress))
            .col_expr(FileColumn::HeartbeatAt, Expr::value(Utc::now()))
            .filter(FileColumn::Id.eq(&file.id))
            .filter(FileColumn::Status.eq(status::TRANSCRIBING))
            .filter(FileColumn::ClaimToken.eq(claim_token))
            .exec(&self.db)
            .await?;
        if updated.rows_affected == 0 {
            return Ok(true);
        }
        if progress != file.progress {
            self.publish_progress(&file, progress, None).await;
        }
        Ok(false)
    }

    /// Marks a file completed, announces it, and hands the transcript to the library.
    ///
    /// # Errors
    /// Unknown file or database/bus failure.
    pub async fn complete(
        &self,
        user: &UserId,
        job_id: &str,
        file_id: &str,
        claim_token: i32,
        result: CompletedTranscript,
    ) -> Result<(), TranscriptionError> {
        let file = self.find_file(user, job_id, file_id).await?;
        let updated = FileEntity::update_many()
            .col_expr(FileColumn::Status, Expr::value(status::COMPLETED))
            .col_expr(FileColumn::Progress, Expr::value(100))
            .col_expr(
                FileColumn::ErrorMessage,
                Expr::value(Option::<String>::None),
            )
            .col_expr(
                FileColumn::TranscriptPath,
                Expr::value(Some(result.transcript_path.clone())),
            )
            .col_expr(
                FileColumn::MarkdownPath,
                Expr::value(Some(result.markdown_path.clone())),
            )
            .col_expr(
                FileColumn::SegmentsPath,
                Expr::value(Some(result.segments_path.clone())),
            )
            .col_expr(
                FileColumn::ProcessingTimeMs,
                Expr::value(Some(
                    i64::try_from(result.processing_time_ms).unwrap_or(i64::MAX),
                )),
            )
            .col_expr(FileColumn::UpdatedAt, Expr::value(Utc::now()))
            .filter(FileColumn::Id.eq(&file.id))
            .filter(FileColumn::Status.eq(status::TRANSCRIBING))
            .filter(FileColumn::ClaimToken.eq(claim_token))
            .exec(&self.db)
            .await?;
        if updated.rows_affected == 0 {
            tracing::info!(file = %file.id, "completion of a cancelled or re-claimed file ignored");
            return Ok(());
        }
        let ingest = LibraryIngest {
            user_id: file.user_id.clone(),
            source_ref: format!("transcription:{}", file.id),
            title: file.title.clone(),
            source_type: "AUDIO".into(),
            content: result.vault_content,
            duration_seconds: Some(result.duration_seconds),
            traceparent: scribevault_core::telemetry::current_traceparent(),
        };
        enqueue_work(self.work.as_ref(), &ingest)
            .await
            .map_err(unavailable)?;
        self.publish(
            &file,
            Event::TranscriptionComplete(TranscriptionComplete {
                file_id: file.file_id.clone(),
                job_id: file.job_id.clone(),
                transcript_path: result.transcript_path,
                markdown_path: result.markdown_path,
                processing_time: result.processing_time_ms,
            }),
        )
        .await;
        Ok(())
    }

    /// Records a failed attempt: `error` with a retry planned after a back-off, or `failed`
    /// when retries are exhausted or no retry can help.
    ///
    /// # Errors
    /// Unknown file or database failure.
    pub async fn fail(
        &self,
        user: &UserId,
        job_id: &str,
        file_id: &str,
        claim_token: i32,
        message: &str,
        permanent: bool,
    ) -> Result<(), TranscriptionError> {
        let file = self.find_file(user, job_id, file_id).await?;
        let retry_count = file.retry_count + 1;
        let exhausted = permanent || retry_count >= file.max_retries;
        let now = Utc::now();
        let delay = self
            .config
            .retry_base_delay
            .saturating_mul(2u32.saturating_pow(u32::try_from(file.retry_count).unwrap_or(0)))
            .min(self.config.retry_max_delay);
        let next_attempt =
            (!exhausted).then(|| now + chrono::Duration::from_std(delay).unwrap_or_default());
        let updated = FileEntity::update_many()
            .col_expr(
                FileColumn::Status,
                Expr::value(if exhausted {
                    status::FAILED
                } else {
                    status::ERROR
                }),
            )
            .col_expr(FileColumn::Progress, Expr::value(0))
            .col_expr(
                FileColumn::ErrorMessage,
                Expr::value(Some(message.to_owned())),
            )
            .col_expr(FileColumn::RetryCount, Expr::value(retry_count))
            .col_expr(FileColumn::LastFailedAt, Expr::value(Some(now)))
            .col_expr(FileColumn::NextAttemptAt, Expr::value(next_attempt))
            .col_expr(FileColumn::UpdatedAt, Expr::value(now))
            .filter(FileColumn::Id.eq(&file.id))
            .filter(FileColumn::Status.eq(status::TRANSCRIBING))
            .filter(FileColumn::ClaimToken.eq(claim_token))
            .exec(&self.db)
            .await?;
        if updated.rows_affected == 0 {
            return Ok(());
        }
        let file = self.find_file(user, job_id, file_id).await?;
        self.publish_error(&file).await;
        Ok(())
    }

    async fn publish_error(&self, file: &transcription_file::Model) {
        let count = |value: i32| u32::try_from(value).unwrap_or(0);
        self.publish(
            file,
            Event::TranscriptionError(TranscriptionErrorEvent {
                file_id: file.file_id.clone(),
                job_id: file.job_id.clone(),
                error_message: file.error_message.clone(),
                error: file.error_message.clone(),
                status: file.status.clone(),
                retry_count: count(file.retry_count),
                max_retries: count(file.max_retries),
                last_failed_at: file.last_failed_at.map(|at| at.to_rfc3339()),
            }),
        )
        .await;
    }

    async fn publish_progress(
        &self,
        file: &transcription_file::Model,
        progress: i32,
        status: Option<&str>,
    ) {
        self.publish(
            file,
            Event::TranscriptionProgress(TranscriptionProgress {
                file_id: file.file_id.clone(),
                job_id: file.job_id.clone(),
                progress: u32::try_from(progress).unwrap_or(0),
                status: status.map(str::to_owned),
            }),
        )
        .await;
    }

    /// Events are notifications a page can recover from by reloading, so a failed publish is
    /// logged, never turned into a failed state change.
    async fn publish(&self, file: &transcription_file::Model, event: Event) {
        let envelope = EventEnvelope::for_event(
            &event,
            &file.user_id,
            scribevault_core::telemetry::current_traceparent(),
        );
        if let Err(error) = self.events.publish(&envelope).await {
            tracing::warn!(error = %error, event = event.name(), "event not published");
        }
    }

    /// One pass of the housekeeping loop: due retries are queued, scheduled files whose window
    /// opened become pending and are queued, and transcribing files whose worker went silent
    /// (it died, or the whole process restarted) go back to `pending` and are queued again.
    /// Returns how many files were queued.
    ///
    /// # Errors
    /// Database or bus failure.
    pub async fn requeue_due_files(&self) -> Result<usize, TranscriptionError> {
        let now = Utc::now();
        let mut queued = 0;
        let due_retries = FileEntity::find()
            .filter(FileColumn::Status.eq(status::ERROR))
            .filter(FileColumn::NextAttemptAt.lte(now))
            .all(&self.db)
            .await?;
        for file in due_retries {
            let moved = FileEntity::update_many()
                .col_expr(FileColumn::Status, Expr::value(status::RETRYING))
                .col_expr(
                    FileColumn::NextAttemptAt,
                    Expr::value(Option::<DateTime<Utc>>::None),
                )
                .col_expr(FileColumn::UpdatedAt, Expr::value(now))
                .filter(FileColumn::Id.eq(&file.id))
                .filter(FileColumn::Status.eq(status::ERROR))
                .exec(&self.db)
                .await?;
            if moved.rows_affected == 1 {
                self.publish_progress(&file, 0, Some(status::RETRYING))
                    .await;
                self.enqueue(&file).await?;
                queued += 1;
            }
        }
        let scheduled = FileEntity::find()
            .filter(FileColumn::Status.eq(status::SCHEDULED))
            .all(&self.db)
            .await?;
        for file in scheduled {
            let Some(job) = JobEntity::find_by_id(file.job_id.clone())
                .one(&self.db)
                .await?
            else {
                continue;
            };
            let open = match (&job.window_start, &job.window_end) {
                (Some(start), Some(end)) => DailyWindow::parse(start, end, &job.timezone)
                    .is_ok_and(|window| window.contains(now)),
                _ => true,
            };
            if !open {
                continue;
            }
            let moved = FileEntity::update_many()
                .col_expr(FileColumn::Status, Expr::value(status::PENDING))
                .col_expr(FileColumn::UpdatedAt, Expr::value(now))
                .filter(FileColumn::Id.eq(&file.id))
                .filter(FileColumn::Status.eq(status::SCHEDULED))
                .exec(&self.db)
                .await?;
            if moved.rows_affected == 1 {
                self.enqueue(&file).await?;
                queued += 1;
            }
        }
        let stale_before =
            now - chrono::Duration::from_std(self.config.stale_after).unwrap_or_default();
        let orphaned = FileEntity::find()
            .filter(FileColumn::Status.eq(status::TRANSCRIBING))
            .filter(FileColumn::HeartbeatAt.lt(stale_before))
            .all(&self.db)
            .await?;
        for file in orphaned {
            // Its worker went silent: hand the file back (the new token stops the old worker
            // should it come back) and queue it for another.
            let moved = FileEntity::update_many()
                .col_expr(FileColumn::Status, Expr::value(status::PENDING))
                .col_expr(
                    FileColumn::ClaimToken,
                    Expr::col(FileColumn::ClaimToken).add(1),
                )
                .col_expr(FileColumn::UpdatedAt, Expr::value(now))
                .filter(FileColumn::Id.eq(&file.id))
                .filter(FileColumn::Status.eq(status::TRANSCRIBING))
                .filter(FileColumn::ClaimToken.eq(file.claim_token))
                .exec(&self.db)
                .await?;
            if moved.rows_affected == 1 {
                tracing::warn!(file = %file.id, "worker went silent; file queued again");
                self.enqueue(&file).await?;
                queued += 1;
            }
        }
        Ok(queued)
    }

    /// Queues every file that was waiting for a worker when the service last stopped: with the
    /// in-process bus the queue died with the process, and with RabbitMQ a duplicate message is
    /// harmless (claims are conditional). Returns how many were queued.
    ///
    /// # Errors
    /// Database or bus failure.
    pub async fn resume_waiting_files(&self) -> Result<usize, TranscriptionError> {
        let waiting = FileEntity::find()
            .filter(FileColumn::Status.is_in([status::PENDING, status::RETRYING]))
            .all(&self.db)
            .await?;
        for file in &waiting {
            self.enqueue(file).await?;
        }
        Ok(waiting.len())
    }

    /// Hands recently completed files to the library again. With the in-process bus a crash
    /// between completing a file and the library taking it would otherwise lose the Vault item;
    /// the library's ingest is idempotent, so the ones it has are not duplicated.
    ///
    /// # Errors
    /// Database or bus failure.
    pub async fn resend_recent_ingests(
        &self,
        within: Duration,
    ) -> Result<usize, TranscriptionError> {
        let since = Utc::now() - chrono::Duration::from_std(within).unwrap_or_default();
        let completed = FileEntity::find()
            .filter(FileColumn::Status.eq(status::COMPLETED))
            .filter(FileColumn::UpdatedAt.gte(since))
            .all(&self.db)
            .await?;
        let mut sent = 0;
        for file in completed {
            let Some(job) = JobEntity::find_by_id(file.job_id.clone())
                .one(&self.db)
                .await?
            else {
                continue;
            };
            let path = if job.output_format == "txt" {
                &file.transcript_path
            } else {
                &file.markdown_path
            };
            let Some(path) = path else { continue };
            let Ok(key) = owned_key(&file.user_id, path) else {
                continue;
            };
            let content = match self.blobs.get(&key).await {
                Ok(body) => scribevault_blob::collect_body(body)
                    .await
                    .map_err(unavailable)?,
                Err(error) => {
                    tracing::warn!(error = %error, file = %file.id, "transcript missing; not re-sent to the library");
                    continue;
                }
            };
            let ingest = LibraryIngest {
                user_id: file.user_id.clone(),
                source_ref: format!("transcription:{}", file.id),
                title: file.title.clone(),
                source_type: "AUDIO".into(),
                content: String::from_utf8_lossy(&content).into_owned(),
                duration_seconds: None,
                traceparent: None,
            };
            enqueue_work(self.work.as_ref(), &ingest)
                .await
                .map_err(unavailable)?;
            sent += 1;
        }
        Ok(sent)
    }

    /// Whether the database answers.
    ///
    /// # Errors
    /// It does not.
    pub async fn check_ready(&self) -> Result<(), TranscriptionError> {
        self.db.execute_unprepared("SELECT 1").await?;
        Ok(())
    }
}
