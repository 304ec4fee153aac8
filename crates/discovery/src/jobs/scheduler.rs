//! The scheduler's sweep: runs due schedules, and queues download jobs nobody is running.
//!
//! Every replica sweeps; a due schedule is claimed by moving its next run on in one
//! conditional update (locked `FOR UPDATE SKIP LOCKED` on PostgreSQL), so exactly one replica
//! runs it. A schedule missed while every replica was down is due once at the next sweep, and
//! its next run is the first one after now: missed slots are not replayed.

use std::time::Duration;

use chrono::Utc;
use scribevault_core::UserId;
use tokio_util::sync::CancellationToken;

use crate::service::Discovery;

/// Due schedules one sweep claims at most (the rest wait for the next sweep).
const SCHEDULES_PER_SWEEP: u64 = 20;

/// Sweeps every `interval` until `shutdown`. At start, every pending job (its message may
/// have been lost with the process) and every abandoned one is queued again.
pub async fn run(discovery: Discovery, interval: Duration, shutdown: CancellationToken) {
    requeue_unattended(&discovery, true).await;
    let mut ticker = tokio::time::interval(interval);
    loop {
        tokio::select! {
            () = shutdown.cancelled() => return,
            _ = ticker.tick() => {}
        }
        sweep(&discovery).await;
    }
}

/// One sweep: the due schedules, then the abandoned download jobs.
pub async fn sweep(discovery: &Discovery) {
    let now = Utc::now();
    match discovery
        .store
        .claim_due_schedules(now, SCHEDULES_PER_SWEEP, |schedule| {
            schedule.timing.next_run_after(now)
        })
        .await
    {
        Ok(due) => {
            for schedule in due {
                let id = schedule.id.clone();
                if let Err(error) = discovery.run_schedule(schedule, now).await {
                    tracing::warn!(error = %error, schedule = id, "scheduled sync failed; it runs again at its next time");
                }
            }
        }
        Err(error) => tracing::error!(error = %error, "due schedules not read"),
    }
    requeue_unattended(discovery, false).await;
}

async fn requeue_unattended(discovery: &Discovery, include_pending: bool) {
    let stale_before = Utc::now() - discovery.downloads.stale_after;
    match discovery
        .store
        .unattended_download_jobs(stale_before, include_pending)
        .await
    {
        Ok(jobs) => {
            for (user, job) in jobs {
                tracing::info!(job, "download job queued again");
                discovery.queue_download(&UserId::new(user), &job).await;
            }
        }
        Err(error) => tracing::error!(error = %error, "unattended download jobs not read"),
    }
}
