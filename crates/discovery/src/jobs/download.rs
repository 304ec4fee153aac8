//! Running a download job: claim it, download its videos one at a time with yt-dlp, hand each
//! MP3 over (`handover.rs`: storage, the video's captions, transcription), and keep the
//! owner's sockets told (`heartbeat.rs`).
//!
//! The runner holds the job by its claim token and writes a heartbeat every half second; the
//! same write tells it whether the job is still its own, so a cancel (from any replica) stops
//! yt-dlp within a second. A runner that dies leaves a stale heartbeat, and the scheduler's
//! sweep queues the job again for another runner (`jobs/scheduler.rs`).

use std::path::Path;

use chrono::Utc;
use scribevault_bus::Settlement;
use scribevault_bus::contract::DownloadWork;
use scribevault_core::UserId;
use tokio::sync::watch;
use tokio_util::sync::CancellationToken;

use super::handover::{AfterDownload, HandOverFailure, hand_over};
use super::heartbeat::Heartbeat;
use crate::domain::downloads::{
    DownloadJob, DownloadStatus, DownloadTransition, JobVideo, VideoOutcome, failure_lines,
};
use crate::error::DiscoveryError;
use crate::service::Discovery;
use crate::store::{DiscoveryStore, JobGuard, JobUpdate};
use crate::ytdlp::FetchFailure;

/// How one video ended for the runner.
enum Tried {
    /// Recorded; the job goes on.
    Recorded,
    /// The job is no longer this runner's (cancelled, or taken over): stop, write nothing.
    Lost,
}

/// Consumes the download queue until `shutdown`, running at most `concurrency` jobs at once.
pub async fn consume(discovery: Discovery, concurrency: usize, shutdown: CancellationToken) {
    let work = discovery.downloads.work.clone();
    let stopped = shutdown.clone();
    scribevault_bus::run_work_consumer::<DownloadWork, _, _, _>(
        work,
        concurrency,
        async move { stopped.cancelled().await },
        |work: &DownloadWork, delivery| {
            tracing::info_span!("download_job", job = %work.job_id, delivery)
        },
        move |work, _delivery| {
            let discovery = discovery.clone();
            let shutdown = shutdown.clone();
            async move { run_job(&discovery, &work, &shutdown).await }
        },
    )
    .await;
}

/// Runs one job to its end, or until it is lost or the service stops.
async fn run_job(
    discovery: &Discovery,
    work: &DownloadWork,
    shutdown: &CancellationToken,
) -> Settlement {
    match try_run_job(discovery, work, shutdown).await {
        Ok(()) => Settlement::Done,
        Err(error) => {
            tracing::error!(error = %error, job = work.job_id, "download job interrupted; it will be run again");
            Settlement::Retry
        }
    }
}

async fn try_run_job(
    discovery: &Discovery,
    work: &DownloadWork,
    shutdown: &CancellationToken,
) -> Result<(), DiscoveryError> {
    let token = uuid::Uuid::new_v4().to_string();
    let Some(mut job) = claim_in_turn(discovery, work, &token).await? else {
        tracing::debug!(
            job = work.job_id,
            "download job ended, running elsewhere or gone"
        );
        return Ok(());
    };
    discovery.publish_progress(&job).await;
    let work_dir = work_directory(discovery).await?;
    let store = &discovery.store;
    let user = UserId::new(job.user_id.clone());
    let videos = store.job_videos(&job.id).await?;
    for video in videos
        .iter()
        .filter(|video| video.outcome == VideoOutcome::Pending)
    {
        if shutdown.is_cancelled() {
            release(store, &job.id, &token).await?;
            return Ok(());
        }
        let tried = try_video(
            discovery,
            &user,
            &mut job,
            video,
            &token,
            work_dir.path(),
            shutdown,
        )
        .await?;
        match tried {
            Tried::Recorded => {
                if let Some(updated) = store.download_job(&job.user_id, &job.id).await? {
                    job = updated;
                }
                discovery.publish_progress(&job).await;
            }
            Tried::Lost => {
                if shutdown.is_cancelled() {
                    release(store, &job.id, &token).await?;
                }
                return Ok(());
            }
        }
    }
    finish(discovery, &job, &token).await
}

/// Claims the job the message names, or another user's whose turn comes first.
///
/// Messages are queued in the order jobs were started: when another user's turn comes first
/// (fewer jobs running, served longer ago), their oldest pending job runs instead and this one
/// is queued again, so one user's twenty jobs do not stand before everyone else's.
async fn claim_in_turn(
    discovery: &Discovery,
    work: &DownloadWork,
    token: &str,
) -> Result<Option<DownloadJob>, DiscoveryError> {
    let store = &discovery.store;
    let now = Utc::now();
    let stale_before = now - discovery.downloads.stale_after;
    let named_is_pending = store
        .download_job(&work.user_id, &work.job_id)
        .await?
        .is_some_and(|job| job.status == DownloadStatus::Pending);
    if named_is_pending
        && let Some((user_id, job_id)) = store.download_turn_before(&work.user_id).await?
        && let Some(job) = store
            .claim_download_job(&user_id, &job_id, token, now, stale_before)
            .await?
    {
        tracing::info!(
            deferred = work.job_id,
            claimed = job_id,
            "another user's turn: their download job first, this one queued again"
        );
        discovery
            .queue_download(&UserId::new(work.user_id.clone()), &work.job_id)
            .await;
        return Ok(Some(job));
    }
    Ok(store
        .claim_download_job(&work.user_id, &work.job_id, token, now, stale_before)
        .await?)
}

/// A directory of its own for the job's files, removed when the job ends.
async fn work_directory(discovery: &Discovery) -> Result<tempfile::TempDir, DiscoveryError> {
    tokio::fs::create_dir_all(&discovery.downloads.work_root)
        .await
        .map_err(|error| DiscoveryError::Download(format!("work directory: {error}")))?;
    tempfile::Builder::new()
        .prefix("download-")
        .tempdir_in(&discovery.downloads.work_root)
        .map_err(|error| DiscoveryError::Download(format!("work directory: {error}")))
}

/// Every video was tried: the job ends completed or failed, and its owner is told.
async fn finish(
    discovery: &Discovery,
    job: &DownloadJob,
    token: &str,
) -> Result<(), DiscoveryError> {
    let store = &discovery.store;
    let outcomes = store.job_videos(&job.id).await?;
    let failed = u32::try_from(
        outcomes
            .iter()
            .filter(|video| video.outcome == VideoOutcome::Failed)
            .count(),
    )
    .unwrap_or(u32::MAX);
    let end = DownloadTransition::after_all_tried(failed);
    if store
        .transition(
            &job.id,
            end,
            JobGuard::Runner(token),
            JobUpdate {
                error_message: failure_lines(&outcomes),
                completed_at: Some(Utc::now()),
                ..JobUpdate::default()
            },
        )
        .await?
        && let Some(finished) = store.download_job(&job.user_id, &job.id).await?
    {
        tracing::info!(
            job = job.id,
            status = end.target().as_str(),
            failed,
            "download job ended"
        );
        discovery.publish_progress(&finished).await;
        discovery.notify_finished(&finished).await;
    }
    Ok(())
}

/// Hands a running job back (the service is stopping): pending again, for the next runner.
async fn release(store: &DiscoveryStore, id: &str, token: &str) -> Result<(), DiscoveryError> {
    store
        .transition(
            id,
            DownloadTransition::Release,
            JobGuard::Runner(token),
            JobUpdate::default(),
        )
        .await?;
    Ok(())
}

/// Downloads one video, hands it over, and records what became of it.
async fn try_video(
    discovery: &Discovery,
    user: &UserId,
    job: &mut DownloadJob,
    video: &JobVideo,
    token: &str,
    work_dir: &Path,
    shutdown: &CancellationToken,
) -> Result<Tried, DiscoveryError> {
    let (progress, percent) = watch::channel(0u32);
    let stop = shutdown.child_token();
    let after = AfterDownload {
        transcribe: job.transcribe.clone(),
        use_captions: job.use_captions,
    };
    let job_id = job.id.clone();
    let mut heartbeat = Heartbeat::new(discovery, job, video, token, percent, stop.clone());
    let fetch =
        discovery
            .downloads
            .fetcher
            .fetch(&video.video_id, work_dir, &progress, stop.clone());
    let Some(fetched) = heartbeat.while_running(fetch).await? else {
        return Ok(Tried::Lost);
    };
    if shutdown.is_cancelled() {
        return Ok(Tried::Lost);
    }
    let (outcome, reason, mp3_path) = match fetched {
        Ok(audio) => {
            let handed = heartbeat
                .while_running(hand_over(
                    discovery,
                    user,
                    &after,
                    video,
                    &audio.path,
                    work_dir,
                    stop.clone(),
                ))
                .await?;
            // The file is in storage (or refused): the work directory only holds one at a time.
            let _ = tokio::fs::remove_file(&audio.path).await;
            match handed {
                None | Some(Err(HandOverFailure::Stopped)) => return Ok(Tried::Lost),
                _ if shutdown.is_cancelled() => return Ok(Tried::Lost),
                Some(Ok(path)) => (VideoOutcome::Arrived, None, Some(path)),
                Some(Err(HandOverFailure::Refused(reason))) => {
                    (VideoOutcome::Failed, Some(reason), None)
                }
            }
        }
        Err(FetchFailure::Stopped) => return Ok(Tried::Lost),
        Err(failure) => {
            tracing::warn!(video = video.video_id, reason = %failure, "video not downloaded");
            (VideoOutcome::Failed, Some(failure.to_string()), None)
        }
    };
    if discovery
        .store
        .record_video_outcome(
            &job_id,
            token,
            video.position,
            outcome,
            reason.as_deref(),
            mp3_path.as_deref(),
        )
        .await?
    {
        Ok(Tried::Recorded)
    } else {
        Ok(Tried::Lost)
    }
}
