//! [`Transcribe`] with whisper.cpp (whisper-rs): each model is loaded once per process and
//! shared; every file gets its own state.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use super::{Transcribe, WindowTranscriber};
use crate::whisper::{
    DecodeOptions, Decoded, EngineError, ModelCache, Pass, ProgressSpan, Transcriber,
};

/// whisper.cpp over the `ggml-<model>.bin` files of a directory.
#[derive(Clone)]
pub struct WhisperCpp {
    models: ModelCache,
    model_dir: PathBuf,
}

impl WhisperCpp {
    /// Models are read from `model_dir`; whisper.cpp's own log lines go through `tracing`.
    #[must_use]
    pub fn new(model_dir: PathBuf) -> Self {
        ModelCache::install_logging();
        tracing::info!(
            compiled_for = crate::cpu::COMPILED_FOR,
            model_dir = %model_dir.display(),
            "whisper.cpp ready"
        );
        Self {
            models: ModelCache::default(),
            model_dir,
        }
    }
}

impl Transcribe for WhisperCpp {
    fn start(
        &self,
        model: &str,
        options: &DecodeOptions,
    ) -> Result<Box<dyn WindowTranscriber>, EngineError> {
        let model = self
            .models
            .get(&self.model_dir.join(format!("ggml-{model}.bin")))?;
        Ok(Box::new(Transcriber::new(&model, options.clone())?))
    }
}

impl WindowTranscriber for Transcriber {
    fn transcribe(
        &mut self,
        pcm: &[f32],
        pass: Pass,
        progress: ProgressSpan,
        abort: Arc<AtomicBool>,
    ) -> Result<Vec<Decoded>, EngineError> {
        Transcriber::transcribe(self, pcm, pass, progress, abort)
    }

    fn language(&self) -> Option<String> {
        Transcriber::language(self).map(str::to_owned)
    }
}
