//! Download jobs: creating, listing, cancelling and retrying them. The jobs run in
//! `jobs/download.rs`.

use std::collections::HashSet;

use chrono::Utc;
use scribevault_bus::contract::{
    CurrentVideo, DownloadProgress, DownloadWork, Event, Notification, NotificationCategory,
    NotificationKind,
};
use scribevault_bus::{EventEnvelope, enqueue_work};
use scribevault_core::UserId;

use super::Discovery;
use crate::domain::downloads::{
    DownloadJob, DownloadStatus, DownloadTransition, JobVideo, MAX_JOB_VIDEOS, OUTPUT_FORMATS,
    TranscribeAfter, VideoOutcome,
};
use crate::domain::is_video_id;
use crate::error::DiscoveryError;
use crate::store::Cancelled;

/// What a user asks to download.
#[derive(Debug, Clone, Default)]
pub struct NewDownloadJob {
    pub source_id: String,
    pub video_ids: Vec<String>,
    pub transcribe: bool,
    pub model: String,
    pub output_format: String,
    /// `None` takes the user's default.
    pub use_captions: Option<bool>,
}

impl Discovery {
    /// The caller's jobs, newest first.
    ///
    /// # Errors
    /// Database failure.
    pub async fn download_jobs(&self, user: &UserId) -> Result<Vec<DownloadJob>, DiscoveryError> {
        Ok(self.store.download_jobs(user.as_str()).await?)
    }

    /// Creates a job for videos of one of the caller's sources and queues it.
    ///
    /// # Errors
    /// An unknown source, no videos or too many, a video not in the source, a bad output
    /// format; database failure.
    #[tracing::instrument(skip_all, fields(user = %user, source = request.source_id, videos = request.video_ids.len()))]
    pub async fn create_download_job(
        &self,
        user: &UserId,
        request: NewDownloadJob,
    ) -> Result<DownloadJob, DiscoveryError> {
        if request.source_id.trim().is_empty() {
            return Err(DiscoveryError::InvalidArgument(
                "sourceId is required".into(),
            ));
        }
        let source = self
            .store
            .source(user.as_str(), &request.source_id)
            .await?
            .ok_or(DiscoveryError::SourceNotFound)?;
        let video_ids = checked_video_ids(request.video_ids)?;
        let in_source = self.store.videos_of_source(&source.id, &video_ids).await?;
        if let Some(missing) = video_ids.iter().find(|id| !in_source.contains(*id)) {
            return Err(DiscoveryError::InvalidArgument(format!(
                "Video {missing} is not in the source \"{}\"",
                source.title
            )));
        }
        let transcribe = if request.transcribe {
            Some(self.transcribe_after(request.output_format, &request.model)?)
        } else {
            None
        };
        let use_captions = match request.use_captions {
            Some(chosen) => chosen,
            None => {
                self.store
                    .sync_preferences(user.as_str())
                    .await?
                    .use_captions
            }
        };
        self.check_active_cap(user).await?;
        let known = self.store.videos_by_id(&video_ids).await?;
        let videos = job_videos(&video_ids, &known);
        let job = DownloadJob {
            id: uuid::Uuid::now_v7().to_string(),
            user_id: user.as_str().to_owned(),
            source_id: source.id.clone(),
            source_title: source.title.clone(),
            status: DownloadStatus::Pending,
            total_videos: u32::try_from(videos.len()).unwrap_or(u32::MAX),
            processed_videos: 0,
            failed_videos: 0,
            error_message: None,
            transcribe,
            use_captions,
            current: None,
            started_at: None,
            completed_at: None,
            created_at: Utc::now(),
        };
        self.store.insert_download_job(&job, &videos, None).await?;
        self.queue_download(user, &job.id).await;
        self.publish_progress(&job).await;
        Ok(job)
    }

    /// What the job transcribes with once its files are downloaded; empty fields take the
    /// defaults.
    fn transcribe_after(
        &self,
        output_format: String,
        model: &str,
    ) -> Result<TranscribeAfter, DiscoveryError> {
        let output_format = if output_format.is_empty() {
            "markdown".to_owned()
        } else {
            output_format
        };
        if !OUTPUT_FORMATS.contains(&output_format.as_str()) {
            return Err(DiscoveryError::InvalidArgument(
                "outputFormat must be markdown or txt".into(),
            ));
        }
        let model = if model.trim().is_empty() {
            self.downloads.default_model.clone()
        } else {
            model.trim().to_owned()
        };
        Ok(TranscribeAfter {
            model,
            output_format,
        })
    }

    /// Cancels one of the caller's running or pending jobs: it ends FAILED with 'Cancelled by
    /// user' at once, and its runner (in this process or another) sees that within half a
    /// second and kills yt-dlp.
    ///
    /// # Errors
    /// An unknown job, one that has ended; database failure.
    #[tracing::instrument(skip_all, fields(user = %user, job = id))]
    pub async fn cancel_download_job(
        &self,
        user: &UserId,
        id: &str,
    ) -> Result<DownloadJob, DiscoveryError> {
        match self
            .store
            .cancel_download_job(user.as_str(), id, Utc::now())
            .await?
        {
            Cancelled::Now(job) => {
                self.publish_progress(&job).await;
                Ok(*job)
            }
            Cancelled::AlreadyEnded => Err(DiscoveryError::JobEnded),
            Cancelled::NotFound => Err(DiscoveryError::JobNotFound),
        }
    }

    /// A new job for the videos of a failed job that did not arrive; it replaces the old one
    /// in the list.
    ///
    /// # Errors
    /// An unknown job, one that did not fail or was retried already; database failure.
    #[tracing::instrument(skip_all, fields(user = %user, job = id))]
    pub async fn retry_download_job(
        &self,
        user: &UserId,
        id: &str,
    ) -> Result<DownloadJob, DiscoveryError> {
        let old = self
            .store
            .download_job(user.as_str(), id)
            .await?
            .ok_or(DiscoveryError::JobNotFound)?;
        if old.status.apply(DownloadTransition::Supersede).is_err() {
            return Err(DiscoveryError::NotRetryable(
                "Only a failed job can be retried".into(),
            ));
        }
        let videos: Vec<JobVideo> = self
            .store
            .job_videos(id)
            .await?
            .into_iter()
            .filter(|video| video.outcome != VideoOutcome::Arrived)
            .zip(0u32..)
            .map(|(video, position)| JobVideo {
                position,
                outcome: VideoOutcome::Pending,
                reason: None,
                ..video
            })
            .collect();
        if videos.is_empty() {
            return Err(DiscoveryError::NotRetryable(
                "Every video of this job has arrived".into(),
            ));
        }
        // The retry is a new pending job: it counts like one.
        self.check_active_cap(user).await?;
        let job = DownloadJob {
            id: uuid::Uuid::now_v7().to_string(),
            status: DownloadStatus::Pending,
            total_videos: u32::try_from(videos.len()).unwrap_or(u32::MAX),
            processed_videos: 0,
            failed_videos: 0,
            error_message: None,
            current: None,
            started_at: None,
            completed_at: None,
            created_at: Utc::now(),
            ..old
        };
        if !self
            .store
            .insert_download_job(&job, &videos, Some(id))
            .await?
        {
            return Err(DiscoveryError::NotRetryable(
                "This job has already been retried".into(),
            ));
        }
        self.queue_download(user, &job.id).await;
        self.publish_progress(&job).await;
        Ok(job)
    }

    /// Refuses another job when the caller already has as many not yet finished as they may
    /// (security review F16: downloads run a few at a time for everyone, so one user's
    /// thousand jobs would starve the rest). The count and the insert are not one transaction:
    /// two requests at once may pass the cap by one.
    async fn check_active_cap(&self, user: &UserId) -> Result<(), DiscoveryError> {
        let cap = self.downloads.max_active_per_user;
        let active = self.store.count_active_download_jobs(user.as_str()).await?;
        if active >= cap {
            return Err(DiscoveryError::TooManyActiveDownloads { active, cap });
        }
        Ok(())
    }

    /// Puts the job on the download queue. A failure is logged: the job is in the database,
    /// and the sweep at the next start queues every pending job again.
    pub(crate) async fn queue_download(&self, user: &UserId, job_id: &str) {
        let work = DownloadWork {
            user_id: user.as_str().to_owned(),
            job_id: job_id.to_owned(),
            traceparent: scribevault_core::telemetry::current_traceparent(),
        };
        if let Err(error) = enqueue_work(self.downloads.work.as_ref(), &work).await {
            tracing::error!(error = %error, job = job_id, "download job not queued; it is queued again at the next start");
        }
    }

    /// `downloadProgress` to the owner's sockets. A bus failure is logged: the state is in
    /// the database, and the next event or a reload shows it.
    pub(crate) async fn publish_progress(&self, job: &DownloadJob) {
        let event = Event::DownloadProgress(DownloadProgress {
            job_id: job.id.clone(),
            status: job.status.into(),
            processed_videos: job.processed_videos,
            total_videos: job.total_videos,
            error: job.error_message.clone(),
            progress: job.progress(),
            failed_videos: job.failed_videos,
            current_video: job.current.as_ref().map(|current| CurrentVideo {
                video_id: current.video_id.clone(),
                title: current.title.clone(),
                percent: current.percent,
            }),
        });
        let envelope = EventEnvelope::for_event(
            &event,
            &job.user_id,
            scribevault_core::telemetry::current_traceparent(),
        );
        if let Err(error) = self.events.publish(&envelope).await {
            tracing::warn!(error = %error, job = job.id, "downloadProgress not published");
        }
    }

    /// Tells the owner a job has ended: how many videos arrived, as an error when none did.
    /// (The user's notification settings decide at the gateway whether they see it.)
    pub(crate) async fn notify_finished(&self, job: &DownloadJob) {
        let arrived = job.total_videos.saturating_sub(job.failed_videos);
        let (title, kind) = if arrived == 0 && job.total_videos > 0 {
            ("Download failed", NotificationKind::Error)
        } else {
            ("Download complete", NotificationKind::Success)
        };
        let plural = if job.total_videos == 1 { "" } else { "s" };
        let event = Event::Notification(Notification {
            title: title.to_owned(),
            message: format!("{arrived} of {} video{plural} downloaded", job.total_videos),
            kind,
            category: Some(NotificationCategory::DownloadComplete),
        });
        let envelope = EventEnvelope::for_event(
            &event,
            &job.user_id,
            scribevault_core::telemetry::current_traceparent(),
        );
        if let Err(error) = self.events.publish(&envelope).await {
            tracing::warn!(error = %error, job = job.id, "download notification not published");
        }
    }
}

/// The requested ids trimmed and without repeats, in their order; at least one and at most
/// [`MAX_JOB_VIDEOS`], each shaped like a YouTube video id.
fn checked_video_ids(requested: Vec<String>) -> Result<Vec<String>, DiscoveryError> {
    let mut seen = HashSet::new();
    let video_ids: Vec<String> = requested
        .into_iter()
        .map(|id| id.trim().to_owned())
        .filter(|id| seen.insert(id.clone()))
        .collect();
    if video_ids.is_empty() {
        return Err(DiscoveryError::InvalidArgument(
            "Please select videos to download".into(),
        ));
    }
    if video_ids.len() > MAX_JOB_VIDEOS {
        return Err(DiscoveryError::InvalidArgument(format!(
            "A download job takes at most {MAX_JOB_VIDEOS} videos"
        )));
    }
    if let Some(bad) = video_ids.iter().find(|id| !is_video_id(id)) {
        return Err(DiscoveryError::InvalidArgument(format!(
            "{:?} is not a YouTube video id",
            bad.chars().take(40).collect::<String>()
        )));
    }
    Ok(video_ids)
}

/// The job's videos in the order asked, titled as far as the listing knows them.
fn job_videos(
    video_ids: &[String],
    known: &std::collections::HashMap<String, crate::domain::Video>,
) -> Vec<JobVideo> {
    video_ids
        .iter()
        .zip(0u32..)
        .map(|(id, position)| JobVideo {
            position,
            video_id: id.clone(),
            title: known
                .get(id)
                .map(|video| video.title.clone())
                .unwrap_or_default(),
            outcome: VideoOutcome::Pending,
            reason: None,
        })
        .collect()
}
