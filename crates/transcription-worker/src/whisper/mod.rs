//! Speech to text, behind a trait: whisper.cpp in production ([`WhisperCpp`]), a script in
//! tests ([`FakeWhisper`]). The seam is one window of 16 kHz mono audio; what surrounds it
//! (decoding, windows, VAD, the duration limit, putting times back on the file's clock) is the
//! worker's own code and runs the same with either.

mod cpp;
mod fake;

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

pub use cpp::WhisperCpp;
pub use fake::{FakeWhisper, WhisperCalls};

use crate::engine::{DecodeOptions, Decoded, EngineError, Pass, ProgressSpan};

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
