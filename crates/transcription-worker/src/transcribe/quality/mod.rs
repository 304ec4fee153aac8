//! The quality guard's eyes: what in whisper's output for one call looks invented or looped.
//! Four detectors, each a pure function over the decoder's output ([`Decoded`]) and, for the
//! last, the call's loudness, so each is tested on recorded decoder output
//! (`tests/fixtures/decoded/`):
//!
//! - [`repetition`]: the same phrase over and over (a decoder loop);
//! - [`compression`]: text that compresses too well (faster-whisper's zlib ratio over 2.4);
//! - [`confidence`]: a very low mean token log-probability (faster-whisper's −1.0);
//! - [`silence`]: text over silence, or more words than the time could hold.
//!
//! What is done about a suspect stretch (decode it again, or mark it for review) is
//! [`crate::transcribe::guard`]'s.

pub mod compression;
pub mod confidence;
pub mod repetition;
pub mod silence;

use std::ops::Range;

pub use scribevault_bus::contract::{ReviewRange, ReviewReason as Reason};
pub use silence::Loudness;

use crate::whisper::Decoded;

/// A stretch of one call's output that looks wrong, on the call's clock.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Suspect {
    pub start_ms: i64,
    pub end_ms: i64,
    pub reason: Reason,
    /// The decoded segments it lies in (indices into the call's output).
    pub segments: Range<usize>,
}

impl Suspect {
    /// A suspect over the whole of `segments` of `decoded`.
    fn over_segments(decoded: &[Decoded], segments: Range<usize>, reason: Reason) -> Self {
        let first = &decoded[segments.start].segment;
        let last = &decoded[segments.end - 1].segment;
        Self {
            start_ms: first.start_ms,
            end_ms: last.end_ms.max(first.start_ms),
            reason,
            segments,
        }
    }

    /// The stretch as a review range (same clock).
    #[must_use]
    pub fn range(&self) -> ReviewRange {
        ReviewRange {
            start_ms: self.start_ms,
            end_ms: self.end_ms,
            reason: self.reason,
        }
    }
}

/// Everything that looks wrong in `decoded` (one call's output, in time order), heard over
/// audio of `loudness` (on the same clock). Empty for clean output: the guard's fast path.
#[must_use]
pub fn inspect(decoded: &[Decoded], loudness: &Loudness) -> Vec<Suspect> {
    let mut found = repetition::loops(decoded);
    found.extend(compression::too_compressible(decoded));
    found.extend(confidence::unlikely(decoded));
    found.extend(silence::text_without_speech(decoded, loudness));
    found.sort_by_key(|suspect| (suspect.start_ms, suspect.reason));
    found
}

/// `ranges` sorted by start, overlapping or touching ranges of one reason joined.
#[must_use]
pub fn merge_ranges(mut ranges: Vec<ReviewRange>) -> Vec<ReviewRange> {
    ranges.sort_by_key(|range| (range.reason, range.start_ms));
    let mut merged: Vec<ReviewRange> = Vec::with_capacity(ranges.len());
    for range in ranges {
        match merged.last_mut() {
            Some(last) if last.reason == range.reason && range.start_ms <= last.end_ms => {
                last.end_ms = last.end_ms.max(range.end_ms);
            }
            _ => merged.push(range),
        }
    }
    merged.sort_by_key(|range| (range.start_ms, range.reason));
    merged
}

/// Suspects of one reason joined where their segments overlap or touch.
fn merge_suspects(mut suspects: Vec<Suspect>) -> Vec<Suspect> {
    suspects.sort_by_key(|suspect| (suspect.segments.start, suspect.start_ms));
    let mut merged: Vec<Suspect> = Vec::with_capacity(suspects.len());
    for suspect in suspects {
        match merged.last_mut() {
            Some(last) if suspect.segments.start < last.segments.end => {
                last.segments.end = last.segments.end.max(suspect.segments.end);
                last.start_ms = last.start_ms.min(suspect.start_ms);
                last.end_ms = last.end_ms.max(suspect.end_ms);
            }
            _ => merged.push(suspect),
        }
    }
    merged
}

/// One spoken word of a call's output, as the detectors compare them.
#[derive(Debug, Clone)]
struct SpokenWord {
    /// Lower case, punctuation dropped.
    text: String,
    segment: usize,
    start_ms: i64,
    end_ms: i64,
}

/// The words of `decoded` in order, normalised; a segment without word times (none from
/// whisper-rs with token timestamps, but a recording may lack them) gives its text's words at
/// its own times.
fn spoken_words(decoded: &[Decoded]) -> Vec<SpokenWord> {
    let mut out = Vec::new();
    for (index, decoded) in decoded.iter().enumerate() {
        let segment = &decoded.segment;
        let timed: Vec<(&str, i64, i64)> = if segment.words.is_empty() {
            segment
                .text
                .split_whitespace()
                .map(|word| (word, segment.start_ms, segment.end_ms))
                .collect()
        } else {
            segment
                .words
                .iter()
                .map(|word| (word.text.as_str(), word.start_ms, word.end_ms))
                .collect()
        };
        for (text, start_ms, end_ms) in timed {
            for part in normalised(text) {
                out.push(SpokenWord {
                    text: part,
                    segment: index,
                    start_ms,
                    end_ms,
                });
            }
        }
    }
    out
}

/// `text`'s words in lower case without punctuation (an apostrophe stays: "don't").
fn normalised(text: &str) -> Vec<String> {
    text.to_lowercase()
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || c == '\'' {
                c
            } else {
                ' '
            }
        })
        .collect::<String>()
        .split_whitespace()
        .map(str::to_owned)
        .collect()
}

#[cfg(test)]
pub(crate) mod recorded {
    //! Decoder output recorded from tiny.en (1 thread, `examples/decode.rs`) on the inputs of
    //! `scripts/make-quality-audio.sh`, for the detectors' tests.

    use crate::whisper::Decoded;

    #[derive(serde::Deserialize)]
    struct Recording {
        decoded: Vec<Decoded>,
    }

    /// The recording `tests/fixtures/decoded/<name>.json`.
    pub(crate) fn load(name: &str) -> Vec<Decoded> {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures/decoded")
            .join(format!("{name}.json"));
        let text =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        serde_json::from_str::<Recording>(&text)
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
            .decoded
    }

    /// The clean samples' recordings: no detector may fire on them.
    pub(crate) const CLEAN: [&str; 4] = [
        "sample-01-welcome",
        "sample-02-subscribe",
        "sample-03-meeting",
        "long-01-bread",
    ];
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nothing_on_the_clean_samples() {
        for name in recorded::CLEAN {
            let decoded = recorded::load(name);
            let audio_ms = decoded.last().map_or(0, |d| d.segment.end_ms);
            let suspects = inspect(&decoded, &Loudness::speech_throughout(audio_ms));
            assert!(suspects.is_empty(), "{name}: {suspects:?}");
        }
    }

    #[test]
    fn ranges_of_one_reason_join_and_others_stay_apart() {
        let range = |start_ms, end_ms, reason| ReviewRange {
            start_ms,
            end_ms,
            reason,
        };
        let merged = merge_ranges(vec![
            range(5_000, 9_000, Reason::Repetition),
            range(0, 2_000, Reason::LowConfidence),
            range(8_000, 12_000, Reason::Repetition),
            range(8_000, 8_500, Reason::Compression),
        ]);
        assert_eq!(
            merged,
            [
                range(0, 2_000, Reason::LowConfidence),
                range(5_000, 12_000, Reason::Repetition),
                range(8_000, 8_500, Reason::Compression),
            ]
        );
    }

    #[test]
    fn words_are_compared_without_case_or_punctuation() {
        assert_eq!(
            normalised("Thank you. THANK-you!"),
            ["thank", "you", "thank", "you"]
        );
        assert_eq!(normalised("Don't."), ["don't"]);
    }
}
