//! Every query of the transcription service. Rows go in and come out as domain types; a state
//! change is one conditional update guarded by the transition's source states, so concurrent
//! replicas and late workers cannot overwrite each other.

use chrono::{DateTime, Utc};
use scribevault_core::fairness::{Standing, shares_from};
use sea_orm::sea_query::{Expr, ExprTrait as _};
use sea_orm::{
    ActiveModelTrait as _, ColumnTrait as _, Condition, DatabaseConnection, DbErr,
    EntityTrait as _, PaginatorTrait as _, QueryFilter as _, QueryOrder as _, QuerySelect as _,
    Set, TransactionTrait as _,
};
use sea_orm_migration::MigratorTrait as _;

use crate::domain::{
    FileStatus, FileTransition, OutputFormat, QueueShare, TranscriptionFile, TranscriptionJob,
    WindowSpec,
};
use crate::entity::transcription_file::{self, Column as FileColumn, Entity as FileEntity};
use crate::entity::transcription_job::{self, Entity as JobEntity};
use crate::migration::Migrator;

/// A file to insert with its job.
#[derive(Debug, Clone)]
pub struct NewFile {
    pub file_id: String,
    pub youtube_video_id: String,
    pub title: String,
    pub mp3_path: String,
    pub status: FileStatus,
    pub max_retries: u32,
}

/// An extra condition on a transition besides the source states.
#[derive(Debug, Clone, Copy)]
pub enum Guard {
    /// Nothing more.
    None,
    /// Only the worker holding this claim may make the change.
    ClaimToken(i32),
}

/// Columns a transition sets besides the status. `None` leaves a column as it is.
#[derive(Debug, Clone, Default)]
pub struct FileUpdate {
    pub progress: Option<u32>,
    pub error_message: Option<Option<String>>,
    pub next_attempt_at: Option<Option<DateTime<Utc>>>,
    pub retry_count: Option<u32>,
    pub last_failed_at: Option<DateTime<Utc>>,
    pub heartbeat_at: Option<DateTime<Utc>>,
    pub take_backs: Option<u32>,
    /// A new claim token, so that the previous holder's reports are refused.
    pub bump_claim_token: bool,
    pub outputs: Option<TranscriptOutputs>,
}

/// Where a completed file's transcript is.
#[derive(Debug, Clone)]
pub struct TranscriptOutputs {
    pub transcript_path: String,
    pub markdown_path: String,
    pub segments_path: String,
    pub processing_time_ms: u64,
}

/// The transcription service's tables.
#[derive(Clone)]
pub struct TranscriptionStore {
    db: DatabaseConnection,
}

fn to_i32(value: u32) -> i32 {
    i32::try_from(value).unwrap_or(i32::MAX)
}

fn to_u32(value: i32) -> u32 {
    u32::try_from(value).unwrap_or(0)
}

fn file_from_row(row: transcription_file::Model) -> Result<TranscriptionFile, DbErr> {
    Ok(TranscriptionFile {
        status: row
            .status
            .parse()
            .map_err(|error: crate::domain::UnknownStatus| DbErr::Type(error.to_string()))?,
        row_id: row.id,
        job_id: row.job_id,
        file_id: row.file_id,
        user_id: row.user_id,
        youtube_video_id: row.youtube_video_id,
        title: row.title,
        mp3_path: row.mp3_path,
        progress: to_u32(row.progress),
        error_message: row.error_message,
        retry_count: to_u32(row.retry_count),
        max_retries: to_u32(row.max_retries),
        last_failed_at: row.last_failed_at,
        transcript_path: row.transcript_path,
        markdown_path: row.markdown_path,
        processing_time_ms: row.processing_time_ms.and_then(|ms| u64::try_from(ms).ok()),
        claim_token: row.claim_token,
        take_backs: to_u32(row.take_back_count),
        updated_at: row.updated_at,
    })
}

fn job_from_row(row: transcription_job::Model) -> TranscriptionJob {
    let window = match (row.window_start, row.window_end) {
        (Some(start), Some(end)) => Some(WindowSpec {
            start,
            end,
            timezone: row.timezone,
        }),
        _ => None,
    };
    TranscriptionJob {
        id: row.id,
        user_id: row.user_id,
        model: row.model,
        // Only the two formats are ever written; an unknown one reads as the default.
        output_format: OutputFormat::parse(&row.output_format).unwrap_or_default(),
        window,
        created_at: row.created_at,
    }
}

fn files_from_rows(rows: Vec<transcription_file::Model>) -> Result<Vec<TranscriptionFile>, DbErr> {
    rows.into_iter().map(file_from_row).collect()
}

fn statuses(states: &[FileStatus]) -> Vec<&'static str> {
    states.iter().map(|status| status.as_str()).collect()
}

impl TranscriptionStore {
    /// The store over `db`, with the service's migrations applied.
    ///
    /// # Errors
    /// Migration failure.
    pub async fn open(db: DatabaseConnection) -> Result<Self, DbErr> {
        Migrator::up(&db, None).await?;
        Ok(Self { db })
    }

    /// Inserts a job and its files in one transaction.
    ///
    /// # Errors
    /// Database failure (nothing is written then).
    pub async fn insert_job(
        &self,
        job: &TranscriptionJob,
        files: Vec<NewFile>,
    ) -> Result<Vec<TranscriptionFile>, DbErr> {
        let transaction = self.db.begin().await?;
        let (window_start, window_end, timezone) = match &job.window {
            Some(window) => (
                Some(window.start.clone()),
                Some(window.end.clone()),
                window.timezone.clone(),
            ),
            None => (None, None, "UTC".to_owned()),
        };
        transcription_job::ActiveModel {
            id: Set(job.id.clone()),
            user_id: Set(job.user_id.clone()),
            model: Set(job.model.clone()),
            output_format: Set(job.output_format.as_str().to_owned()),
            window_start: Set(window_start),
            window_end: Set(window_end),
            timezone: Set(timezone),
            created_at: Set(job.created_at),
        }
        .insert(&transaction)
        .await?;
        let mut rows = Vec::with_capacity(files.len());
        for file in files {
            let row = transcription_file::ActiveModel {
                id: Set(uuid::Uuid::now_v7().to_string()),
                job_id: Set(job.id.clone()),
                file_id: Set(file.file_id),
                user_id: Set(job.user_id.clone()),
                youtube_video_id: Set(file.youtube_video_id),
                title: Set(file.title),
                mp3_path: Set(file.mp3_path),
                status: Set(file.status.as_str().to_owned()),
                progress: Set(0),
                error_message: Set(None),
                retry_count: Set(0),
                max_retries: Set(to_i32(file.max_retries)),
                last_failed_at: Set(None),
                next_attempt_at: Set(None),
                transcript_path: Set(None),
                markdown_path: Set(None),
                segments_path: Set(None),
                processing_time_ms: Set(None),
                claim_token: Set(0),
                heartbeat_at: Set(None),
                take_back_count: Set(0),
                created_at: Set(job.created_at),
                updated_at: Set(job.created_at),
            }
            .insert(&transaction)
            .await?;
            rows.push(row);
        }
        transaction.commit().await?;
        files_from_rows(rows)
    }

    /// The caller's file, by the client's ids.
    ///
    /// # Errors
    /// Database failure.
    pub async fn file(
        &self,
        user_id: &str,
        job_id: &str,
        file_id: &str,
    ) -> Result<Option<TranscriptionFile>, DbErr> {
        FileEntity::find()
            .filter(FileColumn::UserId.eq(user_id))
            .filter(FileColumn::JobId.eq(job_id))
            .filter(FileColumn::FileId.eq(file_id))
            .one(&self.db)
            .await?
            .map(file_from_row)
            .transpose()
    }

    /// The caller's job.
    ///
    /// # Errors
    /// Database failure.
    pub async fn job(
        &self,
        user_id: &str,
        job_id: &str,
    ) -> Result<Option<TranscriptionJob>, DbErr> {
        Ok(JobEntity::find_by_id(job_id.to_owned())
            .filter(transcription_job::Column::UserId.eq(user_id))
            .one(&self.db)
            .await?
            .map(job_from_row))
    }

    /// The job a file belongs to (sweeps act for every user, so they ask by file).
    ///
    /// # Errors
    /// Database failure.
    pub async fn job_of(
        &self,
        file: &TranscriptionFile,
    ) -> Result<Option<TranscriptionJob>, DbErr> {
        self.job(&file.user_id, &file.job_id).await
    }

    /// The files of the caller's job, in the order they were submitted.
    ///
    /// # Errors
    /// Database failure.
    pub async fn files_of_job(
        &self,
        user_id: &str,
        job_id: &str,
    ) -> Result<Vec<TranscriptionFile>, DbErr> {
        files_from_rows(
            FileEntity::find()
                .filter(FileColumn::JobId.eq(job_id))
                .filter(FileColumn::UserId.eq(user_id))
                .order_by_asc(FileColumn::CreatedAt)
                .order_by_asc(FileColumn::Id)
                .all(&self.db)
                .await?,
        )
    }

    /// Every file in one of `states`, for every user.
    ///
    /// # Errors
    /// Database failure.
    pub async fn files_in(&self, states: &[FileStatus]) -> Result<Vec<TranscriptionFile>, DbErr> {
        files_from_rows(
            FileEntity::find()
                .filter(FileColumn::Status.is_in(statuses(states)))
                .all(&self.db)
                .await?,
        )
    }

    /// Every user with files waiting for a worker, with their share of the queue.
    ///
    /// # Errors
    /// Database failure.
    pub async fn queue_shares(&self) -> Result<Vec<QueueShare>, DbErr> {
        let waiting = statuses(FileTransition::Claim.sources());
        let waiting_users = FileEntity::find()
            .select_only()
            .column(FileColumn::UserId)
            .distinct()
            .filter(FileColumn::Status.is_in(waiting.clone()))
            .into_tuple::<String>()
            .all(&self.db)
            .await?;
        if waiting_users.is_empty() {
            return Ok(Vec::new());
        }
        let rows = FileEntity::find()
            .select_only()
            .column(FileColumn::UserId)
            .column(FileColumn::Status)
            .column_as(Expr::col(FileColumn::Id).count(), "files")
            .column_as(Expr::col(FileColumn::HeartbeatAt).max(), "served")
            .filter(FileColumn::UserId.is_in(waiting_users))
            .group_by(FileColumn::UserId)
            .group_by(FileColumn::Status)
            .into_tuple::<(String, String, i64, Option<DateTime<Utc>>)>()
            .all(&self.db)
            .await?;
        Ok(shares_from(rows.into_iter().map(
            |(user_id, status, files, served)| {
                let standing = if waiting.contains(&status.as_str()) {
                    Standing::Waiting
                } else if status == FileStatus::Transcribing.as_str() {
                    Standing::Running
                } else {
                    Standing::Other
                };
                (user_id, standing, u64::try_from(files).unwrap_or(0), served)
            },
        )))
    }

    /// The user's longest-waiting file, if any waits.
    ///
    /// # Errors
    /// Database failure.
    pub async fn oldest_waiting_file(
        &self,
        user_id: &str,
    ) -> Result<Option<TranscriptionFile>, DbErr> {
        FileEntity::find()
            .filter(FileColumn::UserId.eq(user_id))
            .filter(FileColumn::Status.is_in(statuses(FileTransition::Claim.sources())))
            .order_by_asc(FileColumn::CreatedAt)
            .order_by_asc(FileColumn::Id)
            .one(&self.db)
            .await?
            .map(file_from_row)
            .transpose()
    }

    /// How many of the user's files are in one of `states`.
    ///
    /// # Errors
    /// Database failure.
    pub async fn count_files_in(&self, user_id: &str, states: &[FileStatus]) -> Result<u64, DbErr> {
        FileEntity::find()
            .filter(FileColumn::UserId.eq(user_id))
            .filter(FileColumn::Status.is_in(statuses(states)))
            .count(&self.db)
            .await
    }

    /// Deletes the user's files and jobs in one transaction. Answers the files as they were
    /// when deleted (read by the delete itself, so a claim just before it shows as
    /// `transcribing`) and how many rows went.
    ///
    /// # Errors
    /// Database failure or an unreadable row (nothing is deleted then).
    pub async fn delete_user(&self, user_id: &str) -> Result<(Vec<TranscriptionFile>, u64), DbErr> {
        let transaction = self.db.begin().await?;
        let files = files_from_rows(
            FileEntity::delete_many()
                .filter(FileColumn::UserId.eq(user_id))
                .exec_with_returning(&transaction)
                .await?,
        )?;
        let jobs = JobEntity::delete_many()
            .filter(transcription_job::Column::UserId.eq(user_id))
            .exec(&transaction)
            .await?;
        transaction.commit().await?;
        let rows = u64::try_from(files.len()).unwrap_or(u64::MAX) + jobs.rows_affected;
        Ok((files, rows))
    }

    /// Files in error whose automatic retry is due.
    ///
    /// # Errors
    /// Database failure.
    pub async fn due_retries(&self, now: DateTime<Utc>) -> Result<Vec<TranscriptionFile>, DbErr> {
        files_from_rows(
            FileEntity::find()
                .filter(FileColumn::Status.eq(FileStatus::Error.as_str()))
                .filter(FileColumn::NextAttemptAt.lte(now))
                .all(&self.db)
                .await?,
        )
    }

    /// Transcribing files whose worker has not reported since `stale_before`.
    ///
    /// # Errors
    /// Database failure.
    pub async fn silent_files(
        &self,
        stale_before: DateTime<Utc>,
    ) -> Result<Vec<TranscriptionFile>, DbErr> {
        files_from_rows(
            FileEntity::find()
                .filter(FileColumn::Status.eq(FileStatus::Transcribing.as_str()))
                .filter(FileColumn::HeartbeatAt.lt(stale_before))
                .all(&self.db)
                .await?,
        )
    }

    /// Files completed since `since`.
    ///
    /// # Errors
    /// Database failure.
    pub async fn completed_since(
        &self,
        since: DateTime<Utc>,
    ) -> Result<Vec<TranscriptionFile>, DbErr> {
        files_from_rows(
            FileEntity::find()
                .filter(FileColumn::Status.eq(FileStatus::Completed.as_str()))
                .filter(FileColumn::UpdatedAt.gte(since))
                .all(&self.db)
                .await?,
        )
    }

    /// Applies `transition` to the file if it is still in one of the transition's source states
    /// (and `guard` holds). Returns whether it did.
    ///
    /// # Errors
    /// Database failure.
    pub async fn transition(
        &self,
        row_id: &str,
        transition: FileTransition,
        guard: Guard,
        update: FileUpdate,
    ) -> Result<bool, DbErr> {
        let mut condition =
            Condition::all().add(FileColumn::Status.is_in(statuses(transition.sources())));
        if let Guard::ClaimToken(token) = guard {
            condition = condition.add(FileColumn::ClaimToken.eq(token));
        }
        self.update(row_id, transition.target(), condition, update)
            .await
    }

    /// A worker's claim: a waiting file, or one whose worker has been silent since
    /// `stale_before`, becomes `transcribing` under a new claim token. Returns whether it did.
    ///
    /// # Errors
    /// Database failure.
    pub async fn claim(
        &self,
        row_id: &str,
        stale_before: DateTime<Utc>,
        now: DateTime<Utc>,
    ) -> Result<bool, DbErr> {
        let claimable = Condition::any()
            .add(FileColumn::Status.is_in(statuses(FileTransition::Claim.sources())))
            .add(
                Condition::all()
                    .add(FileColumn::Status.is_in(statuses(FileTransition::TakeOver.sources())))
                    .add(FileColumn::HeartbeatAt.lt(stale_before)),
            );
        let update = FileUpdate {
            progress: Some(0),
            heartbeat_at: Some(now),
            bump_claim_token: true,
            ..FileUpdate::default()
        };
        self.update(
            row_id,
            FileTransition::Claim.target(),
            Condition::all().add(claimable),
            update,
        )
        .await
    }

    async fn update(
        &self,
        row_id: &str,
        status: FileStatus,
        condition: Condition,
        update: FileUpdate,
    ) -> Result<bool, DbErr> {
        let mut query = FileEntity::update_many()
            .col_expr(FileColumn::Status, Expr::value(status.as_str()))
            .col_expr(FileColumn::UpdatedAt, Expr::value(Utc::now()));
        if let Some(progress) = update.progress {
            query = query.col_expr(FileColumn::Progress, Expr::value(to_i32(progress)));
        }
        if let Some(message) = update.error_message {
            query = query.col_expr(FileColumn::ErrorMessage, Expr::value(message));
        }
        if let Some(at) = update.next_attempt_at {
            query = query.col_expr(FileColumn::NextAttemptAt, Expr::value(at));
        }
        if let Some(count) = update.retry_count {
            query = query.col_expr(FileColumn::RetryCount, Expr::value(to_i32(count)));
        }
        if let Some(at) = update.last_failed_at {
            query = query.col_expr(FileColumn::LastFailedAt, Expr::value(Some(at)));
        }
        if let Some(at) = update.heartbeat_at {
            query = query.col_expr(FileColumn::HeartbeatAt, Expr::value(Some(at)));
        }
        if let Some(count) = update.take_backs {
            query = query.col_expr(FileColumn::TakeBackCount, Expr::value(to_i32(count)));
        }
        if update.bump_claim_token {
            query = query.col_expr(
                FileColumn::ClaimToken,
                Expr::col(FileColumn::ClaimToken).add(1),
            );
        }
        if let Some(outputs) = update.outputs {
            query = query
                .col_expr(
                    FileColumn::TranscriptPath,
                    Expr::value(Some(outputs.transcript_path)),
                )
                .col_expr(
                    FileColumn::MarkdownPath,
                    Expr::value(Some(outputs.markdown_path)),
                )
                .col_expr(
                    FileColumn::SegmentsPath,
                    Expr::value(Some(outputs.segments_path)),
                )
                .col_expr(
                    FileColumn::ProcessingTimeMs,
                    Expr::value(Some(
                        i64::try_from(outputs.processing_time_ms).unwrap_or(i64::MAX),
                    )),
                );
        }
        let result = query
            .filter(FileColumn::Id.eq(row_id))
            .filter(condition)
            .exec(&self.db)
            .await?;
        Ok(result.rows_affected == 1)
    }
}
