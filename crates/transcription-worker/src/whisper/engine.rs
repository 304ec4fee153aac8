//! whisper.cpp through whisper-rs: each model is loaded once per process and shared; every
//! transcription gets its own state. Runs on blocking threads only.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use whisper_rs::{
    FullParams, SamplingStrategy, WhisperContext, WhisperContextParameters, WhisperState,
};

use super::{
    DecodeOptions, Decoded, EngineError, Pass, ProgressSpan, RETRY_BEST_OF, RETRY_TEMPERATURE,
    Segment, Word,
};
use crate::language::LanguagePlan;

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

/// One file's transcription: whisper's state (its buffers, tens of MB) is made once and used
/// for every window of the file.
pub struct Transcriber {
    state: WhisperState,
    end_of_text: i32,
    options: DecodeOptions,
    /// The file's language: `options.language` decided window by window (detected once).
    language: LanguagePlan,
}

impl Transcriber {
    /// A transcriber for `model`.
    ///
    /// # Errors
    /// [`EngineError::Whisper`] when whisper cannot allocate its state.
    pub fn new(model: &WhisperContext, options: DecodeOptions) -> Result<Self, EngineError> {
        let state = model
            .create_state()
            .map_err(|e| EngineError::Whisper(e.to_string()))?;
        Ok(Self {
            state,
            end_of_text: model.token_eot(),
            language: LanguagePlan::new(&options.language, model.is_multilingual()),
            options,
        })
    }

    /// Transcribes 16 kHz mono `pcm`, with times relative to its first sample, decoding as
    /// `pass` says. `progress` receives whisper's progress through `pcm`; setting `abort` stops
    /// the computation at whisper's next check.
    ///
    /// # Errors
    /// [`EngineError::Aborted`] or a whisper failure.
    pub fn transcribe(
        &mut self,
        pcm: &[f32],
        pass: Pass,
        progress: ProgressSpan,
        abort: Arc<AtomicBool>,
    ) -> Result<Vec<Decoded>, EngineError> {
        if pcm.is_empty() {
            // No audio, no text; whisper.cpp would refuse the call and fail the file.
            return Ok(Vec::new());
        }
        let mut params = full_params(&self.options, self.language.for_window(), pcm.len(), pass);
        params.set_progress_callback_safe(move |value: i32| progress.report(value));
        let abort_flag = abort.clone();
        // whisper-rs 0.16's `set_abort_callback_safe` boxes the closure as `Box<dyn FnMut>` but
        // calls it back as the closure's own type; handing it a `Box<dyn FnMut>` makes both the
        // same type, so the callback reads our flag and not a misread pointer.
        let abort_callback: Box<dyn FnMut() -> bool> =
            Box::new(move || abort_flag.load(Ordering::Relaxed));
        params.set_abort_callback_safe::<_, Box<dyn FnMut() -> bool>>(abort_callback);
        let outcome = self.state.full(params, pcm);
        if abort.load(Ordering::Relaxed) {
            return Err(EngineError::Aborted);
        }
        outcome.map_err(|e| EngineError::Whisper(e.to_string()))?;
        let segments = self.read_segments()?;
        let detected = whisper_rs::get_lang_str(self.state.full_lang_id_from_state());
        self.language.after_window(detected, !segments.is_empty());
        Ok(segments)
    }

    /// The segments of the last call, without blanks, each with its words and how sure whisper
    /// was of it.
    fn read_segments(&self) -> Result<Vec<Decoded>, EngineError> {
        let mut segments = Vec::new();
        for segment in self.state.as_iter() {
            let text = segment
                .to_str_lossy()
                .map_err(|e| EngineError::Whisper(e.to_string()))?
                .trim()
                .to_owned();
            if text.is_empty() || text == "[BLANK_AUDIO]" {
                continue;
            }
            // whisper.cpp counts in centiseconds.
            let start_ms = segment.start_timestamp() * 10;
            let end_ms = segment.end_timestamp() * 10;
            let mut words = WordBuilder::new(start_ms, end_ms);
            let (mut logprob_sum, mut tokens) = (0.0_f32, 0_u32);
            for index in 0..segment.n_tokens() {
                let Some(token) = segment.get_token(index) else {
                    continue;
                };
                if token.token_id() >= self.end_of_text {
                    continue;
                }
                let data = token.token_data();
                logprob_sum += data.plog;
                tokens += 1;
                words.push(
                    token.to_bytes().unwrap_or_default(),
                    data.t0 * 10,
                    data.t1 * 10,
                    data.p,
                );
            }
            #[allow(clippy::cast_precision_loss)]
            let avg_logprob = logprob_sum / tokens.max(1) as f32;
            segments.push(Decoded {
                segment: Segment {
                    start_ms,
                    end_ms,
                    text,
                    words: words.finish(),
                },
                avg_logprob,
                tokens,
                no_speech_prob: segment.no_speech_probability(),
            });
        }
        Ok(segments)
    }

    /// The file's language so far (see [`LanguagePlan::language`]).
    #[must_use]
    pub fn language(&self) -> Option<&str> {
        self.language.language()
    }
}

/// The encoder length for a call on `samples` of 16 kHz audio shorter than whisper's 30 s
/// window: its share of the window's 1,500 positions plus 128 (about 2.6 s) of margin, as
/// whisper.cpp #1855 suggests; `None` from about 27 s up, where trimming saves nothing.
fn trimmed_audio_ctx(samples: usize) -> Option<i32> {
    const WINDOW_SAMPLES: usize = 30 * 16_000;
    const POSITIONS: usize = 1_500;
    const MARGIN: usize = 128;
    let positions = samples.div_ceil(WINDOW_SAMPLES / POSITIONS) + MARGIN;
    (positions < POSITIONS)
        .then(|| i32::try_from(positions).ok())
        .flatten()
}

/// Words from whisper's text tokens: a token starting with a space starts a word. Bytes are
/// joined before decoding, since one character can span two tokens. Times stay inside the
/// segment and never go backwards.
struct WordBuilder {
    segment_start: i64,
    segment_end: i64,
    words: Vec<Word>,
    bytes: Vec<u8>,
    start: i64,
    end: i64,
    probabilities: Vec<f32>,
}

impl WordBuilder {
    fn new(segment_start: i64, segment_end: i64) -> Self {
        Self {
            segment_start,
            segment_end,
            words: Vec::new(),
            bytes: Vec::new(),
            start: segment_start,
            end: segment_start,
            probabilities: Vec::new(),
        }
    }

    fn push(&mut self, bytes: &[u8], start_ms: i64, end_ms: i64, probability: f32) {
        if bytes.first() == Some(&b' ') && !self.bytes.is_empty() {
            self.close();
        }
        let floor = self
            .words
            .last()
            .map_or(self.segment_start, |word| word.end_ms);
        let start_ms = start_ms.clamp(floor, self.segment_end.max(floor));
        let end_ms = end_ms.clamp(start_ms, self.segment_end.max(start_ms));
        if self.bytes.is_empty() {
            self.start = start_ms;
        }
        self.end = end_ms.max(self.start);
        self.bytes.extend_from_slice(bytes);
        self.probabilities.push(probability);
    }

    fn close(&mut self) {
        let text = String::from_utf8_lossy(&self.bytes).trim().to_owned();
        if !text.is_empty() {
            #[allow(clippy::cast_precision_loss)]
            let probability =
                self.probabilities.iter().sum::<f32>() / self.probabilities.len().max(1) as f32;
            self.words.push(Word {
                start_ms: self.start,
                end_ms: self.end,
                text,
                probability,
            });
        }
        self.bytes.clear();
        self.probabilities.clear();
    }

    fn finish(mut self) -> Vec<Word> {
        self.close();
        self.words
    }
}

/// Transcribes 16 kHz mono `pcm` in one go (short audio, tests and benchmarks; files go
/// through the windowed pipeline).
///
/// # Errors
/// [`EngineError::Aborted`] or a whisper failure.
pub fn transcribe(
    model: &WhisperContext,
    pcm: &[f32],
    options: DecodeOptions,
    progress: Arc<AtomicU32>,
    abort: Arc<AtomicBool>,
) -> Result<Vec<Segment>, EngineError> {
    let decoded = Transcriber::new(model, options)?.transcribe(
        pcm,
        Pass::First,
        ProgressSpan::whole(progress),
        abort,
    )?;
    Ok(decoded.into_iter().map(|decoded| decoded.segment).collect())
}

/// Whisper's parameters for one call, before the progress and abort callbacks.
fn full_params<'a>(
    options: &DecodeOptions,
    language: &'a str,
    samples: usize,
    pass: Pass,
) -> FullParams<'a, 'a> {
    let best_of = if pass == Pass::Retry {
        RETRY_BEST_OF
    } else {
        1
    };
    let mut params = FullParams::new(SamplingStrategy::Greedy { best_of });
    params.set_n_threads(i32::try_from(options.threads.max(1)).unwrap_or(1));
    params.set_language(Some(language));
    params.set_no_context(options.no_context || pass == Pass::Retry);
    params.set_n_max_text_ctx(i32::try_from(options.max_text_context).unwrap_or(i32::MAX));
    if pass == Pass::Retry {
        params.set_temperature(RETRY_TEMPERATURE);
    } else if !options.temperature_fallback {
        params.set_temperature_inc(0.0);
    }
    if options.trim_audio_ctx
        && let Some(audio_ctx) = trimmed_audio_ctx(samples)
    {
        params.set_audio_ctx(audio_ctx);
    }
    params.set_token_timestamps(true);
    params.set_print_progress(false);
    params.set_print_realtime(false);
    params.set_print_timestamps(false);
    params.set_print_special(false);
    params
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_calls_well_under_30_s_get_a_shorter_encoder() {
        assert_eq!(trimmed_audio_ctx(10 * 16_000), Some(500 + 128));
        assert_eq!(trimmed_audio_ctx(1), Some(1 + 128));
        assert_eq!(trimmed_audio_ctx(28 * 16_000), None);
        assert_eq!(trimmed_audio_ctx(120 * 16_000), None);
    }

    fn long_pcm() -> Vec<f32> {
        crate::audio::read_all(
            &scribevault_test_support::shared_dir().join("audio/long-01-bread.mp3"),
        )
        .unwrap()
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
            DecodeOptions::new(1, "en"),
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
        let result = transcribe(&model, &pcm, DecodeOptions::new(1, "en"), progress, abort);
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
