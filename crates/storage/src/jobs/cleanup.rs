//! The daily sweep of old MP3s for users with automatic clean-up on (settings
//! `storage.autoCleanup` + `cleanupAfterDays`).

use std::time::Duration;

use chrono::Utc;

use crate::service::Storage;

/// Sweeps every `interval` (the first sweep one interval after start) until `shutdown`.
pub async fn run_cleanup_sweeps(
    storage: Storage,
    interval: Duration,
    shutdown: impl std::future::Future<Output = ()>,
) {
    tokio::pin!(shutdown);
    let mut ticks = tokio::time::interval_at(tokio::time::Instant::now() + interval, interval);
    ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            () = &mut shutdown => return,
            _ = ticks.tick() => {
                match storage.sweep_old_mp3s(Utc::now()).await {
                    Ok(removed) => tracing::info!(removed, "MP3 clean-up sweep done"),
                    Err(error) => tracing::warn!(error = %error, "MP3 clean-up sweep failed; retried next time"),
                }
            }
        }
    }
}
