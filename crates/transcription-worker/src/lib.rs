//! The stateless transcription worker.
//!
//! It consumes `transcription.work` messages, claims each file from the transcription service
//! (which owns file state), reads the MP3 from the blob store, decodes and resamples it
//! (symphonia, rubato) and runs whisper.cpp (whisper-rs) on blocking threads, never on the async
//! runtime. While it works it reports progress every time whisper advances 5 % and at least every
//! half second; that report doubles as its heartbeat. A cancel reaches it as the file's
//! `transcriptionError` event (and, failing that, as the answer to its next report), and sets
//! whisper's abort flag.
//! It stores the transcript as text, markdown and segment JSON, then completes the file. Any
//! number of workers can share the queue: claims are conditional, so each file is done once.

pub mod audio;
pub mod engine;
pub mod render;

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use scribevault_blob::{BlobStore, body_from_bytes, collect_body, owned_key};
use scribevault_bus::contract::TranscriptionWork;
use scribevault_bus::{Event, EventBus, Settlement, WorkQueue, run_work_consumer};
use scribevault_core::UserId;
use scribevault_proto::transcription::v1 as pb;
use scribevault_proto::transcription::v1::transcription_service_client::TranscriptionServiceClient;
use tonic::transport::Channel;

use crate::audio::{decode_mp3_to_mono, resample_to_whisper_rate};
use crate::engine::{EngineError, ModelCache, transcribe};

/// Abort flags of the files being transcribed, by (job id, file id).
type RunningFiles = Arc<Mutex<HashMap<(String, String), Arc<AtomicBool>>>>;

/// What a worker needs to know.
#[derive(Debug, Clone)]
pub struct WorkerConfig {
    /// Where `ggml-<model>.bin` files are.
    pub model_dir: PathBuf,
    /// whisper.cpp threads per file.
    pub threads: u32,
    /// Files transcribed at once.
    pub concurrency: u32,
    /// The spoken language Whisper expects (`auto` detects it).
    pub language: String,
    /// `host:port` of the transcription service.
    pub transcription_addr: String,
}

/// The transcription-worker target.
pub struct TranscriptionWorker {
    config: WorkerConfig,
    work: Arc<dyn WorkQueue>,
    events: Arc<dyn EventBus>,
    blobs: Arc<dyn BlobStore>,
    models: ModelCache,
    /// Abort flags of the files this process is transcribing, by (job id, file id).
    running: RunningFiles,
}

/// How a file ended without a transcript.
enum FileFailure {
    /// The user cancelled or another worker took over: say nothing.
    Stopped,
    /// Worth reporting; `permanent` when retrying cannot help.
    Failed { message: String, permanent: bool },
}

struct Job {
    user: UserId,
    work: TranscriptionWork,
    claim: pb::ClaimTranscriptionFileResponse,
}

const REPORT_EVERY: Duration = Duration::from_millis(500);
const REPORT_STEP_PERCENT: u32 = 5;
const POLL_EVERY: Duration = Duration::from_millis(100);

impl TranscriptionWorker {
    /// A worker over the given queue, event bus and blob store.
    #[must_use]
    pub fn new(
        config: WorkerConfig,
        work: Arc<dyn WorkQueue>,
        events: Arc<dyn EventBus>,
        blobs: Arc<dyn BlobStore>,
    ) -> Self {
        ModelCache::install_logging();
        Self {
            config,
            work,
            events,
            blobs,
            models: ModelCache::default(),
            running: Arc::default(),
        }
    }

    /// Stops a running file as soon as the service announces it is no longer transcribing
    /// (cancelled, or given to another worker): the event arrives well before the next report.
    async fn stop_on_announcements(events: Arc<dyn EventBus>, running: RunningFiles) {
        let Ok(mut subscription) = events.subscribe().await else {
            return;
        };
        while let Some(event) = subscription.next().await {
            let Some(Event::TranscriptionError(stopped)) = event.event() else {
                continue;
            };
            let key = (stopped.job_id, stopped.file_id);
            if let Some(abort) = running
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .get(&key)
            {
                abort.store(true, Ordering::Relaxed);
            }
        }
    }

    /// Consumes work until `shutdown` resolves. Files in progress are abandoned unacknowledged,
    /// so the queue (or the transcription service's sweep) hands them to another worker.
    pub async fn run(self, shutdown: impl std::future::Future<Output = ()> + Send) {
        let channel = match scribevault_proto::server::connect_lazy(&self.config.transcription_addr)
        {
            Ok(channel) => channel,
            Err(error) => {
                tracing::error!(error = %error, "invalid SCRIBEVAULT_TRANSCRIPTION_GRPC_ADDR");
                return;
            }
        };
        let client = TranscriptionServiceClient::new(channel);
        let announcements = tokio::spawn(Self::stop_on_announcements(
            self.events.clone(),
            self.running.clone(),
        ));
        let concurrency = self.config.concurrency.max(1) as usize;
        let work = self.work.clone();
        let worker = Arc::new(self);
        run_work_consumer(
            work,
            concurrency,
            shutdown,
            |work: &TranscriptionWork, attempt| {
                let span = tracing::info_span!("transcription.file", job = %work.job_id, file = %work.file_id, attempt);
                if let Some(traceparent) = &work.traceparent {
                    scribevault_core::telemetry::set_parent_from_traceparent(&span, traceparent);
                }
                span
            },
            move |work: TranscriptionWork, _attempt| {
                let worker = worker.clone();
                let client = client.clone();
                async move { worker.handle(client, work).await }
            },
        )
        .await;
        announcements.abort();
    }

    /// Claims the file, transcribes it and records the outcome. The message is done whatever
    /// the outcome: failures are recorded in the file's state, and a file whose outcome could
    /// not be recorded is handed out again by the service once its heartbeat goes stale.
    async fn handle(
        &self,
        mut client: TranscriptionServiceClient<Channel>,
        work: TranscriptionWork,
    ) -> Settlement {
        let user = UserId::new(work.user_id.clone());
        let claim_request = pb::ClaimTranscriptionFileRequest {
            job_id: work.job_id.clone(),
            file_id: work.file_id.clone(),
        };
        let claim = match client
            .claim_transcription_file(on_behalf_of(&user, claim_request))
            .await
        {
            Ok(claim) => claim.into_inner(),
            Err(status) if status.code() == tonic::Code::NotFound => return Settlement::Done,
            Err(status) => {
                tracing::warn!(error = %status, "cannot claim; the message will be redelivered");
                tokio::time::sleep(Duration::from_secs(1)).await;
                return Settlement::Retry;
            }
        };
        if !claim.claimed {
            tracing::debug!(reason = %claim.reason, "file not claimed");
            return Settlement::Done;
        }
        let job = Job { user, work, claim };
        let outcome = self.transcribe_file(&mut client, &job).await;
        let settled = match outcome {
            Ok(done) => client
                .complete_transcription_file(on_behalf_of(&job.user, done))
                .await
                .map(|_| ()),
            Err(FileFailure::Stopped) => Ok(()),
            Err(FileFailure::Failed {
                message: error_message,
                permanent,
            }) => {
                tracing::warn!(error = %error_message, permanent, "transcription failed");
                let failure = pb::FailTranscriptionFileRequest {
                    job_id: job.work.job_id.clone(),
                    file_id: job.work.file_id.clone(),
                    claim_token: job.claim.claim_token,
                    error_message,
                    permanent,
                };
                client
                    .fail_transcription_file(on_behalf_of(&job.user, failure))
                    .await
                    .map(|_| ())
            }
        };
        if let Err(status) = settled {
            // The service will see the file's heartbeat go stale and queue it again.
            tracing::warn!(error = %status, "could not record the outcome");
        }
        Settlement::Done
    }

    /// Runs the pipeline for one claimed file while reporting progress: every 5 % and at least
    /// every half second from the claim on (download and decoding included), so the service
    /// never mistakes a busy worker for a dead one.
    async fn transcribe_file(
        &self,
        client: &mut TranscriptionServiceClient<Channel>,
        job: &Job,
    ) -> Result<pb::CompleteTranscriptionFileRequest, FileFailure> {
        let progress = Arc::new(AtomicU32::new(0));
        let abort = Arc::new(AtomicBool::new(false));
        let running_key = (job.work.job_id.clone(), job.work.file_id.clone());
        self.running
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(running_key.clone(), abort.clone());
        let _running = RunningGuard {
            running: self.running.clone(),
            key: running_key,
        };
        let pipeline = self.run_pipeline(job, progress.clone(), abort.clone());
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
                    if now >= reported + REPORT_STEP_PERCENT || last_report.elapsed() >= REPORT_EVERY {
                        let report = pb::ReportTranscriptionProgressRequest {
                            job_id: job.work.job_id.clone(),
                            file_id: job.work.file_id.clone(),
                            claim_token: job.claim.claim_token,
                            progress: now,
                        };
                        match client.report_transcription_progress(on_behalf_of(&job.user, report)).await {
                            Ok(answer) if answer.get_ref().stop => abort.store(true, Ordering::Relaxed),
                            Ok(_) => {}
                            Err(status) => tracing::warn!(error = %status, "progress report failed"),
                        }
                        reported = now;
                        last_report = Instant::now();
                    }
                }
            }
        }
    }

    /// Download, decode, resample, transcribe, store. Stops between stages (and inside whisper)
    /// once `abort` is set.
    async fn run_pipeline(
        &self,
        job: &Job,
        progress: Arc<AtomicU32>,
        abort: Arc<AtomicBool>,
    ) -> Result<pb::CompleteTranscriptionFileRequest, FileFailure> {
        let started = Instant::now();
        let file = job.claim.file.clone().unwrap_or_default();
        let failed = |message: String, permanent: bool| FileFailure::Failed { message, permanent };
        let stopped = || abort.load(Ordering::Relaxed);
        let key = owned_key(job.user.as_str(), &file.mp3_path)
            .map_err(|e| failed(e.to_string(), true))?;
        let body = self
            .blobs
            .get(&key)
            .await
            .map_err(|e| failed(format!("The MP3 could not be read: {e}"), false))?;
        let mp3 = collect_body(body)
            .await
            .map_err(|e| failed(format!("The MP3 could not be read: {e}"), false))?;

        let model_path = self
            .config
            .model_dir
            .join(format!("ggml-{}.bin", job.claim.model));
        let models = self.models.clone();
        let prepared = tokio::task::spawn_blocking(move || {
            let audio = decode_mp3_to_mono(mp3)?;
            let duration = audio.duration_seconds();
            let pcm = resample_to_whisper_rate(&audio)?;
            Ok::<_, audio::AudioError>((pcm, duration))
        });
        let model = tokio::task::spawn_blocking(move || models.get(&model_path));
        let (pcm, duration_seconds) = prepared
            .await
            .map_err(|e| failed(e.to_string(), false))?
            .map_err(|e| failed(e.to_string(), true))?;
        let model = model
            .await
            .map_err(|e| failed(e.to_string(), false))?
            .map_err(|e| failed(e.to_string(), true))?;
        if stopped() {
            return Err(FileFailure::Stopped);
        }

        let threads = self.config.threads;
        let language = self.config.language.clone();
        let whisper_abort = abort.clone();
        let whisper_started = Instant::now();
        let segments = tokio::task::spawn_blocking(move || {
            transcribe(&model, &pcm, threads, &language, progress, whisper_abort)
        })
        .await
        .map_err(|e| failed(e.to_string(), false))?;
        // bench/measure.py reads this to set the pipeline's cost against whisper's, same run.
        tracing::info!(
            whisper_ms = u64::try_from(whisper_started.elapsed().as_millis()).unwrap_or(u64::MAX),
            audio_seconds = duration_seconds,
            "whisper finished"
        );
        let segments = match segments {
            Ok(segments) => segments,
            Err(EngineError::Aborted) => {
                tracing::info!("transcription stopped");
                return Err(FileFailure::Stopped);
            }
            Err(error @ EngineError::Model(..)) => return Err(failed(error.to_string(), true)),
            Err(error) => return Err(failed(error.to_string(), false)),
        };

        let text = render::plain_text(&segments);
        let markdown = render::markdown(&file.title, &segments);
        let segments_json =
            serde_json::to_vec_pretty(&segments).map_err(|e| failed(e.to_string(), false))?;
        let base = format!(
            "transcripts/{}/{}",
            job.work.job_id,
            safe_name(&job.work.file_id)
        );
        let transcript_path = format!("{base}.txt");
        let markdown_path = format!("{base}.md");
        let segments_path = format!("{base}.segments.json");
        for (path, body) in [
            (&transcript_path, text.clone().into_bytes()),
            (&markdown_path, markdown.clone().into_bytes()),
            (&segments_path, segments_json),
        ] {
            let key =
                owned_key(job.user.as_str(), path).map_err(|e| failed(e.to_string(), true))?;
            self.blobs
                .put(&key, body_from_bytes(body))
                .await
                .map_err(|e| failed(format!("The transcript could not be stored: {e}"), false))?;
        }
        let vault_content = if job.claim.output_format == "txt" {
            text
        } else {
            markdown
        };
        Ok(pb::CompleteTranscriptionFileRequest {
            job_id: job.work.job_id.clone(),
            file_id: job.work.file_id.clone(),
            claim_token: job.claim.claim_token,
            transcript_path,
            markdown_path,
            segments_path,
            processing_time_ms: u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX),
            duration_seconds,
            vault_content,
        })
    }
}

/// Forgets a running file's abort flag when its transcription ends, however it ends.
struct RunningGuard {
    running: RunningFiles,
    key: (String, String),
}

impl Drop for RunningGuard {
    fn drop(&mut self) {
        self.running
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .remove(&self.key);
    }
}

/// A file id made safe as one path segment.
fn safe_name(file_id: &str) -> String {
    let cleaned: String = file_id
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .take(100)
        .collect();
    if cleaned.is_empty() {
        "file".into()
    } else {
        cleaned
    }
}

/// Longest a call to the transcription service may take: a hung service must not pin a worker
/// slot (the service's own answers take milliseconds).
const CALL_TIMEOUT: Duration = Duration::from_secs(30);

fn on_behalf_of<T>(user: &UserId, message: T) -> tonic::Request<T> {
    let mut request = tonic::Request::new(message);
    request.set_timeout(CALL_TIMEOUT);
    if user.attach_to(&mut request).is_err() {
        tracing::error!("user id cannot travel in metadata");
    }
    scribevault_core::telemetry::inject_current_context(
        &mut scribevault_core::telemetry::MetadataCarrier(request.metadata_mut()),
    );
    request
}
