//! Text the decoder itself hardly believed: a segment whose text tokens have a mean natural
//! log-probability under [`MIN_AVG_LOGPROB`] (faster-whisper's `log_prob_threshold`).
//! whisper.cpp applies the same threshold to its whole 30 s sequence to decide on a
//! temperature fallback, but keeps what its last temperature wrote; judged per segment, the
//! stretch that pulled the mean down is where a person should listen. When whisper also
//! thought the window held no speech (`no_speech_prob` over [`NO_SPEECH_PROB`], faster-whisper's
//! own test for silence), the text is reported as text over silence instead.

use super::{Reason, Suspect};
use crate::whisper::Decoded;

/// faster-whisper's `log_prob_threshold`.
pub const MIN_AVG_LOGPROB: f32 = -1.0;
/// faster-whisper's `no_speech_threshold`.
pub const NO_SPEECH_PROB: f32 = 0.6;
/// Fewer text tokens say too little: a lone "Hmm." is often unlikely and harmless.
pub const MIN_TOKENS: u32 = 3;

/// Every segment whose mean token log-probability is under the threshold.
#[must_use]
pub fn unlikely(decoded: &[Decoded]) -> Vec<Suspect> {
    decoded
        .iter()
        .enumerate()
        .filter(|(_, d)| d.tokens >= MIN_TOKENS && d.avg_logprob < MIN_AVG_LOGPROB)
        .map(|(index, d)| {
            let reason = if d.no_speech_prob > NO_SPEECH_PROB {
                Reason::TextOverSilence
            } else {
                Reason::LowConfidence
            };
            Suspect::over_segments(decoded, index..index + 1, reason)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::transcribe::quality::recorded;

    /// tiny.en on 28 s of a plucked melody: "(lively music)" at −1.07, whisper's no-speech
    /// probability 0.53.
    #[test]
    fn what_tiny_wrote_over_music_is_unlikely() {
        let found = unlikely(&recorded::load("music"));
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].reason, Reason::LowConfidence);
        assert_eq!((found[0].start_ms, found[0].end_ms), (0, 2_580));
    }

    /// tiny.en on 9 s of pink noise: "(wind howling)" at −1.05 while whisper put the chance of
    /// no speech at 0.85: text over silence by faster-whisper's own test.
    #[test]
    fn unlikely_text_where_whisper_heard_no_speech_is_text_over_silence() {
        let found = unlikely(&recorded::load("pink-noise"));
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].reason, Reason::TextOverSilence);
    }

    /// tiny.en on `sample-03-meeting` under louder brown noise: three invented sentences at
    /// −5.4, −4.6 and −4.6.
    #[test]
    fn sentences_invented_over_noise_are_each_unlikely() {
        let found = unlikely(&recorded::load("speech-under-noise"));
        assert_eq!(found.len(), 3, "{found:?}");
        assert!(found.iter().all(|s| s.reason == Reason::LowConfidence));
        assert_eq!(found[2].segments, 2..3);
    }

    #[test]
    fn a_short_or_likely_segment_is_not_reported() {
        let mut decoded = recorded::load("pink-noise");
        decoded[0].tokens = 2;
        assert!(unlikely(&decoded).is_empty());
        decoded[0].tokens = 5;
        decoded[0].avg_logprob = -0.9;
        assert!(unlikely(&decoded).is_empty());
    }
}
