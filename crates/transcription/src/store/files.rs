//! The file queries: reads, the queue's shares, and every state change as one conditional
//! update guarded by its transition's source states.

use chrono::{DateTime, Utc};
use scribevault_core::fairness::{Standing, shares_from};
use sea_orm::sea_query::{Expr, ExprTrait as _};
use sea_orm::{
    ColumnTrait as _, Condition, DbErr, EntityTrait as _, PaginatorTrait as _, QueryFilter as _,
    QueryOrder as _, QuerySelect as _,
};

use crate::domain::{FileStatus, FileTransition, QueueShare, TranscriptionFile};
use crate::entity::transcription_file::{Column as FileColumn, Entity as FileEntity};

use super::{TranscriptionStore, file_from_row, files_from_rows, statuses, to_i32};

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
    /// The length the worker decoded, when it reported one (it replaces the intake estimate).
    pub audio_seconds: Option<f64>,
    /// The transcript's language, when known.
    pub language: Option<String>,
}

impl TranscriptionStore {
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
        if let Some(seconds) = update
            .outputs
            .as_ref()
            .and_then(|outputs| outputs.audio_seconds)
        {
            query = query.col_expr(FileColumn::AudioSeconds, Expr::value(Some(seconds)));
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
                )
                .col_expr(FileColumn::Language, Expr::value(outputs.language));
        }
        let result = query
            .filter(FileColumn::Id.eq(row_id))
            .filter(condition)
            .exec(&self.db)
            .await?;
        Ok(result.rows_affected == 1)
    }
}
