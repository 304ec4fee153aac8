//! Building and running the worker target.

use std::sync::Arc;

use scribevault_blob::BlobStore;
use scribevault_bus::contract::TranscriptionWork;
use scribevault_bus::{EventBus, WorkQueue, run_work_consumer};

use crate::client::FileStateClient;
use crate::config::WorkerConfig;
use crate::engine::{DecodeOptions, ModelCache};
use crate::jobs::stop_orders::{self, RunningFiles};
use crate::jobs::transcribe::TranscribeHandler;
use crate::liveness::Liveness;
use crate::pipeline::Pipeline;
use crate::stitching::AudioOptions;

/// The transcription-worker target.
pub struct TranscriptionWorker {
    config: WorkerConfig,
    work: Arc<dyn WorkQueue>,
    events: Arc<dyn EventBus>,
    pipeline: Pipeline,
    liveness: Liveness,
}

impl TranscriptionWorker {
    /// A worker over the given queue, event bus and blob store.
    #[must_use]
    pub fn build(
        config: WorkerConfig,
        work: Arc<dyn WorkQueue>,
        events: Arc<dyn EventBus>,
        blobs: Arc<dyn BlobStore>,
    ) -> Self {
        ModelCache::install_logging();
        tracing::info!(
            compiled_for = crate::cpu::COMPILED_FOR,
            vad = config.vad_model.is_some(),
            window_seconds = config.window_seconds,
            "whisper.cpp ready"
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
            blobs,
            models: ModelCache::default(),
            model_dir: config.model_dir.clone(),
            audio: AudioOptions {
                decode,
                vad_model,
                window_seconds: config.window_seconds,
                max_audio_seconds: config.max_audio_seconds,
            },
        };
        Self {
            liveness: Liveness::new(config.stall_after),
            config,
            work,
            events,
            pipeline,
        }
    }

    /// The tracker behind the liveness probe; serve it with [`Liveness::serve`].
    #[must_use]
    pub fn liveness(&self) -> Liveness {
        self.liveness.clone()
    }

    /// Consumes work until `shutdown` resolves. Files in progress are abandoned unacknowledged,
    /// so the queue (or the transcription service's sweep) hands them to another worker.
    pub async fn run(self, shutdown: impl std::future::Future<Output = ()> + Send) {
        let client = match FileStateClient::connect_lazy(&self.config.transcription_addr) {
            Ok(client) => client,
            Err(error) => {
                tracing::error!(error = %error, "invalid SCRIBEVAULT_TRANSCRIPTION_GRPC_ADDR");
                return;
            }
        };
        let running = RunningFiles::default();
        let orders = tokio::spawn(stop_orders::run(self.events.clone(), running.clone()));
        let handler = Arc::new(TranscribeHandler {
            client,
            pipeline: self.pipeline,
            running,
            liveness: self.liveness,
        });
        run_work_consumer(
            self.work,
            self.config.concurrency.max(1) as usize,
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
