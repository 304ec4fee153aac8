//! The runner's sign of life while one video is worked on (downloaded, stored, its captions
//! fetched): a heartbeat every half second, conditional on the runner's claim, which is also
//! how it learns of a cancel (the write finds the job no longer its own), and the owner's
//! `downloadProgress` when the percent moves and at least every 2 s.

use std::future::Future;
use std::time::{Duration, Instant};

use chrono::Utc;
use tokio::sync::watch;
use tokio_util::sync::CancellationToken;

use crate::domain::downloads::{
    CurrentDownload, DownloadJob, DownloadStatus, DownloadTransition, JobVideo,
};
use crate::error::DiscoveryError;
use crate::service::Discovery;
use crate::store::{JobGuard, JobUpdate};

/// How often a runner writes its heartbeat (and learns of a cancel).
const HEARTBEAT: Duration = Duration::from_millis(500);
/// Longest the owner's sockets go without a `downloadProgress` while a file downloads.
const PROGRESS_AT_LEAST_EVERY: Duration = Duration::from_secs(2);
/// Shortest gap between two progress events for a moving percent.
const PROGRESS_AT_MOST_EVERY: Duration = Duration::from_secs(1);

/// The heartbeat of one video's work.
pub(super) struct Heartbeat<'a> {
    discovery: &'a Discovery,
    job: &'a mut DownloadJob,
    video: &'a JobVideo,
    token: &'a str,
    percent: watch::Receiver<u32>,
    /// Fired when the job is lost, so the work in hand stops (yt-dlp is killed).
    stop: CancellationToken,
    ticks: tokio::time::Interval,
    last_event: Instant,
    last_percent: u32,
    lost: bool,
}

impl<'a> Heartbeat<'a> {
    pub(super) fn new(
        discovery: &'a Discovery,
        job: &'a mut DownloadJob,
        video: &'a JobVideo,
        token: &'a str,
        percent: watch::Receiver<u32>,
        stop: CancellationToken,
    ) -> Self {
        Self {
            discovery,
            job,
            video,
            token,
            percent,
            stop,
            ticks: tokio::time::interval(HEARTBEAT),
            last_event: Instant::now(),
            last_percent: u32::MAX,
            lost: false,
        }
    }

    /// Runs `work` to its end while beating. `None` when the job was lost meanwhile (cancelled
    /// or taken over): the work was told to stop, and what it did must not be recorded.
    ///
    /// # Errors
    /// The heartbeat could not be written.
    pub(super) async fn while_running<F: Future>(
        &mut self,
        work: F,
    ) -> Result<Option<F::Output>, DiscoveryError> {
        tokio::pin!(work);
        loop {
            tokio::select! {
                done = &mut work => return Ok((!self.lost).then_some(done)),
                _ = self.ticks.tick(), if !self.lost => self.beat().await?,
            }
        }
    }

    async fn beat(&mut self) -> Result<(), DiscoveryError> {
        let current = CurrentDownload {
            video_id: self.video.video_id.clone(),
            title: self.video.title.clone(),
            percent: *self.percent.borrow(),
        };
        let beat = JobUpdate {
            heartbeat_at: Some(Utc::now()),
            current: Some(Some(current.clone())),
            ..JobUpdate::default()
        };
        if !self
            .discovery
            .store
            .transition(
                &self.job.id,
                DownloadTransition::Progress,
                JobGuard::Runner(self.token),
                beat,
            )
            .await?
        {
            // Cancelled or taken over: yt-dlp is killed as the work sees the stop.
            self.lost = true;
            self.stop.cancel();
            return Ok(());
        }
        let moved = current.percent != self.last_percent
            && self.last_event.elapsed() >= PROGRESS_AT_MOST_EVERY;
        if moved || self.last_event.elapsed() >= PROGRESS_AT_LEAST_EVERY {
            self.last_percent = current.percent;
            self.last_event = Instant::now();
            self.job.status = DownloadStatus::Processing;
            self.job.current = Some(current);
            self.discovery.publish_progress(self.job).await;
        }
        Ok(())
    }
}
