//! Everything of one user's, deleted at once (an administrator deleting the account).

use sea_orm::sea_query::Query;
use sea_orm::{ColumnTrait as _, DbErr, EntityTrait as _, QueryFilter as _, TransactionTrait as _};

use super::DiscoveryStore;
use crate::entity::{
    download_job, download_job_video, schedule, source, source_video, sync_preference,
    user_quota_spend,
};

impl DiscoveryStore {
    /// Deletes every row of the user's, in one transaction: their download jobs with their
    /// videos, schedules, sources with their videos, sync preferences and the units they spent.
    /// The channel and
    /// video cache and the quota ledger are shared and stay. A runner holding one of the jobs
    /// finds it gone at its next heartbeat and stops, as on a cancel. Answers how many rows
    /// went.
    ///
    /// # Errors
    /// Database failure (nothing is deleted then).
    pub async fn delete_user(&self, user_id: &str) -> Result<u64, DbErr> {
        let transaction = self.db.begin().await?;
        let jobs_of_user = Query::select()
            .column(download_job::Column::Id)
            .from(download_job::Entity)
            .and_where(download_job::Column::UserId.eq(user_id))
            .to_owned();
        let sources_of_user = Query::select()
            .column(source::Column::Id)
            .from(source::Entity)
            .and_where(source::Column::UserId.eq(user_id))
            .to_owned();
        let job_videos = download_job_video::Entity::delete_many()
            .filter(download_job_video::Column::JobId.in_subquery(jobs_of_user))
            .exec(&transaction)
            .await?;
        let jobs = download_job::Entity::delete_many()
            .filter(download_job::Column::UserId.eq(user_id))
            .exec(&transaction)
            .await?;
        let schedules = schedule::Entity::delete_many()
            .filter(schedule::Column::UserId.eq(user_id))
            .exec(&transaction)
            .await?;
        let source_videos = source_video::Entity::delete_many()
            .filter(source_video::Column::SourceId.in_subquery(sources_of_user))
            .exec(&transaction)
            .await?;
        let sources = source::Entity::delete_many()
            .filter(source::Column::UserId.eq(user_id))
            .exec(&transaction)
            .await?;
        let preferences = sync_preference::Entity::delete_many()
            .filter(sync_preference::Column::UserId.eq(user_id))
            .exec(&transaction)
            .await?;
        let spent = user_quota_spend::Entity::delete_many()
            .filter(user_quota_spend::Column::UserId.eq(user_id))
            .exec(&transaction)
            .await?;
        transaction.commit().await?;
        Ok([
            job_videos,
            jobs,
            schedules,
            source_videos,
            sources,
            preferences,
            spent,
        ]
        .iter()
        .map(|deleted| deleted.rows_affected)
        .sum())
    }
}
