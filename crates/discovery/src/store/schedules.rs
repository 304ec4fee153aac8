//! Schedules. A due schedule is claimed by moving its `next_run_at` on with a conditional
//! update, so of several replicas exactly one runs it; on PostgreSQL the due rows are also
//! locked `FOR UPDATE SKIP LOCKED`, so replicas share the due schedules instead of queueing on
//! the same rows.

use std::collections::{HashMap, HashSet};

use chrono::{DateTime, Utc};
use sea_orm::sea_query::{Expr, LockBehavior, LockType};
use sea_orm::{
    ColumnTrait as _, ConnectionTrait as _, DatabaseBackend, DbErr, EntityTrait as _,
    QueryFilter as _, QueryOrder as _, QuerySelect as _, Set, TransactionTrait as _,
};

use super::{DiscoveryStore, INSERT_CHUNK, source_from_row};
use crate::domain::Source;
use crate::domain::schedules::{Schedule, ScheduleSource, Timing};
use crate::entity::{schedule, source, source_video};

fn schedule_from_row(row: schedule::Model, source: &Source) -> Result<Schedule, DbErr> {
    let timing = Timing::parse(
        &row.frequency,
        &row.time_of_day,
        &row.timezone,
        row.anchored_at,
    )
    .map_err(|error| DbErr::Type(format!("schedule {}: {error}", row.id)))?;
    Ok(Schedule {
        id: row.id,
        user_id: row.user_id,
        source_id: row.source_id,
        source: ScheduleSource {
            kind: source.kind,
            title: source.title.clone(),
            thumbnail_url: source.thumbnail_url.clone(),
        },
        timing,
        is_active: row.is_active,
        use_captions: row.use_captions,
        next_run_at: row.next_run_at,
        last_run_at: row.last_run_at,
        created_at: row.created_at,
    })
}

fn to_row(schedule: &Schedule) -> schedule::ActiveModel {
    schedule::ActiveModel {
        id: Set(schedule.id.clone()),
        user_id: Set(schedule.user_id.clone()),
        source_id: Set(schedule.source_id.clone()),
        frequency: Set(schedule.timing.frequency.as_str().to_owned()),
        time_of_day: Set(scribevault_core::local_time::format_time_of_day(
            schedule.timing.time_of_day,
        )),
        timezone: Set(schedule.timing.zone.name().to_owned()),
        anchored_at: Set(schedule.timing.anchored_at),
        is_active: Set(schedule.is_active),
        use_captions: Set(schedule.use_captions),
        next_run_at: Set(schedule.next_run_at),
        last_run_at: Set(schedule.last_run_at),
        created_at: Set(schedule.created_at),
    }
}

impl DiscoveryStore {
    async fn with_sources(&self, rows: Vec<schedule::Model>) -> Result<Vec<Schedule>, DbErr> {
        let ids: HashSet<String> = rows.iter().map(|row| row.source_id.clone()).collect();
        let sources: HashMap<String, Source> = source::Entity::find()
            .filter(source::Column::Id.is_in(ids))
            .all(&self.db)
            .await?
            .into_iter()
            .map(|row| source_from_row(row).map(|source| (source.id.clone(), source)))
            .collect::<Result<_, _>>()?;
        rows.into_iter()
            .filter_map(|row| {
                // A schedule goes with its source; one whose source vanished is not shown.
                let source = sources.get(&row.source_id)?;
                Some(schedule_from_row(row, source))
            })
            .collect()
    }

    /// Records a new schedule.
    ///
    /// # Errors
    /// Database failure.
    pub async fn insert_schedule(&self, schedule: &Schedule) -> Result<(), DbErr> {
        schedule::Entity::insert(to_row(schedule))
            .exec_without_returning(&self.db)
            .await?;
        Ok(())
    }

    /// Writes every field of one of the user's schedules.
    ///
    /// # Errors
    /// Database failure.
    pub async fn update_schedule(&self, schedule: &Schedule) -> Result<bool, DbErr> {
        let row = to_row(schedule);
        let updated = schedule::Entity::update_many()
            .set(row)
            .filter(schedule::Column::Id.eq(schedule.id.as_str()))
            .filter(schedule::Column::UserId.eq(schedule.user_id.as_str()))
            .exec(&self.db)
            .await?;
        Ok(updated.rows_affected == 1)
    }

    /// The user's schedules, oldest first.
    ///
    /// # Errors
    /// Database failure or an unreadable row.
    pub async fn schedules(&self, user_id: &str) -> Result<Vec<Schedule>, DbErr> {
        let rows = schedule::Entity::find()
            .filter(schedule::Column::UserId.eq(user_id))
            .order_by_asc(schedule::Column::CreatedAt)
            .order_by_asc(schedule::Column::Id)
            .all(&self.db)
            .await?;
        self.with_sources(rows).await
    }

    /// One of the user's schedules.
    ///
    /// # Errors
    /// Database failure or an unreadable row.
    pub async fn schedule(&self, user_id: &str, id: &str) -> Result<Option<Schedule>, DbErr> {
        let rows = schedule::Entity::find_by_id(id.to_owned())
            .filter(schedule::Column::UserId.eq(user_id))
            .all(&self.db)
            .await?;
        Ok(self.with_sources(rows).await?.into_iter().next())
    }

    /// Deletes one of the user's schedules; whether there was one.
    ///
    /// # Errors
    /// Database failure.
    pub async fn delete_schedule(&self, user_id: &str, id: &str) -> Result<bool, DbErr> {
        let deleted = schedule::Entity::delete_many()
            .filter(schedule::Column::Id.eq(id))
            .filter(schedule::Column::UserId.eq(user_id))
            .exec(&self.db)
            .await?;
        Ok(deleted.rows_affected == 1)
    }

    /// Sets when a schedule last ran.
    ///
    /// # Errors
    /// Database failure.
    pub async fn set_last_run(&self, id: &str, at: DateTime<Utc>) -> Result<(), DbErr> {
        schedule::Entity::update_many()
            .col_expr(schedule::Column::LastRunAt, Expr::value(at))
            .filter(schedule::Column::Id.eq(id))
            .exec(&self.db)
            .await?;
        Ok(())
    }

    /// Claims up to `limit` active schedules due at `now`, moving each one's next run to
    /// `next(schedule)`. A schedule another replica claimed first is skipped.
    ///
    /// # Errors
    /// Database failure or an unreadable row.
    pub async fn claim_due_schedules(
        &self,
        now: DateTime<Utc>,
        limit: u64,
        next: impl Fn(&Schedule) -> DateTime<Utc>,
    ) -> Result<Vec<Schedule>, DbErr> {
        let transaction = self.db.begin().await?;
        let mut due = schedule::Entity::find()
            .filter(schedule::Column::IsActive.eq(true))
            .filter(schedule::Column::NextRunAt.lte(now))
            .order_by_asc(schedule::Column::NextRunAt)
            .limit(limit);
        if transaction.get_database_backend() == DatabaseBackend::Postgres {
            due = due.lock_with_behavior(LockType::Update, LockBehavior::SkipLocked);
        }
        let rows = due.all(&transaction).await?;
        let candidates = self.with_sources(rows).await?;
        let mut claimed = Vec::new();
        for schedule in candidates {
            let following = next(&schedule);
            let moved = schedule::Entity::update_many()
                .col_expr(schedule::Column::NextRunAt, Expr::value(following))
                .filter(schedule::Column::Id.eq(schedule.id.as_str()))
                .filter(schedule::Column::IsActive.eq(true))
                .filter(schedule::Column::NextRunAt.eq(schedule.next_run_at))
                .exec(&transaction)
                .await?;
            if moved.rows_affected == 1 {
                claimed.push(Schedule {
                    next_run_at: Some(following),
                    ..schedule
                });
            }
        }
        transaction.commit().await?;
        Ok(claimed)
    }

    /// A source's video ids.
    ///
    /// # Errors
    /// Database failure.
    pub async fn source_video_ids(&self, source_id: &str) -> Result<HashSet<String>, DbErr> {
        Ok(source_video::Entity::find()
            .filter(source_video::Column::SourceId.eq(source_id))
            .all(&self.db)
            .await?
            .into_iter()
            .map(|row| row.video_id)
            .collect())
    }

    /// Adds videos to a source: before its first (a channel's newest uploads) or after its
    /// last (a playlist's new entries), in the order given.
    ///
    /// # Errors
    /// Database failure.
    pub async fn add_source_videos(
        &self,
        source_id: &str,
        video_ids: &[String],
        at_front: bool,
    ) -> Result<(), DbErr> {
        if video_ids.is_empty() {
            return Ok(());
        }
        let transaction = self.db.begin().await?;
        let edge = if at_front {
            source_video::Entity::find()
                .filter(source_video::Column::SourceId.eq(source_id))
                .order_by_asc(source_video::Column::Position)
                .one(&transaction)
                .await?
                .map_or(0, |row| row.position)
        } else {
            source_video::Entity::find()
                .filter(source_video::Column::SourceId.eq(source_id))
                .order_by_desc(source_video::Column::Position)
                .one(&transaction)
                .await?
                .map_or(-1, |row| row.position)
        };
        let count = i32::try_from(video_ids.len()).unwrap_or(i32::MAX);
        let first = if at_front { edge - count } else { edge + 1 };
        let rows: Vec<source_video::ActiveModel> = video_ids
            .iter()
            .zip(first..)
            .map(|(video_id, position)| source_video::ActiveModel {
                source_id: Set(source_id.to_owned()),
                position: Set(position),
                video_id: Set(video_id.clone()),
            })
            .collect();
        for chunk in rows.chunks(INSERT_CHUNK) {
            source_video::Entity::insert_many(chunk.to_vec())
                .exec_without_returning(&transaction)
                .await?;
        }
        transaction.commit().await?;
        Ok(())
    }
}
