//! Text where the audio has no speech to carry it. Whisper writes text over silence in two
//! ways: it invents it (a "Thank you." over a quiet outro), or it dates real words into the
//! silence before them (tiny.en spreads the first sentence after 12 s of silence over those
//! 12 s). Either way the time of the text is wrong, and a click on it plays nothing. Two tests:
//!
//! - words over silence: at least [`MIN_SILENT_WORDS`] words of a segment, and at least half
//!   of them, lie over 20 ms frames [`SILENCE_BELOW_DB`] under the call's loud frames (or
//!   under [`ABSOLUTE_SILENCE_DBFS`]); whisper hears speech within its own 80 dB log-mel
//!   range, so quiet speech, 50 dB down, is not silence here either;
//! - words too dense: more than [`MAX_WORDS_PER_SECOND`] words a second over a segment of at
//!   least [`MIN_DENSE_WORDS`] words, which no speaker says (fast speech is 4 to 6).
//!
//! With VAD on, whisper hears only what Silero took for speech, and the first test rarely
//! fires; the second still does.

use super::{Reason, SpokenWord, Suspect, spoken_words};
use crate::audio::WHISPER_SAMPLE_RATE;
use crate::whisper::Decoded;

/// A frame this far under the call's loud frames is silence.
pub const SILENCE_BELOW_DB: f32 = 55.0;
/// A frame this quiet is silence whatever the rest (digital silence, a decoder's dither).
pub const ABSOLUTE_SILENCE_DBFS: f32 = -90.0;
/// Words of one segment over silence before it is reported.
pub const MIN_SILENT_WORDS: usize = 3;
/// More words a second than anyone says.
pub const MAX_WORDS_PER_SECOND: f64 = 8.0;
/// Segments shorter than this many words are not judged by their density (whisper's segment
/// times are rounded to 10 ms and a word's length varies).
pub const MIN_DENSE_WORDS: usize = 6;
/// The frame loud frames are measured on.
const FRAME_MS: i64 = 20;
/// The call's loud level: this share of its frames is louder (a click does not set it).
const LOUD_PERCENTILE: f32 = 0.99;

/// Which 20 ms frames of one call's audio are silent.
#[derive(Debug, Clone)]
pub struct Loudness {
    silent: Vec<bool>,
}

impl Loudness {
    /// Measures 16 kHz `pcm`.
    #[must_use]
    pub fn of(pcm: &[f32]) -> Self {
        let frame = usize::try_from(FRAME_MS).unwrap_or(20) * WHISPER_SAMPLE_RATE as usize / 1000;
        let levels: Vec<f32> = pcm
            .chunks(frame)
            .map(|frame| {
                #[allow(clippy::cast_precision_loss)]
                let mean_square = frame.iter().map(|s| s * s).sum::<f32>() / frame.len() as f32;
                10.0 * mean_square.max(1e-20).log10()
            })
            .collect();
        let mut sorted = levels.clone();
        sorted.sort_by(f32::total_cmp);
        #[allow(
            clippy::cast_possible_truncation,
            clippy::cast_sign_loss,
            clippy::cast_precision_loss
        )]
        let loud = sorted
            .get(((sorted.len().saturating_sub(1)) as f32 * LOUD_PERCENTILE) as usize)
            .copied()
            .unwrap_or(ABSOLUTE_SILENCE_DBFS);
        let threshold = (loud - SILENCE_BELOW_DB).max(ABSOLUTE_SILENCE_DBFS);
        Self {
            silent: levels.iter().map(|level| *level < threshold).collect(),
        }
    }

    /// Audio of `audio_ms` that is loud enough throughout (decoder output tested without its
    /// audio).
    #[must_use]
    pub fn speech_throughout(audio_ms: i64) -> Self {
        Self {
            silent: vec![false; frames_in(audio_ms)],
        }
    }

    /// Audio of `audio_ms` silent in `silences` (`[start, end)` ms) and loud elsewhere.
    #[must_use]
    pub fn with_silences(audio_ms: i64, silences: &[(i64, i64)]) -> Self {
        let silent = (0..frames_in(audio_ms))
            .map(|frame| {
                let at = i64::try_from(frame).unwrap_or(i64::MAX) * FRAME_MS + FRAME_MS / 2;
                silences
                    .iter()
                    .any(|(start, end)| (*start..*end).contains(&at))
            })
            .collect();
        Self { silent }
    }

    /// Whether `[start_ms, end_ms]` lies over silence: at least 90 % of its frames, or its one
    /// frame. Times past the audio's end count as silence: there is nothing there to hear.
    fn is_silent(&self, start_ms: i64, end_ms: i64) -> bool {
        let first = start_ms.max(0) / FRAME_MS;
        let last = (end_ms.max(start_ms).max(0) / FRAME_MS).max(first);
        let frames = (first..=last)
            .map(|frame| {
                usize::try_from(frame)
                    .ok()
                    .and_then(|frame| self.silent.get(frame).copied())
                    .unwrap_or(true)
            })
            .collect::<Vec<bool>>();
        let silent = frames.iter().filter(|silent| **silent).count();
        silent * 10 >= frames.len() * 9
    }
}

fn frames_in(audio_ms: i64) -> usize {
    usize::try_from((audio_ms.max(0) + FRAME_MS - 1) / FRAME_MS).unwrap_or(0)
}

/// Every segment with words over silence or too many words for its time.
#[must_use]
pub fn text_without_speech(decoded: &[Decoded], loudness: &Loudness) -> Vec<Suspect> {
    let words = spoken_words(decoded);
    let mut found = Vec::new();
    for (index, d) in decoded.iter().enumerate() {
        let own: Vec<&SpokenWord> = words.iter().filter(|w| w.segment == index).collect();
        let silent: Vec<&&SpokenWord> = own
            .iter()
            .filter(|w| loudness.is_silent(w.start_ms, w.end_ms))
            .collect();
        if silent.len() >= MIN_SILENT_WORDS && silent.len() * 2 >= own.len() {
            found.push(Suspect {
                start_ms: silent.first().map_or(d.segment.start_ms, |w| w.start_ms),
                end_ms: silent.last().map_or(d.segment.end_ms, |w| w.end_ms),
                reason: Reason::TextOverSilence,
                segments: index..index + 1,
            });
        } else if too_dense(own.len(), d.segment.end_ms - d.segment.start_ms) {
            found.push(Suspect::over_segments(
                decoded,
                index..index + 1,
                Reason::TextOverSilence,
            ));
        }
    }
    found
}

/// Whether `words` in `duration_ms` are more than anyone says.
fn too_dense(words: usize, duration_ms: i64) -> bool {
    #[allow(clippy::cast_precision_loss)]
    let seconds = duration_ms.max(FRAME_MS) as f64 / 1000.0;
    #[allow(clippy::cast_precision_loss)]
    let per_second = words as f64 / seconds;
    words >= MIN_DENSE_WORDS && per_second > MAX_WORDS_PER_SECOND
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::transcribe::quality::recorded;

    /// tiny.en on 25 s of digital silence and then `sample-01-welcome`, without VAD: the
    /// first sentence's words spread from 0 s over the silence (14 of its 17 words).
    #[test]
    fn words_dated_into_the_silence_before_speech_are_found() {
        let decoded = recorded::load("silence-then-speech");
        let loudness = Loudness::with_silences(32_500, &[(0, 25_000)]);
        let found = text_without_speech(&decoded, &loudness);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].segments, 0..1);
        assert_eq!(found[0].start_ms, 0);
        assert!((20_000..=25_100).contains(&found[0].end_ms), "{found:?}");
        // Heard over speech throughout, the same words are fine.
        assert!(text_without_speech(&decoded, &Loudness::speech_throughout(32_500)).is_empty());
    }

    /// The loop tiny.en wrote on `sample-02` sped up 1.8× puts 22 words in 1.2 s.
    #[test]
    fn a_loop_crammed_into_a_second_is_too_dense() {
        let decoded = recorded::load("chipmunk");
        let found = text_without_speech(&decoded, &Loudness::speech_throughout(5_100));
        assert!(found.iter().any(|s| s.segments == (1..2)), "{found:?}");
    }

    #[test]
    fn quiet_speech_is_not_silence_but_digital_silence_and_the_time_past_the_end_are() {
        let mut pcm: Vec<f32> = (0..16_000)
            .map(|i| (i as f32 * 0.05).sin() * 0.000_5) // about −69 dBFS
            .collect();
        pcm.extend(std::iter::repeat_n(0.0, 16_000));
        let loudness = Loudness::of(&pcm);
        assert!(!loudness.is_silent(100, 900));
        assert!(loudness.is_silent(1_100, 1_900));
        assert!(loudness.is_silent(2_100, 2_500));
    }

    #[test]
    fn fast_speech_is_not_too_dense_and_a_loop_is() {
        assert!(!too_dense(12, 2_000));
        assert!(too_dense(22, 1_180));
        assert!(!too_dense(3, 100));
    }
}
