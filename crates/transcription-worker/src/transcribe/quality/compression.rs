//! Text that compresses too well. faster-whisper (and OpenAI's whisper before it) judge a
//! 30 s window's text by how much zlib shrinks it: speech rarely compresses by more than
//! [`MAX_RATIO`], while a loop, however it is worded, does. It catches what the word-phrase
//! test misses (a loop of a long sentence with small variations, a run of one character) and
//! is measured over [`WINDOW_MS`] of text as they measure it. (faster-whisper calls it the
//! gzip ratio; what it computes is `len(text) / len(zlib.compress(text))`, zlib's default
//! level, as here.)

use std::io::Write as _;

use flate2::Compression;
use flate2::write::ZlibEncoder;

use super::{Reason, Suspect, merge_suspects};
use crate::whisper::Decoded;

/// faster-whisper's `compression_ratio_threshold`.
pub const MAX_RATIO: f64 = 2.4;
/// The stretch of text measured at once: whisper's decoding window.
pub const WINDOW_MS: i64 = 30_000;

/// `text`'s length over its zlib-compressed length (default level).
#[must_use]
pub fn ratio(text: &str) -> f64 {
    let bytes = text.as_bytes();
    if bytes.is_empty() {
        return 0.0;
    }
    let mut encoder = ZlibEncoder::new(Vec::with_capacity(bytes.len()), Compression::default());
    // Writing to a Vec cannot fail.
    let compressed = encoder
        .write_all(bytes)
        .and_then(|()| encoder.finish())
        .map_or(bytes.len(), |compressed| compressed.len());
    #[allow(clippy::cast_precision_loss)]
    let ratio = bytes.len() as f64 / compressed.max(1) as f64;
    ratio
}

/// Every stretch whose text, measured from a segment's start over the next [`WINDOW_MS`],
/// compresses by more than [`MAX_RATIO`].
#[must_use]
pub fn too_compressible(decoded: &[Decoded]) -> Vec<Suspect> {
    let mut found = Vec::new();
    for first in 0..decoded.len() {
        let until = decoded[first].segment.start_ms + WINDOW_MS;
        let end = first
            + decoded[first..]
                .iter()
                .take_while(|d| d.segment.start_ms < until)
                .count();
        let text = decoded[first..end]
            .iter()
            .map(|d| d.segment.text.as_str())
            .collect::<Vec<_>>()
            .join(" ");
        if ratio(&text) > MAX_RATIO {
            found.push(Suspect::over_segments(
                decoded,
                first..end,
                Reason::Compression,
            ));
        }
    }
    merge_suspects(found)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::transcribe::quality::recorded;

    #[test]
    fn the_ratio_is_faster_whispers() {
        // Python: len(t) / len(zlib.compress(t)) for these two texts.
        let speech = "Welcome back to the channel. Today we are looking at how to keep a small \
                      garden alive through a hot and dry summer.";
        assert!((ratio(speech) - 1.18).abs() < 0.01, "{}", ratio(speech));
        let looped = "Thank you. ".repeat(20);
        assert!(ratio(&looped) > 5.0, "{}", ratio(&looped));
    }

    /// tiny.en on `sample-02-subscribe` sped up 1.8×: its sentence four times over is too
    /// short to compress past 2.4 (2.36); the phrase test is what finds it.
    #[test]
    fn a_short_loop_stays_under_the_ratio() {
        let decoded = recorded::load("chipmunk");
        let text: Vec<&str> = decoded.iter().map(|d| d.segment.text.as_str()).collect();
        let measured = ratio(&text.join(" "));
        assert!((2.3..MAX_RATIO).contains(&measured), "{measured}");
        assert!(too_compressible(&decoded).is_empty());
    }

    /// tiny.en without its own temperature fallback on `sample-02` said twice and sped up
    /// 1.8×: one phrase three times over, 2.48.
    #[test]
    fn the_loop_tiny_wrote_without_fallback_compresses_too_well() {
        let decoded = recorded::load("looped-twice-no-fallback");
        let found = too_compressible(&decoded);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].segments, 0..2);
        assert_eq!(found[0].reason, Reason::Compression);
    }

    #[test]
    fn a_loop_is_measured_per_window_and_not_diluted_by_the_rest_of_the_call() {
        use crate::whisper::Segment;
        let mut decoded = recorded::load("long-01-bread");
        let speech = decoded.len();
        decoded.extend((0..6).map(|n| Decoded {
            segment: Segment {
                start_ms: 80_000 + n * 5_000,
                end_ms: 85_000 + n * 5_000,
                text: "I'm going to go to the store.".to_owned(),
                words: Vec::new(),
            },
            avg_logprob: -0.2,
            tokens: 8,
            no_speech_prob: 0.0,
        }));
        // The whole call's text compresses by less than 2.4; its last 30 s do not.
        let all: Vec<&str> = decoded.iter().map(|d| d.segment.text.as_str()).collect();
        assert!(ratio(&all.join(" ")) < MAX_RATIO);
        let found = too_compressible(&decoded);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].segments.end, speech + 6);
        assert!(found[0].start_ms >= 50_000, "{found:?}");
    }
}
