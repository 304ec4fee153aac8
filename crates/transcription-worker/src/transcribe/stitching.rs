//! A whole file through whisper, window by window: decode a window, keep its speech (when VAD
//! is on, gathering the speech of consecutive windows until it fills a window's length),
//! transcribe it, and put every segment and word time back on the file's clock. Memory is one
//! window's samples, one buffer of speech and whisper's state, whatever the file's length;
//! progress moves with the share of the file read; an abort stops between windows and inside
//! whisper.

use std::fs::File;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::time::{Duration, Instant};

use scribevault_bus::contract::TranscriptReview;
use whisper_rs::WhisperContext;

use crate::audio::{AudioError, PcmStream, WHISPER_SAMPLE_RATE};
use crate::transcribe::guard::transcribe_guarded;
use crate::transcribe::quality::{ReviewRange, merge_ranges};
use crate::transcribe::speech::{Edge, SpeechDetector, SpeechError, SpeechLayout};
use crate::transcribe::windows::Windows;
use crate::whisper::WindowTranscriber;
use crate::whisper::{DecodeOptions, EngineError, ProgressSpan, Segment, Transcriber};

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
    /// Calls to whisper (with VAD, one call hears the speech of one or more windows).
    pub whisper_calls: usize,
    /// The language the transcript is in (detected once, or the one asked for); `None` when
    /// detection heard no speech.
    pub language: Option<String>,
    /// What the quality guard left for a person to check, on the file's clock.
    pub review: TranscriptReview,
    /// Stretches the quality guard had decoded again (calls of
    /// [`crate::whisper::Pass::Retry`]); none on clean audio.
    pub redecodes: usize,
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
    let mut transcriber = Transcriber::new(model, options.decode.clone())?;
    transcribe_windows(file, &mut transcriber, options, progress, abort)
}

/// Transcribes the audio file `file` (read from its start) with `transcriber`, whatever engine
/// is behind it. `progress` gets the overall percentage.
///
/// # Errors
/// [`FileError`]; an abort is `FileError::Engine(EngineError::Aborted)`.
pub fn transcribe_windows(
    file: File,
    transcriber: &mut dyn WindowTranscriber,
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
    let max_samples = options
        .max_audio_seconds
        .saturating_mul(u64::from(WHISPER_SAMPLE_RATE));
    // whisper's per-call temporaries are mapped and unmapped on their own, so a long file's
    // peak memory does not creep up with the heap's history (scribevault_ggml::heap).
    scribevault_ggml::heap::map_large_allocations();
    let mut out = FileTranscript::default();
    let mut speech = SpeechBatch::for_windows(options.window_seconds, detector.is_some());
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
        let Some(detector) = detector.as_mut() else {
            let span = ProgressSpan {
                overall: progress.clone(),
                from,
                to,
            };
            transcribe_batch(
                transcriber,
                windows.samples(),
                None,
                window.offset_ms(),
                span,
                abort,
                &mut out,
            )?;
            report_progress(progress, to);
            continue;
        };
        let detecting = Instant::now();
        let spans = detector.spans(windows.samples())?;
        out.vad_time += detecting.elapsed();
        if speech.would_overflow(SpeechLayout::packed_len(windows.samples().len(), &spans)) {
            speech.flush(transcriber, progress, abort, &mut out)?;
        }
        let offset = usize::try_from(window.offset).unwrap_or(usize::MAX);
        speech.append(windows.samples(), offset, &spans, (from, to));
        if speech.packed.is_empty() {
            report_progress(progress, to);
        }
    }
    speech.flush(transcriber, progress, abort, &mut out)?;
    let total = windows.samples_read();
    if total == 0 {
        return Err(AudioError::NoAudio.into());
    }
    out.audio_seconds = seconds(total);
    out.language = transcriber.language();
    Ok(out)
}

/// Records that the file has been heard up to `to` percent.
fn report_progress(progress: &AtomicU32, to: f64) {
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    progress.fetch_max(to.clamp(0.0, 100.0) as u32, Ordering::Relaxed);
}

/// The packed speech of one or more windows, waiting for whisper, with where it came from in
/// the file and the share of the file it covers.
///
/// With VAD, the speech of consecutive windows is gathered into one buffer of at most a
/// window's length before whisper hears it: whisper pays a whole 30 s encoder pass for the
/// last few seconds of each call, and a window that is mostly silence would otherwise be a
/// call of its own. The buffer is allocated once and kept for the whole file.
#[derive(Default)]
struct SpeechBatch {
    packed: Vec<f32>,
    layout: SpeechLayout,
    from: f64,
    to: f64,
    capacity: usize,
}

impl SpeechBatch {
    fn for_windows(window_seconds: u32, with_vad: bool) -> Self {
        let capacity = window_seconds.max(2) as usize * WHISPER_SAMPLE_RATE as usize;
        let mut batch = Self {
            capacity,
            ..Self::default()
        };
        if with_vad {
            // A window's speech with the pauses put between its pieces can pass the window's
            // length.
            batch.packed.reserve_exact(capacity + capacity / 8);
        }
        batch
    }

    /// Whether `needed` more samples would take the batch past a window's length.
    fn would_overflow(&self, needed: usize) -> bool {
        !self.packed.is_empty() && self.packed.len() + needed > self.capacity
    }

    /// Adds a window's speech (`spans` of `samples`, which start at `offset` in the file) that
    /// covers the file from `from` to `to` percent.
    fn append(
        &mut self,
        samples: &[f32],
        offset: usize,
        spans: &[(usize, usize)],
        (from, to): (f64, f64),
    ) {
        if self.packed.is_empty() {
            self.from = from;
        }
        self.layout.append(samples, offset, spans, &mut self.packed);
        self.to = to;
    }
    /// Transcribes what has been gathered (if anything) and empties the batch, keeping its
    /// allocation.
    fn flush(
        &mut self,
        transcriber: &mut dyn WindowTranscriber,
        progress: &Arc<AtomicU32>,
        abort: &Arc<AtomicBool>,
        out: &mut FileTranscript,
    ) -> Result<(), FileError> {
        if !self.packed.is_empty() {
            let span = ProgressSpan {
                overall: progress.clone(),
                from: self.from,
                to: self.to,
            };
            transcribe_batch(
                transcriber,
                &self.packed,
                Some(&self.layout),
                0,
                span,
                abort,
                out,
            )?;
        }
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        progress.fetch_max(self.to.clamp(0.0, 100.0) as u32, Ordering::Relaxed);
        self.packed.clear();
        self.layout.clear();
        Ok(())
    }
}

/// One whisper call on `pcm`, guarded ([`crate::transcribe::guard`]): its segments, split per piece of
/// speech when `layout` says where the pieces came from, go on the file's clock (`offset_ms`
/// plus the layout's time), and so do the stretches the guard left for review.
fn transcribe_batch(
    transcriber: &mut dyn WindowTranscriber,
    pcm: &[f32],
    layout: Option<&SpeechLayout>,
    offset_ms: i64,
    span: ProgressSpan,
    abort: &Arc<AtomicBool>,
    out: &mut FileTranscript,
) -> Result<(), FileError> {
    out.speech_seconds += seconds(pcm.len() as u64);
    if pcm.is_empty() {
        return Ok(());
    }
    let whispering = Instant::now();
    let guarded = transcribe_guarded(transcriber, pcm, span, abort)?;
    out.whisper_time += whispering.elapsed();
    out.whisper_calls += 1;
    out.redecodes += guarded.redecodes;
    // What whisper freed in smaller blocks goes back too, between calls.
    scribevault_ggml::heap::release_free_memory();
    let place = |ms: i64, edge: Edge| {
        offset_ms + layout.map_or(ms, |layout| layout.to_original_ms(ms, edge))
    };
    let flagged = guarded.review.into_iter().map(|range| ReviewRange {
        start_ms: place(range.start_ms, Edge::Start),
        end_ms: place(range.end_ms, Edge::End).max(place(range.start_ms, Edge::Start)),
        reason: range.reason,
    });
    out.review.ranges = merge_ranges(out.review.ranges.drain(..).chain(flagged).collect());
    for segment in guarded.decoded.into_iter().map(|decoded| decoded.segment) {
        let parts = match layout {
            Some(layout) => split_at_pauses(segment, layout),
            None => vec![segment],
        };
        out.segments.extend(
            parts
                .into_iter()
                .map(|part| on_file_clock(part, offset_ms, layout)),
        );
    }
    Ok(())
}

/// Splits a segment (times in packed audio) whose words lie in more than one piece of
/// speech: whisper hears the 100 ms pauses VAD leaves and often runs on across them, but in
/// the file those pieces may be minutes apart, and a subtitle or a seek must start where each
/// one's speech starts. No part (nor its first word) starts before its own piece.
fn split_at_pauses(segment: Segment, layout: &SpeechLayout) -> Vec<Segment> {
    if segment.words.is_empty() {
        return vec![segment];
    }
    let mut parts: Vec<(usize, Segment)> = Vec::new();
    for (index, word) in segment.words.iter().enumerate() {
        // whisper dates a segment's first token from the segment's start, often in the
        // previous piece's tail; its end says where it was spoken. Later words go by their
        // start (a last word's end often runs on to the next segment).
        let piece = layout.piece_at(if index == 0 {
            word.end_ms
        } else {
            word.start_ms
        });
        let floor = layout.piece_start_ms(piece);
        let mut word = word.clone();
        if parts.last().is_none_or(|(last, _)| *last != piece) {
            word.start_ms = word.start_ms.max(floor);
            word.end_ms = word.end_ms.max(word.start_ms);
            let start_ms = if parts.is_empty() {
                segment.start_ms.max(floor)
            } else {
                word.start_ms
            };
            parts.push((
                piece,
                Segment {
                    start_ms,
                    end_ms: word.end_ms,
                    text: String::new(),
                    words: Vec::new(),
                },
            ));
        }
        if let Some((_, part)) = parts.last_mut() {
            part.end_ms = part.end_ms.max(word.end_ms);
            if !part.text.is_empty() {
                part.text.push(' ');
            }
            part.text.push_str(&word.text);
            part.words.push(word);
        }
    }
    if parts.len() == 1 {
        // One piece: whisper's own text (spacing, punctuation) and end stay.
        let (_, part) = parts.remove(0);
        return vec![Segment {
            start_ms: part.start_ms,
            words: part.words,
            ..segment
        }];
    }
    let mut parts: Vec<Segment> = parts.into_iter().map(|(_, part)| part).collect();
    if let Some(last) = parts.last_mut() {
        last.end_ms = last.end_ms.max(segment.end_ms);
    }
    parts
}

/// A segment with times in whisper's audio (a window, or packed speech), moved to the file's
/// clock: `offset` plus the time itself, or plus where the layout says it came from.
fn on_file_clock(mut segment: Segment, offset: i64, layout: Option<&SpeechLayout>) -> Segment {
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

    fn word(start_ms: i64, end_ms: i64, text: &str) -> crate::whisper::Word {
        crate::whisper::Word {
            start_ms,
            end_ms,
            text: text.into(),
            probability: 0.9,
        }
    }

    #[test]
    fn a_segment_across_a_removed_pause_becomes_one_per_piece_of_speech() {
        const MS: usize = 16;
        let window = vec![0.5_f32; 10_000 * MS];
        let layout = SpeechLayout::pack(
            &window,
            &[(1_000 * MS, 2_000 * MS), (6_000 * MS, 7_000 * MS)],
            &mut Vec::new(),
        );
        // Packed: piece one 0-1200 ms, a pause to 1300, piece two 1300-2500.
        let segment = Segment {
            start_ms: 80,
            end_ms: 2_400,
            text: "Welcome back. Today we".into(),
            words: vec![
                word(100, 500, "Welcome"),
                word(500, 1_100, "back."),
                word(1_400, 1_900, "Today"),
                word(1_900, 2_300, "we"),
            ],
        };
        let parts: Vec<Segment> = split_at_pauses(segment, &layout)
            .into_iter()
            .map(|part| on_file_clock(part, 60_000, Some(&layout)))
            .collect();
        assert_eq!(parts.len(), 2, "{parts:?}");
        assert_eq!(parts[0].text, "Welcome back.");
        assert_eq!(parts[1].text, "Today we");
        // Window at 60 s; piece two starts at window 5.9 s (its 100 ms of context).
        assert_eq!(parts[0].start_ms, 60_000 + 980);
        assert_eq!(parts[1].start_ms, 60_000 + 6_000);
        assert_eq!(parts[1].words[0].start_ms, 60_000 + 6_000);
        assert_eq!(parts[1].end_ms, 60_000 + 7_000);
        assert!(parts[0].end_ms <= 60_000 + 2_100);
    }

    #[test]
    fn a_segment_dated_from_the_previous_pieces_tail_starts_with_its_own_speech() {
        const MS: usize = 16;
        let window = vec![0.5_f32; 10_000 * MS];
        let layout = SpeechLayout::pack(
            &window,
            &[(1_000 * MS, 2_000 * MS), (6_000 * MS, 7_000 * MS)],
            &mut Vec::new(),
        );
        // whisper starts the segment (and its first token) at 1,150 ms, inside piece one's
        // tail, though the word is spoken in piece two (it ends at 1,700 ms).
        let segment = Segment {
            start_ms: 1_150,
            end_ms: 2_400,
            text: "Each recognition".into(),
            words: vec![
                word(1_150, 1_700, "Each"),
                word(1_700, 2_300, "recognition"),
            ],
        };
        let parts = split_at_pauses(segment, &layout);
        assert_eq!(parts.len(), 1);
        assert_eq!(parts[0].text, "Each recognition");
        let part = on_file_clock(parts[0].clone(), 0, Some(&layout));
        // Piece two starts at window 5,900 ms (its 100 ms of context), not at 2,050.
        assert_eq!(part.start_ms, 5_900);
        assert_eq!(part.words[0].start_ms, 5_900);
        assert_eq!(part.end_ms, 7_000);
    }

    #[test]
    fn a_segment_inside_one_piece_is_left_whole() {
        let window = vec![0.5_f32; 3_000 * 16];
        let layout = SpeechLayout::pack(&window, &[(0, 3_000 * 16)], &mut Vec::new());
        let segment = Segment {
            start_ms: 0,
            end_ms: 900,
            text: "one two".into(),
            words: vec![word(0, 400, "one"), word(400, 900, "two")],
        };
        assert_eq!(split_at_pauses(segment.clone(), &layout), vec![segment]);
    }

    #[test]
    fn the_search_region_is_a_quarter_of_the_window_up_to_15_s() {
        assert_eq!(search_seconds(20), 5);
        assert_eq!(search_seconds(300), 15);
    }
}
