//! The queries of the queue forecast: every queued file of the instance with its job, the
//! recent completed files the machine's speed is learned from, and each user's last service.

use std::collections::HashMap;

use chrono::{DateTime, Utc};
use sea_orm::sea_query::{Expr, ExprTrait as _};
use sea_orm::{
    ColumnTrait as _, Condition, DbErr, EntityTrait as _, QueryFilter as _, QueryOrder as _,
    QuerySelect as _,
};

use crate::domain::{FileStatus, TranscriptionFile, TranscriptionJob};
use crate::entity::transcription_file::{Column as FileColumn, Entity as FileEntity};
use crate::entity::transcription_job::{self, Entity as JobEntity};

use super::{TranscriptionStore, files_from_rows, job_from_row, statuses};

impl TranscriptionStore {
    /// Every file of the instance that is running, waiting for a worker or its window, or in
    /// error with an automatic retry planned, for every user.
    ///
    /// # Errors
    /// Database failure.
    pub async fn queued_files(&self) -> Result<Vec<TranscriptionFile>, DbErr> {
        let waiting = statuses(&FileStatus::WAITING);
        let retry_planned = Condition::all()
            .add(FileColumn::Status.eq(FileStatus::Error.as_str()))
            .add(FileColumn::NextAttemptAt.is_not_null());
        files_from_rows(
            FileEntity::find()
                .filter(
                    Condition::any()
                        .add(FileColumn::Status.is_in(waiting))
                        .add(retry_planned),
                )
                .order_by_asc(FileColumn::CreatedAt)
                .order_by_asc(FileColumn::Id)
                .all(&self.db)
                .await?,
        )
    }

    /// The newest `limit` completed files whose wall time and audio length are known, newest
    /// first.
    ///
    /// # Errors
    /// Database failure.
    pub async fn recent_completions(&self, limit: u64) -> Result<Vec<TranscriptionFile>, DbErr> {
        files_from_rows(
            FileEntity::find()
                .filter(FileColumn::Status.eq(FileStatus::Completed.as_str()))
                .filter(FileColumn::ProcessingTimeMs.is_not_null())
                .filter(FileColumn::AudioSeconds.is_not_null())
                .order_by_desc(FileColumn::UpdatedAt)
                .order_by_desc(FileColumn::Id)
                .limit(limit)
                .all(&self.db)
                .await?,
        )
    }

    /// The jobs with these ids, whoever owns them (the forecast reads every user's queue).
    ///
    /// # Errors
    /// Database failure.
    pub async fn jobs_by_id(
        &self,
        ids: Vec<String>,
    ) -> Result<HashMap<String, TranscriptionJob>, DbErr> {
        if ids.is_empty() {
            return Ok(HashMap::new());
        }
        Ok(JobEntity::find()
            .filter(transcription_job::Column::Id.is_in(ids))
            .all(&self.db)
            .await?
            .into_iter()
            .map(|row| (row.id.clone(), job_from_row(row)))
            .collect())
    }

    /// Each of these users' last worker heartbeat: when a worker last served them, as the
    /// claims' turn-taking reads it.
    ///
    /// # Errors
    /// Database failure.
    pub async fn last_served(
        &self,
        user_ids: Vec<String>,
    ) -> Result<HashMap<String, DateTime<Utc>>, DbErr> {
        if user_ids.is_empty() {
            return Ok(HashMap::new());
        }
        let rows = FileEntity::find()
            .select_only()
            .column(FileColumn::UserId)
            .column_as(Expr::col(FileColumn::HeartbeatAt).max(), "served")
            .filter(FileColumn::UserId.is_in(user_ids))
            .group_by(FileColumn::UserId)
            .into_tuple::<(String, Option<DateTime<Utc>>)>()
            .all(&self.db)
            .await?;
        Ok(rows
            .into_iter()
            .filter_map(|(user, served)| served.map(|at| (user, at)))
            .collect())
    }
}
