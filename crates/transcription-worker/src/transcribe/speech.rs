//! Skipping silence: Silero VAD (whisper.cpp's standalone VAD context) finds the speech in a
//! window, the speech is packed into one shorter buffer for whisper, and every time whisper
//! reports in that buffer is mapped back to the original audio.
//!
//! whisper.cpp's own `FullParams::enable_vad` is not used: it runs only inside `whisper_full`,
//! and whisper-rs transcribes through `whisper_full_with_state`, where it silently does nothing
//! (whisper.cpp #3402). The packing follows whisper.cpp's `whisper_vad()`: each speech span
//! plus a little context, with a short silence between spans so whisper hears a pause.

use std::path::Path;

use whisper_rs::{WhisperVadContext, WhisperVadContextParams, WhisperVadParams};

use crate::audio::WHISPER_SAMPLE_RATE;

const SAMPLES_PER_MS: usize = WHISPER_SAMPLE_RATE as usize / 1000;
/// Context kept on each side of a speech span, and the silence put between two spans.
const CONTEXT_MS: usize = 100;
const GAP_MS: usize = 100;
/// Only silence longer than this is removed; shorter pauses are part of speech.
const MIN_SILENCE_MS: i32 = 1_000;
const MIN_SPEECH_MS: i32 = 250;
const SPEECH_PAD_MS: i32 = 30;
/// Threads for the VAD model.
const VAD_THREADS: u32 = 1;

/// Why speech could not be detected.
#[derive(Debug, thiserror::Error)]
pub enum SpeechError {
    #[error("The voice activity model {0} could not be loaded")]
    Model(String),
    #[error("Voice activity detection failed: {0}")]
    Detection(String),
}

/// One stretch of the packed buffer and where it came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Piece {
    packed_start: usize,
    original_start: usize,
    len: usize,
}

/// Where packed samples came from in the window.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SpeechLayout {
    pieces: Vec<Piece>,
}

/// Which side of a removed silence a time that falls in it belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Edge {
    /// A start: it moves forward to where the next speech begins.
    Start,
    /// An end: it moves back to where the previous speech ended.
    End,
}

impl SpeechLayout {
    /// Packs the sample ranges `spans` (sorted, in window samples) of `window` into `packed`
    /// (cleared first; its allocation is kept from window to window): each span widened by
    /// [`CONTEXT_MS`] on both sides, spans that then touch merged, and [`GAP_MS`] of silence
    /// between two of them.
    pub fn pack(window: &[f32], spans: &[(usize, usize)], packed: &mut Vec<f32>) -> Self {
        packed.clear();
        let mut layout = Self::default();
        layout.append(window, 0, spans, packed);
        layout
    }

    /// The spans as they are packed: widened by [`CONTEXT_MS`], clamped to the window, merged
    /// where they then touch.
    fn widen(window_len: usize, spans: &[(usize, usize)]) -> Vec<(usize, usize)> {
        let context = CONTEXT_MS * SAMPLES_PER_MS;
        let mut widened: Vec<(usize, usize)> = Vec::new();
        for &(start, end) in spans {
            let start = start.saturating_sub(context);
            let end = (end + context).min(window_len);
            if start >= end {
                continue;
            }
            match widened.last_mut() {
                Some(last) if start <= last.1 => last.1 = last.1.max(end),
                _ => widened.push((start, end)),
            }
        }
        widened
    }

    /// Samples [`SpeechLayout::append`] would add to a buffer that already holds speech (the
    /// pauses included), so a caller can tell whether a window's speech still fits.
    #[must_use]
    pub fn packed_len(window_len: usize, spans: &[(usize, usize)]) -> usize {
        let widened = Self::widen(window_len, spans);
        widened.iter().map(|(s, e)| e - s).sum::<usize>() + GAP_MS * SAMPLES_PER_MS * widened.len()
    }

    /// Appends the speech of `window`, which starts at sample `window_offset` of the file, to
    /// `packed` and to this layout: times then map back to the file's clock, so the speech of
    /// several windows can go to whisper in one call. Speech that carries on exactly where the
    /// previous piece ended (a window cut inside it) extends that piece, without a pause.
    pub fn append(
        &mut self,
        window: &[f32],
        window_offset: usize,
        spans: &[(usize, usize)],
        packed: &mut Vec<f32>,
    ) {
        let widened = Self::widen(window.len(), spans);
        let gap = GAP_MS * SAMPLES_PER_MS;
        packed.reserve(widened.iter().map(|(s, e)| e - s).sum::<usize>() + gap * widened.len());
        for (start, end) in widened {
            let original_start = window_offset + start;
            if let Some(last) = self.pieces.last_mut()
                && last.original_start + last.len == original_start
                && last.packed_start + last.len == packed.len()
            {
                last.len += end - start;
                packed.extend_from_slice(&window[start..end]);
                continue;
            }
            if !packed.is_empty() {
                packed.resize(packed.len() + gap, 0.0);
            }
            self.pieces.push(Piece {
                packed_start: packed.len(),
                original_start,
                len: end - start,
            });
            packed.extend_from_slice(&window[start..end]);
        }
    }

    /// Forgets every piece (the packed buffer is cleared by its owner).
    pub fn clear(&mut self) {
        self.pieces.clear();
    }

    /// Which piece of speech packed time `packed_ms` belongs to; a time in an inserted pause
    /// belongs to the speech after it.
    #[must_use]
    pub fn piece_at(&self, packed_ms: i64) -> usize {
        let sample = usize::try_from(packed_ms.max(0)).unwrap_or(0) * SAMPLES_PER_MS;
        let index = self
            .pieces
            .partition_point(|piece| piece.packed_start <= sample)
            .saturating_sub(1);
        match self.pieces.get(index) {
            Some(piece)
                if sample > piece.packed_start + piece.len && index + 1 < self.pieces.len() =>
            {
                index + 1
            }
            _ => index,
        }
    }

    /// Where piece `index` starts in the packed audio, in ms.
    #[must_use]
    pub fn piece_start_ms(&self, index: usize) -> i64 {
        self.pieces.get(index).map_or(0, |piece| {
            i64::try_from(piece.packed_start / SAMPLES_PER_MS).unwrap_or(i64::MAX)
        })
    }

    /// Whether there is no speech at all.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.pieces.is_empty()
    }

    /// Samples of the window that were kept.
    #[must_use]
    pub fn kept_samples(&self) -> usize {
        self.pieces.iter().map(|piece| piece.len).sum()
    }

    /// The original time (ms; window or file, as the pieces were appended) of packed time
    /// `packed_ms`. A time inside an inserted silence goes
    /// to the speech on its `edge` side, so a segment never starts before its words nor ends
    /// after them.
    #[must_use]
    pub fn to_original_ms(&self, packed_ms: i64, edge: Edge) -> i64 {
        let Some(first) = self.pieces.first() else {
            return packed_ms;
        };
        let sample = usize::try_from(packed_ms.max(0)).unwrap_or(0) * SAMPLES_PER_MS;
        let index = self
            .pieces
            .partition_point(|piece| piece.packed_start <= sample);
        let original = if index == 0 {
            first.original_start
        } else {
            let piece = self.pieces[index - 1];
            let into = sample - piece.packed_start;
            if into <= piece.len {
                piece.original_start + into
            } else {
                match (edge, self.pieces.get(index)) {
                    (Edge::Start, Some(next)) => next.original_start,
                    _ => piece.original_start + piece.len,
                }
            }
        };
        i64::try_from(original / SAMPLES_PER_MS).unwrap_or(i64::MAX)
    }
}

/// Silero VAD, loaded once per file.
pub struct SpeechDetector {
    context: WhisperVadContext,
}

impl SpeechDetector {
    /// Loads the ggml Silero model at `path` (`scripts/install-vad-model.sh` builds it).
    ///
    /// # Errors
    /// [`SpeechError::Model`] when the file is missing or not a VAD model.
    pub fn load(path: &Path, threads: u32) -> Result<Self, SpeechError> {
        let name = path.display().to_string();
        if !path.is_file() {
            return Err(SpeechError::Model(name));
        }
        let mut params = WhisperVadContextParams::new();
        // Its default is 4 threads. The model is a small LSTM over 32 ms chunks: more threads
        // only add ggml's busy-waiting (measured in docs/performance.md), so `threads` is a cap.
        params.set_n_threads(i32::try_from(threads.clamp(1, VAD_THREADS)).unwrap_or(1));
        params.set_use_gpu(false);
        let context =
            WhisperVadContext::new(&name, params).map_err(|_| SpeechError::Model(name))?;
        Ok(Self { context })
    }

    /// The speech in `window` as sample ranges, in order.
    ///
    /// # Errors
    /// [`SpeechError::Detection`] when whisper.cpp fails.
    pub fn spans(&mut self, window: &[f32]) -> Result<Vec<(usize, usize)>, SpeechError> {
        if window.is_empty() {
            return Ok(Vec::new());
        }
        let mut params = WhisperVadParams::new();
        params.set_min_silence_duration(MIN_SILENCE_MS);
        params.set_min_speech_duration(MIN_SPEECH_MS);
        params.set_speech_pad(SPEECH_PAD_MS);
        let segments = self
            .context
            .segments_from_samples(params, window)
            .map_err(|e| SpeechError::Detection(e.to_string()))?;
        // whisper.cpp reports centiseconds.
        let to_sample = |centiseconds: f32| {
            #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
            let sample = (f64::from(centiseconds.max(0.0)) * 10.0 * SAMPLES_PER_MS as f64) as usize;
            sample.min(window.len())
        };
        Ok(segments
            .map(|segment| (to_sample(segment.start), to_sample(segment.end)))
            .filter(|(start, end)| start < end)
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: usize = SAMPLES_PER_MS;

    #[test]
    fn speech_is_packed_with_context_and_a_pause_between_spans() {
        let window = vec![0.5_f32; 10_000 * MS];
        let mut packed = Vec::new();
        let layout = SpeechLayout::pack(
            &window,
            &[(1_000 * MS, 2_000 * MS), (6_000 * MS, 7_000 * MS)],
            &mut packed,
        );
        // Two spans of 1 s, each with 100 ms on both sides, and a 100 ms pause between.
        assert_eq!(packed.len(), (1_200 + 100 + 1_200) * MS);
        assert_eq!(layout.kept_samples(), 2_400 * MS);
        assert!(packed[1_200 * MS..1_300 * MS].iter().all(|s| *s == 0.0));
    }

    #[test]
    fn packed_times_map_back_to_where_the_speech_was() {
        let window = vec![0.5_f32; 10_000 * MS];
        let layout = SpeechLayout::pack(
            &window,
            &[(1_000 * MS, 2_000 * MS), (6_000 * MS, 7_000 * MS)],
            &mut Vec::new(),
        );
        // Packed 0 ms is window 900 ms (the first span's context).
        assert_eq!(layout.to_original_ms(0, Edge::Start), 900);
        assert_eq!(layout.to_original_ms(100, Edge::Start), 1_000);
        assert_eq!(layout.to_original_ms(1_200, Edge::End), 2_100);
        // Inside the inserted pause: a start moves to the next speech, an end back to the last.
        assert_eq!(layout.to_original_ms(1_250, Edge::Start), 5_900);
        assert_eq!(layout.to_original_ms(1_250, Edge::End), 2_100);
        // The second piece starts at packed 1,300 ms.
        assert_eq!(layout.to_original_ms(1_300, Edge::Start), 5_900);
        assert_eq!(layout.to_original_ms(1_400, Edge::Start), 6_000);
        assert_eq!(layout.to_original_ms(2_500, Edge::End), 7_100);
        // Past the end stays at the end.
        assert_eq!(layout.to_original_ms(9_999, Edge::End), 7_100);
    }

    #[test]
    fn a_time_belongs_to_its_piece_and_a_pause_to_the_speech_after_it() {
        let window = vec![0.5_f32; 10_000 * MS];
        let layout = SpeechLayout::pack(
            &window,
            &[(1_000 * MS, 2_000 * MS), (6_000 * MS, 7_000 * MS)],
            &mut Vec::new(),
        );
        assert_eq!(layout.piece_at(0), 0);
        assert_eq!(layout.piece_at(1_200), 0);
        assert_eq!(layout.piece_at(1_250), 1);
        assert_eq!(layout.piece_at(2_000), 1);
        assert_eq!(layout.piece_at(99_000), 1);
    }

    #[test]
    fn spans_whose_context_touches_become_one_piece() {
        let window = vec![0.5_f32; 5_000 * MS];
        let mut packed = Vec::new();
        let layout = SpeechLayout::pack(
            &window,
            &[(1_000 * MS, 2_000 * MS), (2_150 * MS, 3_000 * MS)],
            &mut packed,
        );
        assert_eq!(packed.len(), 2_200 * MS);
        assert_eq!(layout.to_original_ms(1_200, Edge::Start), 2_100);
    }

    #[test]
    fn spans_at_the_window_edges_are_clamped() {
        let window = vec![0.5_f32; 2_000 * MS];
        // A buffer used before is cleared first.
        let mut packed = vec![1.0; 5];
        let layout = SpeechLayout::pack(
            &window,
            &[(0, 500 * MS), (1_950 * MS, 2_000 * MS)],
            &mut packed,
        );
        assert_eq!(packed.len(), (600 + 100 + 150) * MS);
        assert_eq!(layout.to_original_ms(0, Edge::Start), 0);
        assert!(!layout.is_empty());
        let layout = SpeechLayout::pack(&window, &[], &mut packed);
        assert!(packed.is_empty() && layout.is_empty());
    }
}
