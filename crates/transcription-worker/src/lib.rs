//! The stateless transcription worker: it will consume transcription work, decode MP3 with
//! symphonia, resample with rubato and run whisper.cpp through whisper-rs.
//!
//! Only the target exists so far; the pipeline lands with the transcription issue. Running it
//! now logs that and waits for shutdown, so `scribevault all` has every target in place.

/// The transcription-worker target.
#[derive(Debug, Default, Clone, Copy)]
pub struct TranscriptionWorker;

impl TranscriptionWorker {
    /// Waits for `shutdown`.
    pub async fn run(self, shutdown: impl std::future::Future<Output = ()> + Send) {
        tracing::warn!(
            "transcription-worker: the audio pipeline is not implemented yet; this target only idles"
        );
        shutdown.await;
    }
}
