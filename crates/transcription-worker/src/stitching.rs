//! A whole file through whisper, window by window: decode a window, keep its speech (when VAD
//! is on), transcribe it, and put every segment and word time back on the file's clock. Memory
//! is one window's samples plus whisper's state, whatever the file's length; progress moves
//! with the share of the file read; an abort stops between windows and inside whisper.

use std::fs::File;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::time::{Duration, Instant};

use whisper_rs::WhisperContext;

use crate::audio::{AudioError, PcmStream, WHISPER_SAMPLE_RATE};
use crate::engine::{DecodeOptions, EngineError, ProgressSpan, Segment, Transcriber};
use crate::speech::{Edge, SpeechDetector, SpeechError, SpeechLayout};
use crate::windows::{Window, Windows};

/// How a file is transcribed.
#[derive(Debug, Clone)]
pub struct AudioOptions {
    pub decode: DecodeOptions,
    /// The Silero model; `None` transcribes silence too.
    pub vad_model: Option<PathBuf>,
    /// The longest window, in seconds.
    pub window_seconds: u32,
    /// Longer audio is refused.
    pub max_audio_seconds: u64,
}

/// What a file gave, with the time each stage took.
#[derive(Debug, Clone, Default)]
pub struct FileTranscript {
    pub segments: Vec<Segment>,
    pub audio_seconds: f64,
    /// Audio whisper actually heard (all of it without VAD).
    pub speech_seconds: f64,
    pub decode_time: Duration,
    pub vad_time: Duration,
    pub whisper_time: Duration,
    /// Where each window started, in ms of the file.
    pub window_starts_ms: Vec<i64>,
}

/// Why a file could not be transcribed.
#[derive(Debug, thiserror::Error)]
pub enum FileError {
    #[error(transparent)]
    Audio(#[from] AudioError),
    #[error(transparent)]
    Speech(#[from] SpeechError),
    #[error(transparent)]
    Engine(#[from] EngineError),
    /// Longer than `SCRIBEVAULT_MAX_AUDIO_SECONDS`.
    #[error("The audio is longer than the limit of {}", scribevault_core::human::human_duration(*.limit_seconds))]
    TooLong { limit_seconds: u64 },
}

/// Where in a window the cut is looked for: the last quarter, at most 15 s.
fn search_seconds(window_seconds: u32) -> u32 {
    (window_seconds / 4).clamp(1, 15)
}

fn seconds(samples: u64) -> f64 {
    #[allow(clippy::cast_precision_loss)]
    let seconds = samples as f64 / f64::from(WHISPER_SAMPLE_RATE);
    seconds
}

/// Transcribes the audio file `file` (read from its start) with `model`. `progress` gets the
/// overall percentage.
///
/// # Errors
/// [`FileError`]; an abort is `FileError::Engine(EngineError::Aborted)`.
pub fn transcribe_in_windows(
    file: File,
    model: &WhisperContext,
    options: &AudioOptions,
    progress: &Arc<AtomicU32>,
    abort: &Arc<AtomicBool>,
) -> Result<FileTranscript, FileError> {
    let started = Instant::now();
    let stream = PcmStream::from_file(file)?;
    let mut windows = Windows::new(
        stream,
        options.window_seconds,
        search_seconds(options.window_seconds),
    );
    let mut detector = options
        .vad_model
        .as_deref()
        .map(|path| SpeechDetector::load(path, options.decode.threads))
        .transpose()?;
    let mut transcriber = Transcriber::new(model, options.decode.clone())?;
    let max_samples = options
        .max_audio_seconds
        .saturating_mul(u64::from(WHISPER_SAMPLE_RATE));
    let mut out = FileTranscript::default();
    let mut speech_samples = 0u64;
    // The speech of one window, packed; its allocation is kept from window to window.
    let mut packed = Vec::new();
    out.decode_time = started.elapsed();
    loop {
        if abort.load(Ordering::Relaxed) {
            return Err(EngineError::Aborted.into());
        }
        let from = windows.progress() * 100.0;
        let decoding = Instant::now();
        let Some(window) = windows.next_window()? else {
            break;
        };
        out.decode_time += decoding.elapsed();
        if windows.samples_read() > max_samples {
            return Err(FileError::TooLong {
                limit_seconds: options.max_audio_seconds,
            });
        }
        let to = windows.progress() * 100.0;
        out.window_starts_ms.push(window.offset_ms());
        let (pcm, layout) = match detector.as_mut() {
            None => (windows.samples(), None),
            Some(detector) => {
                let detecting = Instant::now();
                let spans = detector.spans(windows.samples())?;
                let layout = SpeechLayout::pack(windows.samples(), &spans, &mut packed);
                out.vad_time += detecting.elapsed();
                (packed.as_slice(), Some(layout))
            }
        };
        speech_samples += pcm.len() as u64;
        if !pcm.is_empty() {
            let span = ProgressSpan {
                overall: progress.clone(),
                from,
                to,
            };
            let whispering = Instant::now();
            let found = transcriber.transcribe(pcm, span, abort.clone())?;
            out.whisper_time += whispering.elapsed();
            out.segments.extend(
                found
                    .into_iter()
                    .map(|segment| on_file_clock(segment, window, layout.as_ref())),
            );
        }
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        progress.fetch_max(to.clamp(0.0, 100.0) as u32, Ordering::Relaxed);
    }
    let total = windows.samples_read();
    if total == 0 {
        return Err(AudioError::NoAudio.into());
    }
    out.audio_seconds = seconds(total);
    out.speech_seconds = seconds(speech_samples);
    Ok(out)
}

/// A segment with times in the window's (packed) audio, moved to the file's clock.
fn on_file_clock(mut segment: Segment, window: Window, layout: Option<&SpeechLayout>) -> Segment {
    let offset = window.offset_ms();
    let place =
        |ms: i64, edge: Edge| offset + layout.map_or(ms, |layout| layout.to_original_ms(ms, edge));
    segment.start_ms = place(segment.start_ms, Edge::Start);
    segment.end_ms = place(segment.end_ms, Edge::End).max(segment.start_ms);
    for word in &mut segment.words {
        word.start_ms = place(word.start_ms, Edge::Start);
        word.end_ms = place(word.end_ms, Edge::End).max(word.start_ms);
    }
    segment
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_search_region_is_a_quarter_of_the_window_up_to_15_s() {
        assert_eq!(search_seconds(20), 5);
        assert_eq!(search_seconds(300), 15);
    }
}
