//! The `transcription.work` consumer: claim the file, run the pipeline while reporting
//! progress, record the outcome. The message is done whatever the outcome: failures are
//! recorded in the file's state, and a file whose outcome could not be recorded is handed out
//! again by the service once its heartbeat goes stale.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::time::{Duration, Instant};

use scribevault_bus::Settlement;
use scribevault_bus::contract::TranscriptionWork;
use scribevault_core::UserId;

use crate::client::{Claim, FileStateClient};
use crate::domain::{ClaimedFile, Transcript};
use crate::error::FileFailure;
use crate::jobs::stop_orders::RunningFiles;
use crate::liveness::Liveness;
use crate::pipeline::Pipeline;

const REPORT_EVERY: Duration = Duration::from_millis(500);
const REPORT_STEP_PERCENT: u32 = 5;
const POLL_EVERY: Duration = Duration::from_millis(100);

/// Everything one delivery needs.
#[derive(Clone)]
pub struct TranscribeHandler {
    pub client: FileStateClient,
    pub pipeline: Pipeline,
    pub running: RunningFiles,
    pub liveness: Liveness,
}

impl TranscribeHandler {
    /// Handles one delivery.
    pub async fn handle(&self, work: TranscriptionWork) -> Settlement {
        let mut client = self.client.clone();
        let user = UserId::new(work.user_id.clone());
        let file = match client.claim(&user, &work.job_id, &work.file_id).await {
            Ok(Claim::Claimed(file)) => file,
            Ok(Claim::Unknown) => return Settlement::Done,
            Ok(Claim::Refused(reason)) => {
                tracing::debug!(%reason, "file not claimed");
                return Settlement::Done;
            }
            Err(error) => {
                tracing::warn!(error = %error, "cannot claim; the message will be redelivered");
                tokio::time::sleep(Duration::from_secs(1)).await;
                return Settlement::Retry;
            }
        };
        let settled = match self.transcribe_file(&mut client, &file).await {
            Ok(transcript) => client.complete(&file, transcript).await,
            Err(FileFailure::Stopped) => Ok(()),
            Err(FileFailure::Failed { message, permanent }) => {
                tracing::warn!(error = %message, permanent, "transcription failed");
                client.fail(&file, message, permanent).await
            }
        };
        if let Err(error) = settled {
            // The service will see the file's heartbeat go stale and queue it again.
            tracing::warn!(error = %error, "could not record the outcome");
        }
        Settlement::Done
    }

    /// Runs the pipeline for one claimed file while reporting progress: every 5 % and at least
    /// every half second from the claim on (download and decoding included), so the service
    /// never mistakes a busy worker for a dead one.
    async fn transcribe_file(
        &self,
        client: &mut FileStateClient,
        file: &ClaimedFile,
    ) -> Result<Transcript, FileFailure> {
        let progress = Arc::new(AtomicU32::new(0));
        let abort = Arc::new(AtomicBool::new(false));
        let key = (file.job_id.clone(), file.file_id.clone());
        let _running = self
            .running
            .start(key.clone(), file.claim_token, abort.clone());
        let _watched = Watched {
            liveness: &self.liveness,
            key: &key,
        };
        let pipeline = self.pipeline.run(file, progress.clone(), abort.clone());
        tokio::pin!(pipeline);
        let mut reported = 0;
        let mut last_report = Instant::now();
        let mut poll = tokio::time::interval(POLL_EVERY);
        loop {
            tokio::select! {
                finished = &mut pipeline => return finished,
                _ = poll.tick() => {
                    if abort.load(Ordering::Relaxed) {
                        // The slot is given back now rather than when whisper returns: whisper.cpp
                        // looks at its abort flag only between encoder passes, which on a busy
                        // machine can be seconds away. Dropping the pipeline detaches its blocking
                        // task, which ends at that check and whose result nobody waits for.
                        tracing::info!("transcription stopped");
                        return Err(FileFailure::Stopped);
                    }
                    let now = progress.load(Ordering::Relaxed).min(99);
                    self.liveness.observe(&key, now);
                    if now >= reported + REPORT_STEP_PERCENT || last_report.elapsed() >= REPORT_EVERY {
                        match client.report(file, now).await {
                            Ok(true) => abort.store(true, Ordering::Relaxed),
                            Ok(false) => {}
                            Err(error) => tracing::warn!(error = %error, "progress report failed"),
                        }
                        reported = now;
                        last_report = Instant::now();
                    }
                }
            }
        }
    }
}

/// Takes a file off the liveness tracker when it ends, however it ends.
struct Watched<'a> {
    liveness: &'a Liveness,
    key: &'a (String, String),
}

impl Drop for Watched<'_> {
    fn drop(&mut self) {
        self.liveness.forget(self.key);
    }
}
