//! Download jobs and their videos. Every change of a job's state is a [`DownloadTransition`],
//! written as one conditional update guarded by the transition's source states; every write of
//! a job's runner is also conditional on its claim token, so a runner that lost its job
//! (cancelled, taken over) changes nothing.

use std::collections::HashSet;

use chrono::{DateTime, Utc};
use sea_orm::sea_query::{Expr, ExprTrait as _, Func};
use sea_orm::{
    ColumnTrait as _, Condition, ConnectionTrait, DbErr, EntityTrait as _, PaginatorTrait as _,
    QueryFilter as _, QueryOrder as _, QuerySelect as _, Set, TransactionTrait as _,
};

use scribevault_core::fairness::{Standing, goes_before, shares_from, whose_turn};

use super::{DiscoveryStore, INSERT_CHUNK};
use crate::domain::downloads::{
    CANCELLED_BY_USER, CurrentDownload, DownloadJob, DownloadStatus, DownloadTransition, JobVideo,
    TranscribeAfter, VideoOutcome,
};
use crate::entity::{download_job, download_job_video, source_video};

fn count(value: i32) -> u32 {
    u32::try_from(value).unwrap_or(0)
}

fn signed(value: u32) -> i32 {
    i32::try_from(value).unwrap_or(i32::MAX)
}

fn job_from_row(row: download_job::Model) -> Result<DownloadJob, DbErr> {
    let status = DownloadStatus::parse(&row.status)
        .ok_or_else(|| DbErr::Type(format!("download job {}: status {}", row.id, row.status)))?;
    let current = match (row.current_video_id, status) {
        (Some(video_id), DownloadStatus::Processing) => Some(CurrentDownload {
            video_id,
            title: row.current_video_title.unwrap_or_default(),
            percent: count(row.current_percent),
        }),
        _ => None,
    };
    Ok(DownloadJob {
        id: row.id,
        user_id: row.user_id,
        source_id: row.source_id,
        source_title: row.source_title,
        status,
        total_videos: count(row.total_videos),
        processed_videos: count(row.processed_videos),
        failed_videos: count(row.failed_videos),
        error_message: row.error_message,
        transcribe: row.transcribe.then_some(TranscribeAfter {
            model: row.model,
            output_format: row.output_format,
        }),
        use_captions: row.use_captions,
        current,
        started_at: row.started_at,
        completed_at: row.completed_at,
        created_at: row.created_at,
    })
}

fn video_from_row(row: download_job_video::Model) -> Result<JobVideo, DbErr> {
    Ok(JobVideo {
        position: count(row.position),
        outcome: VideoOutcome::parse(&row.outcome)
            .ok_or_else(|| DbErr::Type(format!("job video outcome {}", row.outcome)))?,
        video_id: row.video_id,
        title: row.title,
        reason: row.reason,
    })
}

/// What a cancel found.
pub enum Cancelled {
    Now(Box<DownloadJob>),
    AlreadyEnded,
    NotFound,
}

/// An extra condition on a transition besides the source states.
#[derive(Debug, Clone, Copy)]
pub enum JobGuard<'a> {
    /// Only the runner holding this claim token may make the change.
    Runner(&'a str),
    /// Only a job of this user that no retry has replaced.
    Owner(&'a str),
}

impl JobGuard<'_> {
    fn condition(self) -> Condition {
        match self {
            Self::Runner(token) => Condition::all().add(download_job::Column::ClaimToken.eq(token)),
            Self::Owner(user_id) => Condition::all()
                .add(download_job::Column::UserId.eq(user_id))
                .add(download_job::Column::SupersededBy.is_null()),
        }
    }
}

/// Columns a transition sets besides the status. `None` leaves a column as it is; a
/// transition that [ends the run](DownloadTransition::ends_run) also clears the runner's
/// claim token and current video.
#[derive(Debug, Clone, Default)]
pub struct JobUpdate {
    /// A claim: the new runner's token.
    pub claim_token: Option<String>,
    pub heartbeat_at: Option<DateTime<Utc>>,
    /// The video the runner is on (`Some(None)`: between videos).
    pub current: Option<Option<CurrentDownload>>,
    /// One more video tried, with what became of it.
    pub tried: Option<VideoOutcome>,
    pub error_message: Option<String>,
    /// Kept when the job has already started (a take-over).
    pub started_at: Option<DateTime<Utc>>,
    pub completed_at: Option<DateTime<Utc>>,
    /// The job a retry replaced this one with.
    pub superseded_by: Option<String>,
}

fn statuses(states: &[DownloadStatus]) -> Vec<&'static str> {
    states.iter().map(|status| status.as_str()).collect()
}

/// A running job whose runner has been quiet since `stale_before` (or never beat).
fn quiet_since(stale_before: DateTime<Utc>) -> Condition {
    Condition::all()
        .add(download_job::Column::Status.is_in(statuses(DownloadTransition::TakeOver.sources())))
        .add(
            Condition::any()
                .add(download_job::Column::HeartbeatAt.is_null())
                .add(download_job::Column::HeartbeatAt.lt(stale_before)),
        )
}

/// Applies `transition` to the job if it is still in one of the transition's source states
/// (and `guard` holds), on `db` (the store's connection or a transaction). Returns whether it
/// did.
async fn transition<C: ConnectionTrait>(
    db: &C,
    id: &str,
    transition: DownloadTransition,
    guard: JobGuard<'_>,
    update: JobUpdate,
) -> Result<bool, DbErr> {
    let condition = Condition::all()
        .add(download_job::Column::Status.is_in(statuses(transition.sources())))
        .add(guard.condition());
    write(db, id, transition, condition, update).await
}

async fn write<C: ConnectionTrait>(
    db: &C,
    id: &str,
    transition: DownloadTransition,
    condition: Condition,
    update: JobUpdate,
) -> Result<bool, DbErr> {
    use download_job::Column;
    let mut query = download_job::Entity::update_many()
        .col_expr(Column::Status, Expr::value(transition.target().as_str()));
    if transition.ends_run() {
        query = query
            .col_expr(Column::ClaimToken, Expr::value(None::<String>))
            .col_expr(Column::CurrentVideoId, Expr::value(None::<String>))
            .col_expr(Column::CurrentPercent, Expr::value(0));
    }
    if let Some(token) = update.claim_token {
        query = query.col_expr(Column::ClaimToken, Expr::value(token));
    }
    if let Some(at) = update.heartbeat_at {
        query = query.col_expr(Column::HeartbeatAt, Expr::value(at));
    }
    if let Some(current) = update.current {
        query = query
            .col_expr(
                Column::CurrentPercent,
                Expr::value(current.as_ref().map_or(0, |video| signed(video.percent))),
            )
            .col_expr(
                Column::CurrentVideoTitle,
                Expr::value(current.as_ref().map(|video| video.title.clone())),
            )
            .col_expr(
                Column::CurrentVideoId,
                Expr::value(current.map(|video| video.video_id)),
            );
    }
    if let Some(outcome) = update.tried {
        let failed = i32::from(outcome == VideoOutcome::Failed);
        query = query
            .col_expr(
                Column::ProcessedVideos,
                Expr::col(Column::ProcessedVideos).add(1),
            )
            .col_expr(
                Column::FailedVideos,
                Expr::col(Column::FailedVideos).add(failed),
            );
    }
    if let Some(message) = update.error_message {
        query = query.col_expr(Column::ErrorMessage, Expr::value(message));
    }
    if let Some(at) = update.started_at {
        query = query.col_expr(
            Column::StartedAt,
            Func::coalesce([Expr::col(Column::StartedAt), Expr::value(at)]).into(),
        );
    }
    if let Some(at) = update.completed_at {
        query = query.col_expr(Column::CompletedAt, Expr::value(at));
    }
    if let Some(job) = update.superseded_by {
        query = query.col_expr(Column::SupersededBy, Expr::value(job));
    }
    let result = query
        .filter(Column::Id.eq(id))
        .filter(condition)
        .exec(db)
        .await?;
    Ok(result.rows_affected == 1)
}

impl DiscoveryStore {
    /// Which of `video_ids` are videos of the source.
    ///
    /// # Errors
    /// Database failure.
    pub async fn videos_of_source(
        &self,
        source_id: &str,
        video_ids: &[String],
    ) -> Result<HashSet<String>, DbErr> {
        let mut found = HashSet::new();
        for chunk in video_ids.chunks(INSERT_CHUNK) {
            let rows = source_video::Entity::find()
                .filter(source_video::Column::SourceId.eq(source_id))
                .filter(source_video::Column::VideoId.is_in(chunk.iter().cloned()))
                .all(&self.db)
                .await?;
            found.extend(rows.into_iter().map(|row| row.video_id));
        }
        Ok(found)
    }

    /// Records a new job with its videos; when `supersedes` names a failed job, that job is
    /// marked as replaced in the same transaction (and `false` comes back, with nothing
    /// written, if it was already replaced or is not failed).
    ///
    /// # Errors
    /// Database failure.
    pub async fn insert_download_job(
        &self,
        job: &DownloadJob,
        videos: &[JobVideo],
        supersedes: Option<&str>,
    ) -> Result<bool, DbErr> {
        let transaction = self.db.begin().await?;
        if let Some(old) = supersedes {
            let replaced = transition(
                &transaction,
                old,
                DownloadTransition::Supersede,
                JobGuard::Owner(&job.user_id),
                JobUpdate {
                    superseded_by: Some(job.id.clone()),
                    ..JobUpdate::default()
                },
            )
            .await?;
            if !replaced {
                transaction.rollback().await?;
                return Ok(false);
            }
        }
        let (transcribe, model, output_format) = job
            .transcribe
            .as_ref()
            .map_or((false, String::new(), String::new()), |how| {
                (true, how.model.clone(), how.output_format.clone())
            });
        download_job::Entity::insert(download_job::ActiveModel {
            id: Set(job.id.clone()),
            user_id: Set(job.user_id.clone()),
            source_id: Set(job.source_id.clone()),
            source_title: Set(job.source_title.clone()),
            status: Set(job.status.as_str().to_owned()),
            total_videos: Set(signed(job.total_videos)),
            processed_videos: Set(0),
            failed_videos: Set(0),
            error_message: Set(None),
            transcribe: Set(transcribe),
            model: Set(model),
            output_format: Set(output_format),
            use_captions: Set(job.use_captions),
            claim_token: Set(None),
            heartbeat_at: Set(None),
            current_video_id: Set(None),
            current_video_title: Set(None),
            current_percent: Set(0),
            superseded_by: Set(None),
            started_at: Set(None),
            completed_at: Set(None),
            created_at: Set(job.created_at),
        })
        .exec_without_returning(&transaction)
        .await?;
        let rows: Vec<download_job_video::ActiveModel> = videos
            .iter()
            .map(|video| download_job_video::ActiveModel {
                job_id: Set(job.id.clone()),
                position: Set(signed(video.position)),
                video_id: Set(video.video_id.clone()),
                title: Set(video.title.clone()),
                outcome: Set(VideoOutcome::Pending.as_str().to_owned()),
                reason: Set(None),
                mp3_path: Set(None),
            })
            .collect();
        for chunk in rows.chunks(INSERT_CHUNK) {
            download_job_video::Entity::insert_many(chunk.to_vec())
                .exec_without_returning(&transaction)
                .await?;
        }
        transaction.commit().await?;
        Ok(true)
    }

    /// The user's jobs, newest first, without those a retry replaced.
    ///
    /// # Errors
    /// Database failure or an unreadable row.
    pub async fn download_jobs(&self, user_id: &str) -> Result<Vec<DownloadJob>, DbErr> {
        download_job::Entity::find()
            .filter(download_job::Column::UserId.eq(user_id))
            .filter(download_job::Column::SupersededBy.is_null())
            .order_by_desc(download_job::Column::CreatedAt)
            .order_by_desc(download_job::Column::Id)
            .all(&self.db)
            .await?
            .into_iter()
            .map(job_from_row)
            .collect()
    }

    /// How many of the user's jobs are not yet finished (pending or running).
    ///
    /// # Errors
    /// Database failure.
    pub async fn count_active_download_jobs(&self, user_id: &str) -> Result<u64, DbErr> {
        download_job::Entity::find()
            .filter(download_job::Column::UserId.eq(user_id))
            .filter(download_job::Column::Status.is_in([
                DownloadStatus::Pending.as_str(),
                DownloadStatus::Processing.as_str(),
            ]))
            .count(&self.db)
            .await
    }

    /// One of the user's jobs.
    ///
    /// # Errors
    /// Database failure or an unreadable row.
    pub async fn download_job(
        &self,
        user_id: &str,
        id: &str,
    ) -> Result<Option<DownloadJob>, DbErr> {
        download_job::Entity::find_by_id(id.to_owned())
            .filter(download_job::Column::UserId.eq(user_id))
            .one(&self.db)
            .await?
            .map(job_from_row)
            .transpose()
    }

    /// A job's videos in order.
    ///
    /// # Errors
    /// Database failure or an unreadable row.
    pub async fn job_videos(&self, job_id: &str) -> Result<Vec<JobVideo>, DbErr> {
        download_job_video::Entity::find()
            .filter(download_job_video::Column::JobId.eq(job_id))
            .order_by_asc(download_job_video::Column::Position)
            .all(&self.db)
            .await?
            .into_iter()
            .map(video_from_row)
            .collect()
    }

    /// The oldest pending job of the user whose turn it is, when that user goes before
    /// `owner` ([`goes_before`]): `(user, job)`. Jobs superseded by a retry do not wait.
    ///
    /// # Errors
    /// Database failure.
    pub async fn download_turn_before(
        &self,
        owner: &str,
    ) -> Result<Option<(String, String)>, DbErr> {
        let waiting = || {
            Condition::all()
                .add(download_job::Column::Status.eq(DownloadStatus::Pending.as_str()))
                .add(download_job::Column::SupersededBy.is_null())
        };
        let mut users = download_job::Entity::find()
            .select_only()
            .column(download_job::Column::UserId)
            .distinct()
            .filter(waiting())
            .into_tuple::<String>()
            .all(&self.db)
            .await?;
        if !users.iter().any(|user| user != owner) {
            return Ok(None);
        }
        users.push(owner.to_owned());
        let rows = download_job::Entity::find()
            .select_only()
            .column(download_job::Column::UserId)
            .column(download_job::Column::Status)
            .column_as(Expr::col(download_job::Column::Id).count(), "jobs")
            .column_as(Expr::col(download_job::Column::StartedAt).max(), "served")
            .filter(download_job::Column::UserId.is_in(users))
            .filter(download_job::Column::SupersededBy.is_null())
            .group_by(download_job::Column::UserId)
            .group_by(download_job::Column::Status)
            .into_tuple::<(String, String, i64, Option<DateTime<Utc>>)>()
            .all(&self.db)
            .await?;
        let shares = shares_from(rows.into_iter().map(|(user_id, status, jobs, served)| {
            let standing = if status == DownloadStatus::Pending.as_str() {
                Standing::Waiting
            } else if status == DownloadStatus::Processing.as_str() {
                Standing::Running
            } else {
                Standing::Other
            };
            (user_id, standing, u64::try_from(jobs).unwrap_or(0), served)
        }));
        let Some(turn) = whose_turn(&shares) else {
            return Ok(None);
        };
        let before = shares
            .iter()
            .find(|share| share.user_id == owner)
            .is_none_or(|owner| goes_before(turn, owner));
        if turn.user_id == owner || !before {
            return Ok(None);
        }
        let job = download_job::Entity::find()
            .select_only()
            .column(download_job::Column::Id)
            .filter(waiting())
            .filter(download_job::Column::UserId.eq(turn.user_id.as_str()))
            .order_by_asc(download_job::Column::CreatedAt)
            .order_by_asc(download_job::Column::Id)
            .into_tuple::<String>()
            .one(&self.db)
            .await?;
        Ok(job.map(|job| (turn.user_id.clone(), job)))
    }

    /// Takes the job for a runner: a pending job, or a running one whose runner has been quiet
    /// since `stale_before` (its process died). Videos left half-done start again.
    ///
    /// # Errors
    /// Database failure.
    pub async fn claim_download_job(
        &self,
        user_id: &str,
        id: &str,
        token: &str,
        now: DateTime<Utc>,
        stale_before: DateTime<Utc>,
    ) -> Result<Option<DownloadJob>, DbErr> {
        let claimable = Condition::any()
            .add(download_job::Column::Status.is_in(statuses(DownloadTransition::Claim.sources())))
            .add(quiet_since(stale_before));
        let claimed = write(
            &self.db,
            id,
            DownloadTransition::Claim,
            Condition::all()
                .add(claimable)
                .add(JobGuard::Owner(user_id).condition()),
            JobUpdate {
                claim_token: Some(token.to_owned()),
                heartbeat_at: Some(now),
                started_at: Some(now),
                ..JobUpdate::default()
            },
        )
        .await?;
        if !claimed {
            return Ok(None);
        }
        self.download_job(user_id, id).await
    }

    /// Applies `transition` to the job if it is still in one of the transition's source states
    /// (and `guard` holds). Returns whether it did: `false` tells a runner the job is no
    /// longer its own (cancelled or taken over).
    ///
    /// # Errors
    /// Database failure.
    pub async fn transition(
        &self,
        id: &str,
        transition: DownloadTransition,
        guard: JobGuard<'_>,
        update: JobUpdate,
    ) -> Result<bool, DbErr> {
        self::transition(&self.db, id, transition, guard, update).await
    }

    /// Records what became of one video and counts it; `false` (and nothing written) when the
    /// runner no longer holds the job.
    ///
    /// # Errors
    /// Database failure.
    pub async fn record_video_outcome(
        &self,
        id: &str,
        token: &str,
        position: u32,
        outcome: VideoOutcome,
        reason: Option<&str>,
        mp3_path: Option<&str>,
    ) -> Result<bool, DbErr> {
        let transaction = self.db.begin().await?;
        let counted = transition(
            &transaction,
            id,
            DownloadTransition::Progress,
            JobGuard::Runner(token),
            JobUpdate {
                tried: Some(outcome),
                ..JobUpdate::default()
            },
        )
        .await?;
        let recorded = download_job_video::Entity::update_many()
            .col_expr(
                download_job_video::Column::Outcome,
                Expr::value(outcome.as_str()),
            )
            .col_expr(
                download_job_video::Column::Reason,
                Expr::value(reason.map(str::to_owned)),
            )
            .col_expr(
                download_job_video::Column::Mp3Path,
                Expr::value(mp3_path.map(str::to_owned)),
            )
            .filter(download_job_video::Column::JobId.eq(id))
            .filter(download_job_video::Column::Position.eq(signed(position)))
            .filter(download_job_video::Column::Outcome.eq(VideoOutcome::Pending.as_str()))
            .exec(&transaction)
            .await?;
        if !counted || recorded.rows_affected == 0 {
            transaction.rollback().await?;
            return Ok(false);
        }
        transaction.commit().await?;
        Ok(true)
    }

    /// Cancels one of the user's jobs if it has not ended.
    ///
    /// # Errors
    /// Database failure or an unreadable row.
    pub async fn cancel_download_job(
        &self,
        user_id: &str,
        id: &str,
        now: DateTime<Utc>,
    ) -> Result<Cancelled, DbErr> {
        let cancelled = self
            .transition(
                id,
                DownloadTransition::Cancel,
                JobGuard::Owner(user_id),
                JobUpdate {
                    error_message: Some(CANCELLED_BY_USER.to_owned()),
                    completed_at: Some(now),
                    ..JobUpdate::default()
                },
            )
            .await?;
        Ok(match self.download_job(user_id, id).await? {
            Some(job) if cancelled => Cancelled::Now(Box::new(job)),
            Some(_) => Cancelled::AlreadyEnded,
            None => Cancelled::NotFound,
        })
    }

    /// Jobs a runner should pick up: pending ones, and running ones whose runner has been
    /// quiet since `stale_before`; (user, job) pairs, oldest first.
    ///
    /// # Errors
    /// Database failure.
    pub async fn unattended_download_jobs(
        &self,
        stale_before: DateTime<Utc>,
        include_pending: bool,
    ) -> Result<Vec<(String, String)>, DbErr> {
        let mut waiting = Condition::any().add(quiet_since(stale_before));
        if include_pending {
            waiting = waiting.add(
                download_job::Column::Status.is_in(statuses(DownloadTransition::Claim.sources())),
            );
        }
        Ok(download_job::Entity::find()
            .filter(download_job::Column::SupersededBy.is_null())
            .filter(waiting)
            .order_by_asc(download_job::Column::CreatedAt)
            .all(&self.db)
            .await?
            .into_iter()
            .map(|row| (row.user_id, row.id))
            .collect())
    }
}
