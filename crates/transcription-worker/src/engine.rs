//! whisper.cpp through whisper-rs: each model is loaded once per process and shared; every
//! transcription gets its own state. Runs on blocking threads only.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use whisper_rs::{FullParams, SamplingStrategy, WhisperContext, WhisperContextParameters};

/// One recognised stretch of speech: the segment JSON's format is a contract with the library.
pub use scribevault_bus::contract::TranscriptSegment as Segment;

/// Why whisper did not produce a transcript.
#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    /// The model file is missing or unreadable (permanent).
    #[error("Model {0} could not be loaded: {1}")]
    Model(String, String),
    /// The transcription was stopped through the abort flag.
    #[error("Transcription stopped")]
    Aborted,
    /// whisper.cpp failed.
    #[error("Transcription failed: {0}")]
    Whisper(String),
}

/// Loaded models by file path.
#[derive(Default, Clone)]
pub struct ModelCache {
    models: Arc<Mutex<HashMap<PathBuf, Arc<WhisperContext>>>>,
    flash_attention: bool,
}

impl ModelCache {
    /// A cache whose models use whisper.cpp's flash attention (benchmarked in
    /// `docs/performance.md`).
    #[must_use]
    pub fn with_flash_attention(flash_attention: bool) -> Self {
        Self {
            flash_attention,
            ..Self::default()
        }
    }

    /// Sends whisper.cpp's own logging through `tracing` (filtered like everything else).
    pub fn install_logging() {
        whisper_rs::install_logging_hooks();
    }

    /// The model at `path`, loading it on first use.
    ///
    /// # Errors
    /// [`EngineError::Model`] when it cannot be loaded.
    pub fn get(&self, path: &Path) -> Result<Arc<WhisperContext>, EngineError> {
        let mut models = self.models.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(model) = models.get(path) {
            return Ok(model.clone());
        }
        let name = path.display().to_string();
        if !path.is_file() {
            return Err(EngineError::Model(name, "file not found".into()));
        }
        let parameters = WhisperContextParameters {
            flash_attn: self.flash_attention,
            ..WhisperContextParameters::default()
        };
        let context = WhisperContext::new_with_params(&name, parameters)
            .map_err(|e| EngineError::Model(name.clone(), e.to_string()))?;
        let context = Arc::new(context);
        models.insert(path.to_path_buf(), context.clone());
        Ok(context)
    }
}

/// Transcribes 16 kHz mono `pcm`. `progress` receives whisper's percentage; setting `abort`
/// stops the computation within a fraction of a second.
///
/// # Errors
/// [`EngineError::Aborted`] or a whisper failure.
pub fn transcribe(
    model: &WhisperContext,
    pcm: &[f32],
    threads: u32,
    language: &str,
    progress: Arc<AtomicU32>,
    abort: Arc<AtomicBool>,
) -> Result<Vec<Segment>, EngineError> {
    let mut state = model
        .create_state()
        .map_err(|e| EngineError::Whisper(e.to_string()))?;
    let mut params = FullParams::new(SamplingStrategy::Greedy { best_of: 1 });
    params.set_n_threads(i32::try_from(threads.max(1)).unwrap_or(1));
    params.set_language(Some(language));
    params.set_print_progress(false);
    params.set_print_realtime(false);
    params.set_print_timestamps(false);
    params.set_print_special(false);
    params.set_progress_callback_safe(move |percent: i32| {
        progress.store(
            u32::try_from(percent.clamp(0, 100)).unwrap_or(0),
            Ordering::Relaxed,
        );
    });
    let abort_flag = abort.clone();
    // whisper-rs 0.16's `set_abort_callback_safe` boxes the closure as `Box<dyn FnMut>` but
    // calls it back as the closure's own type; handing it a `Box<dyn FnMut>` makes both the
    // same type, so the callback reads our flag and not a misread pointer.
    let abort_callback: Box<dyn FnMut() -> bool> =
        Box::new(move || abort_flag.load(Ordering::Relaxed));
    params.set_abort_callback_safe::<_, Box<dyn FnMut() -> bool>>(abort_callback);
    let outcome = state.full(params, pcm);
    if abort.load(Ordering::Relaxed) {
        return Err(EngineError::Aborted);
    }
    outcome.map_err(|e| EngineError::Whisper(e.to_string()))?;
    let mut segments = Vec::new();
    for segment in state.as_iter() {
        let text = segment
            .to_str_lossy()
            .map_err(|e| EngineError::Whisper(e.to_string()))?
            .trim()
            .to_owned();
        if text.is_empty() || text == "[BLANK_AUDIO]" {
            continue;
        }
        // whisper.cpp counts in centiseconds.
        segments.push(Segment {
            start_ms: segment.start_timestamp() * 10,
            end_ms: segment.end_timestamp() * 10,
            text,
        });
    }
    Ok(segments)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::audio::{decode_mp3_to_mono, resample_to_whisper_rate};

    fn long_pcm() -> Vec<f32> {
        let bytes =
            std::fs::read(scribevault_test_support::shared_dir().join("audio/long-01-bread.mp3"))
                .unwrap();
        resample_to_whisper_rate(&decode_mp3_to_mono(bytes).unwrap()).unwrap()
    }

    #[test]
    fn setting_the_abort_flag_stops_whisper_promptly() {
        let model = ModelCache::default()
            .get(&scribevault_test_support::shared_dir().join("models/ggml-tiny.en.bin"))
            .unwrap();
        let pcm = long_pcm();
        // The reference: the same audio transcribed to the end, on this machine, now. A fixed
        // bound in seconds would measure the machine's load as much as the code
        // (bench/ holds the absolute figure).
        let started = std::time::Instant::now();
        let whole = transcribe(
            &model,
            &pcm,
            1,
            "en",
            Arc::new(AtomicU32::new(0)),
            Arc::new(AtomicBool::new(false)),
        );
        let whole_run = started.elapsed();
        assert!(whole.is_ok(), "{whole:?}");

        let abort = Arc::new(AtomicBool::new(false));
        let progress = Arc::new(AtomicU32::new(0));
        let flag = abort.clone();
        let abort_after = whole_run / 5;
        let stopper = std::thread::spawn(move || {
            std::thread::sleep(abort_after);
            flag.store(true, Ordering::Relaxed);
            std::time::Instant::now()
        });
        let result = transcribe(&model, &pcm, 1, "en", progress, abort);
        let returned_at = std::time::Instant::now();
        let aborted_at = stopper.join().unwrap();
        assert!(matches!(result, Err(EngineError::Aborted)), "{result:?}");
        let lag = returned_at.duration_since(aborted_at);
        // whisper.cpp checks the flag after each encoder pass and each decoder step; the audio
        // (77 s) needs three encoder passes, so an abort that works costs at most about one of
        // them, while one that is ignored costs the remaining four fifths of the run.
        assert!(
            lag < whole_run / 2,
            "whisper kept going for {lag:?} after the abort; the whole file takes {whole_run:?}"
        );
    }
}
