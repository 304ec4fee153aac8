//! Building and running the worker target.

use std::sync::Arc;

use scribevault_blob::BlobStore;
use scribevault_bus::contract::TranscriptionWork;
use scribevault_bus::{EventBus, WorkQueue, run_work_consumer};

use crate::config::WorkerConfig;
use crate::jobs::stop_orders::{self, RunningFiles};
use crate::jobs::transcribe::TranscribeHandler;
use crate::liveness::Liveness;
use crate::peers::FileState;
use crate::pipeline::Pipeline;
use crate::transcribe::stitching::AudioOptions;
use crate::whisper::DecodeOptions;
use crate::whisper::Transcribe;

/// What the worker works with, made by the caller: the bus, the blob store, the service that
/// owns file state and the speech-to-text engine.
pub struct WorkerDependencies {
    /// Where `transcription.work` messages arrive.
    pub work: Arc<dyn WorkQueue>,
    /// Where stop orders arrive (the worker-control topic).
    pub events: Arc<dyn EventBus>,
    /// Where the MP3s are, and the transcripts go.
    pub blobs: Arc<dyn BlobStore>,
    /// The transcription service ([`crate::FileStateClient`]).
    pub file_state: Arc<dyn FileState>,
    /// Speech to text ([`crate::WhisperCpp`]).
    pub whisper: Arc<dyn Transcribe>,
}

/// The transcription-worker target.
pub struct TranscriptionWorker {
    concurrency: usize,
    work: Arc<dyn WorkQueue>,
    events: Arc<dyn EventBus>,
    handler: TranscribeHandler,
}

impl TranscriptionWorker {
    /// A worker with `config` over `dependencies`.
    #[must_use]
    pub fn build(config: WorkerConfig, dependencies: WorkerDependencies) -> Self {
        tracing::info!(
            vad = config.vad_model.is_some(),
            window_seconds = config.window_seconds,
            "transcription worker ready"
        );
        let vad_model = config.vad_model.clone().filter(|path| {
            let found = path.is_file();
            if !found {
                tracing::warn!(
                    path = %path.display(),
                    "no Silero VAD model: silence will be transcribed too (run scripts/install-vad-model.sh, or set SCRIBEVAULT_VAD=false)"
                );
            }
            found
        });
        let mut decode = DecodeOptions::new(config.threads, &config.language);
        decode.no_context = config.no_context;
        decode.max_text_context = config.max_text_context;
        let pipeline = Pipeline {
            blobs: dependencies.blobs,
            whisper: dependencies.whisper,
            audio: AudioOptions {
                decode,
                vad_model,
                window_seconds: config.window_seconds,
                max_audio_seconds: config.max_audio_seconds,
            },
        };
        Self {
            concurrency: config.concurrency.max(1) as usize,
            work: dependencies.work,
            events: dependencies.events,
            handler: TranscribeHandler {
                file_state: dependencies.file_state,
                pipeline,
                running: RunningFiles::default(),
                liveness: Liveness::new(config.stall_after),
            },
        }
    }

    /// The tracker behind the liveness probe; serve it with [`Liveness::serve`].
    #[must_use]
    pub fn liveness(&self) -> Liveness {
        self.handler.liveness.clone()
    }

    /// Consumes work until `shutdown` resolves. Files in progress are abandoned unacknowledged,
    /// so the queue (or the transcription service's sweep) hands them to another worker.
    pub async fn run(self, shutdown: impl std::future::Future<Output = ()> + Send) {
        let orders = tokio::spawn(stop_orders::run(
            self.events.clone(),
            self.handler.running.clone(),
        ));
        let handler = Arc::new(self.handler);
        run_work_consumer(
            self.work,
            self.concurrency,
            shutdown,
            |work: &TranscriptionWork, attempt| {
                tracing::info_span!("transcription.file", job = %work.job_id, file = %work.file_id, attempt)
            },
            move |work: TranscriptionWork, _attempt| {
                let handler = handler.clone();
                async move { handler.handle(work).await }
            },
        )
        .await;
        orders.abort();
    }
}
