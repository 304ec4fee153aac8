//! Every query of the transcription service. Rows go in and come out as domain types; a state
//! change is one conditional update guarded by the transition's source states, so concurrent
//! replicas and late workers cannot overwrite each other. The jobs' queries are here, the files'
//! in `files.rs`.

mod files;
mod preferences;
mod queue;

use sea_orm::{
    ActiveModelTrait as _, ColumnTrait as _, DatabaseConnection, DbErr, EntityTrait as _,
    QueryFilter as _, Set, TransactionTrait as _,
};
use sea_orm_migration::MigratorTrait as _;

use crate::domain::{
    FileStatus, LanguageChoice, OutputFormat, TranscriptionFile, TranscriptionJob, WindowSpec,
};
use crate::entity::transcription_file::{self, Column as FileColumn, Entity as FileEntity};
use crate::entity::transcription_job::{self, Entity as JobEntity};
use crate::migration::Migrator;

pub use files::{FileUpdate, Guard, TranscriptOutputs};

/// A file to insert with its job.
#[derive(Debug, Clone)]
pub struct NewFile {
    pub file_id: String,
    pub youtube_video_id: String,
    pub title: String,
    pub mp3_path: String,
    pub status: FileStatus,
    pub max_retries: u32,
    /// How long the audio plays, as measured at intake.
    pub audio_seconds: Option<f64>,
    /// No Vault item is made from the transcript.
    pub skip_vault: bool,
    /// The Vault item whose transcript this one replaces.
    pub replaces_item: Option<String>,
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
        audio_seconds: row.audio_seconds,
        next_attempt_at: row.next_attempt_at,
        created_at: row.created_at,
        claim_token: row.claim_token,
        take_backs: to_u32(row.take_back_count),
        skip_vault: row.skip_vault,
        replaces_item: row.replaces_item,
        language: row.language,
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
        // Only checked languages are written; one this build no longer knows is detected.
        language: row
            .language
            .map(|language| language.parse().unwrap_or(LanguageChoice::Auto)),
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
            language: Set(job.language.map(|language| language.as_str().to_owned())),
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
                audio_seconds: Set(file.audio_seconds),
                claim_token: Set(0),
                heartbeat_at: Set(None),
                take_back_count: Set(0),
                skip_vault: Set(file.skip_vault),
                replaces_item: Set(file.replaces_item),
                language: Set(None),
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

    /// Deletes the user's files, jobs and defaults in one transaction. Answers the files as
    /// they were when deleted (read by the delete itself, so a claim just before it shows as
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
        let preferences = preferences::delete_preferences(&transaction, user_id).await?;
        transaction.commit().await?;
        let rows =
            u64::try_from(files.len()).unwrap_or(u64::MAX) + jobs.rows_affected + preferences;
        Ok((files, rows))
    }
}
