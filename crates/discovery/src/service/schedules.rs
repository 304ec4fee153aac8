//! Schedules: their CRUD, "sync now", and the run the scheduler (`jobs/scheduler.rs`) starts
//! for a due one.

use chrono::{DateTime, Utc};
use scribevault_bus::EventEnvelope;
use scribevault_bus::contract::{
    Event, Notification, NotificationCategory, NotificationKind, SourceChange,
};
use scribevault_core::UserId;

use super::Discovery;
use super::NewDownloadJob;
use crate::domain::downloads::MAX_JOB_VIDEOS;
use crate::domain::downloads::SyncPreferences;
use crate::domain::schedules::{
    SOURCE_REQUIRED, Schedule, ScheduleChanges, ScheduleSource, Timing,
};
use crate::error::DiscoveryError;

/// A new schedule's fields as the user sent them.
#[derive(Debug, Clone, Default)]
pub struct NewSchedule {
    pub source_id: String,
    pub frequency: String,
    pub time_of_day: String,
    pub timezone: String,
    /// `None` takes the user's default.
    pub use_captions: Option<bool>,
}

/// The notification text for a sync that found `count` videos.
#[must_use]
pub fn new_videos_message(count: usize, source_title: &str) -> String {
    if count == 1 {
        format!("1 new video in {source_title}")
    } else {
        format!("{count} new videos in {source_title}")
    }
}

impl Discovery {
    /// The caller's schedules.
    ///
    /// # Errors
    /// Database failure.
    pub async fn schedules(&self, user: &UserId) -> Result<Vec<Schedule>, DiscoveryError> {
        Ok(self.store.schedules(user.as_str()).await?)
    }

    async fn owned_source(
        &self,
        user: &UserId,
        source_id: &str,
    ) -> Result<ScheduleSource, DiscoveryError> {
        if source_id.trim().is_empty() {
            return Err(DiscoveryError::InvalidArgument(SOURCE_REQUIRED.into()));
        }
        let source = self
            .store
            .source(user.as_str(), source_id.trim())
            .await?
            .ok_or(DiscoveryError::SourceNotFound)?;
        Ok(ScheduleSource {
            kind: source.kind,
            title: source.title,
            thumbnail_url: source.thumbnail_url,
        })
    }

    /// Creates an active schedule for one of the caller's sources.
    ///
    /// # Errors
    /// The spec's validation messages (§5), an unknown source; database failure.
    #[tracing::instrument(skip_all, fields(user = %user))]
    pub async fn create_schedule(
        &self,
        user: &UserId,
        request: NewSchedule,
    ) -> Result<Schedule, DiscoveryError> {
        let source = self.owned_source(user, &request.source_id).await?;
        let now = Utc::now();
        let timing = Timing::parse(
            &request.frequency,
            &request.time_of_day,
            &request.timezone,
            now,
        )
        .map_err(DiscoveryError::InvalidArgument)?;
        let use_captions = match request.use_captions {
            Some(chosen) => chosen,
            None => {
                self.store
                    .sync_preferences(user.as_str())
                    .await?
                    .use_captions
            }
        };
        let schedule = Schedule {
            id: uuid::Uuid::now_v7().to_string(),
            user_id: user.as_str().to_owned(),
            source_id: request.source_id.trim().to_owned(),
            source,
            timing,
            is_active: true,
            use_captions,
            next_run_at: Some(timing.next_run_after(now)),
            last_run_at: None,
            created_at: now,
        };
        self.store.insert_schedule(&schedule).await?;
        Ok(schedule)
    }

    /// Edits one of the caller's schedules: its fields (which re-anchors a weekly schedule's
    /// weekday and a monthly one's day to today), or `isActive` alone.
    ///
    /// # Errors
    /// Validation, an unknown schedule or source; database failure.
    #[tracing::instrument(skip_all, fields(user = %user, schedule = id))]
    pub async fn update_schedule(
        &self,
        user: &UserId,
        id: &str,
        changes: ScheduleChanges,
    ) -> Result<Schedule, DiscoveryError> {
        let mut schedule = self
            .store
            .schedule(user.as_str(), id)
            .await?
            .ok_or(DiscoveryError::ScheduleNotFound)?;
        let now = Utc::now();
        if let Some(source_id) = &changes.source_id {
            schedule.source = self.owned_source(user, source_id).await?;
            source_id.trim().clone_into(&mut schedule.source_id);
        }
        if changes.edits_timing() {
            let current = schedule.timing;
            let time_of_day = scribevault_core::local_time::format_time_of_day(current.time_of_day);
            schedule.timing = Timing::parse(
                changes
                    .frequency
                    .as_deref()
                    .unwrap_or(current.frequency.as_str()),
                changes.time_of_day.as_deref().unwrap_or(&time_of_day),
                changes.timezone.as_deref().unwrap_or(current.zone.name()),
                now,
            )
            .map_err(DiscoveryError::InvalidArgument)?;
        }
        if let Some(active) = changes.is_active {
            schedule.is_active = active;
        }
        if let Some(use_captions) = changes.use_captions {
            schedule.use_captions = use_captions;
        }
        schedule.next_run_at = schedule
            .is_active
            .then(|| schedule.timing.next_run_after(now));
        if !self.store.update_schedule(&schedule).await? {
            return Err(DiscoveryError::ScheduleNotFound);
        }
        Ok(schedule)
    }

    /// Deletes one of the caller's schedules.
    ///
    /// # Errors
    /// An unknown schedule; database failure.
    pub async fn delete_schedule(&self, user: &UserId, id: &str) -> Result<(), DiscoveryError> {
        if self.store.delete_schedule(user.as_str(), id).await? {
            Ok(())
        } else {
            Err(DiscoveryError::ScheduleNotFound)
        }
    }

    /// Syncs one of the caller's schedules' source now (its next run stays as it was).
    ///
    /// # Errors
    /// An unknown schedule; API or database failures.
    #[tracing::instrument(skip_all, fields(user = %user, schedule = id))]
    pub async fn run_schedule_now(
        &self,
        user: &UserId,
        id: &str,
    ) -> Result<(Schedule, usize), DiscoveryError> {
        let schedule = self
            .store
            .schedule(user.as_str(), id)
            .await?
            .ok_or(DiscoveryError::ScheduleNotFound)?;
        self.run_schedule(schedule, Utc::now()).await
    }

    /// One run: the source's new videos are added, `lastRunAt` is set, and the owner hears
    /// about what is new. With the owner's `autoDownload` on, the new videos are downloaded
    /// too (in jobs of at most the job limit).
    ///
    /// # Errors
    /// API or database failures (the run is not retried before its next time).
    pub(crate) async fn run_schedule(
        &self,
        mut schedule: Schedule,
        now: DateTime<Utc>,
    ) -> Result<(Schedule, usize), DiscoveryError> {
        let user = UserId::new(schedule.user_id.clone());
        let source = self
            .store
            .source(user.as_str(), &schedule.source_id)
            .await?
            .ok_or(DiscoveryError::SourceNotFound)?;
        let new = self.sync_source(&source).await?;
        self.store.set_last_run(&schedule.id, now).await?;
        schedule.last_run_at = Some(now);
        if !new.is_empty() {
            self.announce(&user, SourceChange::Updated, &source).await;
            let event = Event::Notification(Notification {
                title: "Scheduled sync".to_owned(),
                message: new_videos_message(new.len(), &source.title),
                kind: NotificationKind::Info,
                category: Some(NotificationCategory::ScheduledSync),
            });
            let envelope = EventEnvelope::for_event(
                &event,
                user.as_str(),
                scribevault_core::telemetry::current_traceparent(),
            );
            if let Err(error) = self.events.publish(&envelope).await {
                tracing::warn!(error = %error, "sync notification not published");
            }
        }
        if !new.is_empty() && self.store.auto_download(user.as_str()).await? {
            self.download_new_videos(&user, &source.id, &new, schedule.use_captions)
                .await;
        }
        tracing::info!(schedule = schedule.id, new = new.len(), "source synced");
        Ok((schedule, new.len()))
    }
}

impl Discovery {
    /// Starts download jobs for `videos` of `source_id` (auto-download). A job that cannot be
    /// made is logged: the sync itself succeeded and its videos are listed either way.
    async fn download_new_videos(
        &self,
        user: &UserId,
        source_id: &str,
        videos: &[String],
        use_captions: bool,
    ) {
        for chunk in videos.chunks(MAX_JOB_VIDEOS) {
            let job = NewDownloadJob {
                source_id: source_id.to_owned(),
                video_ids: chunk.to_vec(),
                transcribe: false,
                model: String::new(),
                output_format: String::new(),
                use_captions: Some(use_captions),
            };
            match self.create_download_job(user, job).await {
                Ok(job) => {
                    tracing::info!(job = job.id, videos = chunk.len(), "auto-download started")
                }
                Err(error) => tracing::warn!(error = %error, "auto-download not started"),
            }
        }
    }

    /// Records the user's `autoDownload` and `useCaptions` (handed over by the gateway from
    /// their settings).
    ///
    /// # Errors
    /// Database failure.
    #[tracing::instrument(skip(self), fields(user = %user))]
    pub async fn set_sync_preferences(
        &self,
        user: &UserId,
        preferences: SyncPreferences,
    ) -> Result<(), DiscoveryError> {
        Ok(self
            .store
            .set_sync_preferences(user.as_str(), preferences)
            .await?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_notification_counts_the_new_videos() {
        assert_eq!(new_videos_message(2, "Demo"), "2 new videos in Demo");
        assert_eq!(new_videos_message(1, "Demo"), "1 new video in Demo");
    }
}
