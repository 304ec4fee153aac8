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

use crate::domain::{ClaimedFile, Transcript};
use crate::error::FileFailure;
use crate::jobs::stop_orders::RunningFiles;
use crate::liveness::Liveness;
use crate::peers::{Claim, FileState};
use crate::pipeline::Pipeline;

const REPORT_EVERY: Duration = Duration::from_millis(500);
const REPORT_STEP_PERCENT: u32 = 5;
const POLL_EVERY: Duration = Duration::from_millis(100);

/// Everything one delivery needs.
pub struct TranscribeHandler {
    pub file_state: Arc<dyn FileState>,
    pub pipeline: Pipeline,
    pub running: RunningFiles,
    pub liveness: Liveness,
}

impl TranscribeHandler {
    /// Handles one delivery.
    pub async fn handle(&self, work: TranscriptionWork) -> Settlement {
        let file_state = self.file_state.as_ref();
        let user = UserId::new(work.user_id.clone());
        let file = match file_state.claim(&user, &work.job_id, &work.file_id).await {
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
        let settled = match self.transcribe_file(&file).await {
            Ok(transcript) => file_state.complete(&file, transcript).await,
            Err(FileFailure::Stopped) => Ok(()),
            Err(FileFailure::Failed { message, permanent }) => {
                tracing::warn!(error = %message, permanent, "transcription failed");
                file_state.fail(&file, message, permanent).await
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
    async fn transcribe_file(&self, file: &ClaimedFile) -> Result<Transcript, FileFailure> {
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
                        match self.file_state.report(file, now).await {
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

#[cfg(test)]
mod tests {
    use scribevault_blob::{BlobStore as _, LocalBlobStore, body_from_bytes, owned_key};

    use scribevault_bus::contract::{ReviewReason, TranscriptReview};

    use super::*;
    use crate::domain::OutputFormat;
    use crate::peers::{InMemoryFileState, Recorded};
    use crate::transcribe::stitching::AudioOptions;
    use crate::whisper::DecodeOptions;
    use crate::whisper::FakeWhisper;

    const JOB: &str = "job-1";
    const MP3: &str = "uploads/welcome.mp3";

    struct Worker {
        handler: TranscribeHandler,
        files: InMemoryFileState,
        whisper: FakeWhisper,
        _blob_dir: tempfile::TempDir,
    }

    fn user() -> UserId {
        UserId::new("user-1")
    }

    fn work(file_id: &str) -> TranscriptionWork {
        TranscriptionWork {
            user_id: user().as_str().to_owned(),
            job_id: JOB.to_owned(),
            file_id: file_id.to_owned(),
            traceparent: None,
        }
    }

    /// A handler over file state in memory, the fake engine and a real MP3 in a blob store.
    async fn worker(whisper: FakeWhisper) -> Worker {
        let blob_dir = tempfile::tempdir().unwrap();
        let blobs = LocalBlobStore::new(blob_dir.path()).unwrap();
        let audio = std::fs::read(
            scribevault_test_support::shared_dir().join("audio/sample-01-welcome.mp3"),
        )
        .unwrap();
        blobs
            .put(
                &owned_key(user().as_str(), MP3).unwrap(),
                body_from_bytes(audio),
            )
            .await
            .unwrap();
        let files = InMemoryFileState::default();
        let handler = TranscribeHandler {
            file_state: Arc::new(files.clone()),
            pipeline: Pipeline {
                blobs: Arc::new(blobs),
                whisper: Arc::new(whisper.clone()),
                audio: AudioOptions {
                    decode: DecodeOptions::new(1, "en"),
                    vad_model: None,
                    window_seconds: 120,
                    max_audio_seconds: 3600,
                },
            },
            running: RunningFiles::default(),
            liveness: Liveness::new(Duration::from_secs(60)),
        };
        Worker {
            handler,
            files,
            whisper,
            _blob_dir: blob_dir,
        }
    }

    #[tokio::test]
    async fn a_claimed_file_is_reported_on_then_completed_in_its_jobs_format() {
        let worker =
            worker(FakeWhisper::saying("Welcome back.").taking(Duration::from_millis(1200))).await;
        worker
            .files
            .add(&user(), (JOB, "a"), MP3, "tiny.en", OutputFormat::Txt);
        assert_eq!(worker.handler.handle(work("a")).await, Settlement::Done);
        let Some(Recorded::Completed(transcript)) = worker.files.recorded(JOB, "a") else {
            panic!("{:?}", worker.files.recorded(JOB, "a"));
        };
        // A txt job's Vault item is the plain text, not the markdown with its heading.
        assert_eq!(transcript.vault_content, "Welcome back.");
        assert_eq!(transcript.transcript_path, "transcripts/job-1/a.txt");
        assert!(
            (7.0..8.0).contains(&transcript.duration_seconds),
            "{transcript:?}"
        );
        assert_eq!(worker.whisper.calls().windows, 1);
    }

    #[tokio::test]
    async fn reports_go_out_while_whisper_works_and_a_cancel_in_their_answer_stops_it() {
        let worker = worker(FakeWhisper::saying("never").until_stopped()).await;
        worker
            .files
            .add(&user(), (JOB, "a"), MP3, "tiny.en", OutputFormat::Markdown);
        let (files, whisper) = (worker.files.clone(), worker.whisper.clone());
        let cancel = tokio::spawn(async move {
            loop {
                tokio::time::sleep(POLL_EVERY).await;
                if let Some(Recorded::Running { reports }) = files.recorded(JOB, "a")
                    && reports.len() >= 2
                    && whisper.calls().begun == 1
                {
                    files.cancel(JOB, "a");
                    return reports;
                }
            }
        });
        let handled =
            tokio::time::timeout(Duration::from_secs(10), worker.handler.handle(work("a")))
                .await
                .expect("the run stops once a report is answered with stop");
        assert_eq!(handled, Settlement::Done);
        let reports = cancel.await.unwrap();
        assert!(
            reports.windows(2).all(|pair| pair[0] <= pair[1]),
            "{reports:?}"
        );
        assert!(
            matches!(worker.files.recorded(JOB, "a"), Some(Recorded::Cancelled)),
            "a stopped file is neither completed nor failed"
        );
        // The detached whisper thread sees the flag too.
        tokio::time::timeout(Duration::from_secs(5), async {
            while worker.whisper.calls().stopped == 0 {
                tokio::time::sleep(POLL_EVERY).await;
            }
        })
        .await
        .expect("whisper stops");
    }

    #[tokio::test]
    async fn a_claim_the_service_cannot_answer_is_delivered_again_and_nothing_runs() {
        let worker = worker(FakeWhisper::saying("unheard")).await;
        worker
            .files
            .add(&user(), (JOB, "a"), MP3, "tiny.en", OutputFormat::Markdown);
        worker.files.set_unreachable(true);
        assert_eq!(worker.handler.handle(work("a")).await, Settlement::Retry);
        assert_eq!(worker.whisper.calls().files, 0);
        assert!(matches!(
            worker.files.recorded(JOB, "a"),
            Some(Recorded::Waiting)
        ));
    }

    #[tokio::test]
    async fn a_finished_or_unknown_file_is_settled_without_transcribing_it() {
        let worker = worker(FakeWhisper::saying("once")).await;
        worker
            .files
            .add(&user(), (JOB, "a"), MP3, "tiny.en", OutputFormat::Markdown);
        assert_eq!(worker.handler.handle(work("a")).await, Settlement::Done);
        // A duplicate message for the finished file, and one for a file nobody has.
        assert_eq!(worker.handler.handle(work("a")).await, Settlement::Done);
        assert_eq!(worker.handler.handle(work("gone")).await, Settlement::Done);
        assert_eq!(worker.whisper.calls().files, 1);
    }

    const LOOPED: &str = "Thank you for watching. Thank you for watching. Thank you for watching.";

    #[tokio::test]
    async fn a_loop_that_loops_again_is_completed_with_its_review_stored_beside_it() {
        let worker = worker(FakeWhisper::saying(LOOPED)).await;
        worker
            .files
            .add(&user(), (JOB, "a"), MP3, "tiny.en", OutputFormat::Txt);
        assert_eq!(worker.handler.handle(work("a")).await, Settlement::Done);
        let Some(Recorded::Completed(transcript)) = worker.files.recorded(JOB, "a") else {
            panic!("{:?}", worker.files.recorded(JOB, "a"));
        };
        assert_eq!(worker.whisper.calls().retries, 1);
        assert_eq!(transcript.vault_content, LOOPED);
        assert!(
            transcript
                .review
                .reasons()
                .contains(&ReviewReason::Repetition),
            "{:?}",
            transcript.review
        );
        let stored = worker
            .handler
            .pipeline
            .blobs
            .get(&owned_key(user().as_str(), "transcripts/job-1/a.review.json").unwrap())
            .await
            .unwrap();
        let stored: TranscriptReview =
            serde_json::from_slice(&scribevault_blob::collect_body(stored).await.unwrap()).unwrap();
        assert_eq!(stored, transcript.review);
    }

    #[tokio::test]
    async fn a_loop_heard_cleanly_again_is_replaced_and_needs_no_review() {
        let worker =
            worker(FakeWhisper::saying(LOOPED).retrying_with("Welcome back to the channel.")).await;
        worker
            .files
            .add(&user(), (JOB, "a"), MP3, "tiny.en", OutputFormat::Txt);
        assert_eq!(worker.handler.handle(work("a")).await, Settlement::Done);
        let Some(Recorded::Completed(transcript)) = worker.files.recorded(JOB, "a") else {
            panic!("{:?}", worker.files.recorded(JOB, "a"));
        };
        assert_eq!(worker.whisper.calls().retries, 1);
        assert_eq!(transcript.vault_content, "Welcome back to the channel.");
        assert!(!transcript.review.needs_review(), "{:?}", transcript.review);
        let key = owned_key(user().as_str(), "transcripts/job-1/a.review.json").unwrap();
        assert!(worker.handler.pipeline.blobs.get(&key).await.is_err());
    }
}
