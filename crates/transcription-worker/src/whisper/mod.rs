//! Speech to text, behind a trait: whisper.cpp in production ([`WhisperCpp`]), a script in
//! tests ([`FakeWhisper`]). The seam is one window of 16 kHz mono audio; what surrounds it
//! (decoding, windows, VAD, the duration limit, putting times back on the file's clock) is the
//! worker's own code and runs the same with either.

mod cpp;
pub mod engine;
mod fake;

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::sync::atomic::{AtomicU32, Ordering};

pub use cpp::WhisperCpp;
pub use engine::{ModelCache, Transcriber, transcribe};
pub use fake::{FakeWhisper, WhisperCalls};

/// Something that turns speech into text. Its calls block (CPU work, model loading): the
/// pipeline makes them on blocking threads.
pub trait Transcribe: Send + Sync {
    /// Gets ready to transcribe one file with `model` (loading it on first use), decoding as
    /// `options` say.
    ///
    /// # Errors
    /// [`EngineError::Model`] when the model cannot be had (no retry helps);
    /// [`EngineError::Whisper`] when the engine cannot start (another attempt may work).
    fn start(
        &self,
        model: &str,
        options: &DecodeOptions,
    ) -> Result<Box<dyn WindowTranscriber>, EngineError>;
}

/// One file's transcription, one window at a time (whisper's state is made once per file).
pub trait WindowTranscriber: Send {
    /// Transcribes 16 kHz mono `pcm`, with times relative to its first sample, decoding as
    /// `pass` says. `progress` receives the progress through `pcm`; once `abort` is set the
    /// call returns [`EngineError::Aborted`] at its next check.
    ///
    /// # Errors
    /// [`EngineError::Aborted`], or a failure of the engine.
    fn transcribe(
        &mut self,
        pcm: &[f32],
        pass: Pass,
        progress: ProgressSpan,
        abort: Arc<AtomicBool>,
    ) -> Result<Vec<Decoded>, EngineError>;

    /// The file's language after the windows so far: the one asked for, the one detected on
    /// the first window with speech (`auto`), or `None` while none had speech (or for an
    /// engine that knows no languages, such as a test's script).
    fn language(&self) -> Option<String> {
        None
    }
}

/// One recognised stretch of speech: the segment JSON's format is a contract with the library.
pub use scribevault_bus::contract::TranscriptSegment as Segment;
/// One word of a segment, with its time.
pub use scribevault_bus::contract::TranscriptWord as Word;

/// Which decoding a call gets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Pass {
    /// The file's options: greedy, with whisper.cpp's own temperature fallback where its token
    /// entropy or log-probability says so.
    #[default]
    First,
    /// A stretch the quality guard found suspect, decoded again: greedy decoding at
    /// temperature 0 is deterministic and would give the same text, so sampling starts at
    /// [`RETRY_TEMPERATURE`] (best of [`RETRY_BEST_OF`], whisper.cpp's fallback still climbing
    /// from there) without the earlier text as prompt (a loop in the prompt is what the
    /// decoder copies).
    Retry,
}

/// The first temperature of a [`Pass::Retry`] (whisper's and faster-whisper's fallback step).
pub const RETRY_TEMPERATURE: f32 = 0.2;
/// Candidates sampled per temperature on a [`Pass::Retry`] (whisper's and faster-whisper's
/// `best_of` is 5; a retry is rare, but tiny.en's decoder is most of a call's cost).
pub const RETRY_BEST_OF: i32 = 3;

/// A segment as the decoder gave it, with the decoder's own figures the quality guard reads.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Decoded {
    pub segment: Segment,
    /// Mean natural log-probability of the segment's text tokens (faster-whisper judges a
    /// window by the same mean; whisper.cpp only by its whole 30 s sequence).
    pub avg_logprob: f32,
    /// Text tokens the mean is over.
    pub tokens: u32,
    /// whisper's probability that the 30 s window the segment came from holds no speech.
    pub no_speech_prob: f32,
}

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

/// See [`DecodeOptions::max_text_context`].
pub const DEFAULT_MAX_TEXT_CONTEXT: u32 = 128;

/// How whisper decodes, the same for every window of a file.
#[derive(Debug, Clone)]
pub struct DecodeOptions {
    pub threads: u32,
    /// The spoken language (`auto` detects it).
    pub language: String,
    /// Whether each 30 s decoder window starts without the previous one's text as prompt:
    /// a repetition loop then cannot carry over (measured in `docs/performance.md`).
    pub no_context: bool,
    /// Tokens of earlier text given to the decoder as its prompt (whisper.cpp's
    /// `n_max_text_ctx`; whisper caps it at 224). whisper.cpp computes the vocabulary's
    /// logits for every prompt token, about 200 KB and 20 M multiply-adds each with tiny:
    /// the full 224 cost about 90 MB and much of the decoder's time (`docs/performance.md`).
    pub max_text_context: u32,
    /// Whether a window whose text looks wrong (too repetitive, too unlikely) is decoded
    /// again at higher temperatures, as whisper and faster-whisper do by default.
    pub temperature_fallback: bool,
    /// Whether a call on less than 30 s of audio runs the encoder on that length (plus a
    /// margin) instead of a whole 30 s window (whisper.cpp's `audio_ctx`; #1855 measured about
    /// 3x on short clips and reports repetition loops without a margin). Off by default: see
    /// `docs/performance.md` for what it gave here.
    pub trim_audio_ctx: bool,
}

impl DecodeOptions {
    /// Greedy decoding with `threads` threads in `language`.
    #[must_use]
    pub fn new(threads: u32, language: &str) -> Self {
        Self {
            threads,
            language: language.to_owned(),
            no_context: false,
            max_text_context: DEFAULT_MAX_TEXT_CONTEXT,
            temperature_fallback: true,
            trim_audio_ctx: false,
        }
    }
}

/// Where whisper's 0–100 % through one window lands in the file's overall percentage, which
/// only ever grows.
#[derive(Debug, Clone)]
pub struct ProgressSpan {
    pub overall: Arc<AtomicU32>,
    pub from: f64,
    pub to: f64,
}

impl ProgressSpan {
    /// Whisper's percentage is the file's (one window, or one call).
    #[must_use]
    pub fn whole(overall: Arc<AtomicU32>) -> Self {
        Self {
            overall,
            from: 0.0,
            to: 100.0,
        }
    }

    /// Whisper is `percent` % through its part of the file.
    pub fn report(&self, percent: i32) {
        let share = f64::from(percent.clamp(0, 100)) / 100.0;
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        let overall = (self.from + (self.to - self.from) * share).clamp(0.0, 100.0) as u32;
        self.overall.fetch_max(overall, Ordering::Relaxed);
    }
}
