//! Decoder loops: the same phrase over and over. Whisper's decoder, once it has written a
//! phrase, finds it likely again (it is in its own prompt), and on music, noise or speech it
//! cannot follow it can repeat one sentence to the end of its 30 s window ("Be in the middle of
//! the year on full time" four times on `sample-02` sped up 1.8×). A phrase of [`GRAM`] words
//! said [`TIMES`] times within [`WITHIN_WORDS`] words is taken for one: people repeat a word or
//! two for emphasis, and a four-word phrase now and then, but rarely the same four words three
//! times in a breath. Shorter units looped long enough count too ("thank you" four times holds
//! "thank you thank you" three times).

use std::collections::HashMap;

use super::{Reason, Suspect, merge_suspects, spoken_words};
use crate::whisper::Decoded;

/// Words in the phrase compared.
pub const GRAM: usize = 4;
/// Times it must occur.
pub const TIMES: usize = 3;
/// Within this many words from the first occurrence's start to the last one's.
pub const WITHIN_WORDS: usize = 60;

/// Every stretch where a phrase loops, from its first occurrence to the end of its last.
#[must_use]
pub fn loops(decoded: &[Decoded]) -> Vec<Suspect> {
    let words = spoken_words(decoded);
    if words.len() < GRAM + TIMES - 1 {
        return Vec::new();
    }
    let mut places: HashMap<Vec<&str>, Vec<usize>> = HashMap::new();
    for start in 0..=words.len() - GRAM {
        let gram = words[start..start + GRAM]
            .iter()
            .map(|word| word.text.as_str())
            .collect();
        places.entry(gram).or_default().push(start);
    }
    let mut found = Vec::new();
    for starts in places.values().filter(|starts| starts.len() >= TIMES) {
        for run in starts.windows(TIMES) {
            let (first, last) = (run[0], run[TIMES - 1]);
            if last - first >= WITHIN_WORDS {
                continue;
            }
            let end = last + GRAM - 1;
            found.push(Suspect {
                start_ms: words[first].start_ms,
                end_ms: words[end].end_ms.max(words[first].start_ms),
                reason: Reason::Repetition,
                segments: words[first].segment..words[end].segment + 1,
            });
        }
    }
    merge_suspects(found)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::transcribe::quality::recorded;
    use crate::whisper::Segment;

    fn decoded(texts: &[(&str, i64, i64)]) -> Vec<Decoded> {
        texts
            .iter()
            .map(|&(text, start_ms, end_ms)| Decoded {
                segment: Segment {
                    start_ms,
                    end_ms,
                    text: text.to_owned(),
                    words: Vec::new(),
                },
                avg_logprob: -0.2,
                tokens: 10,
                no_speech_prob: 0.0,
            })
            .collect()
    }

    /// tiny.en on `sample-02-subscribe` sped up 1.8× (`speed 1.8`): one sentence four times
    /// over three segments, from 0.2 s to the end.
    #[test]
    fn the_loop_tiny_wrote_on_sped_up_speech_is_found_across_its_segments() {
        let decoded = recorded::load("chipmunk");
        let found = loops(&decoded);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].segments, 0..3);
        assert!(found[0].start_ms < 2_000, "{found:?}");
        assert_eq!(
            found[0].end_ms,
            decoded[2].segment.words.last().unwrap().end_ms
        );
    }

    /// The same without whisper.cpp's fallback on `sample-02` said twice: "Be the middle of the
    /// mountain from time" three times in one segment.
    #[test]
    fn the_loop_tiny_wrote_without_fallback_is_found_in_its_segment() {
        let found = loops(&recorded::load("looped-twice-no-fallback"));
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].segments, 0..2);
    }

    #[test]
    fn a_phrase_said_twice_is_speech_and_thrice_in_a_breath_a_loop() {
        let twice = decoded(&[(
            "Keep a smile on a line for how to keep a smile on it?",
            0,
            4_000,
        )]);
        assert!(loops(&twice).is_empty());
        let thrice = decoded(&[
            ("Thank you for watching.", 0, 2_000),
            ("Thank you for watching.", 2_000, 4_000),
            ("Thank you for watching.", 4_000, 6_000),
        ]);
        let found = loops(&thrice);
        assert_eq!(found.len(), 1);
        assert_eq!((found[0].start_ms, found[0].end_ms), (0, 6_000));
        assert_eq!(found[0].segments, 0..3);
    }

    #[test]
    fn a_short_unit_looped_long_enough_is_found_and_once_too_often_is_not() {
        let looped = decoded(&[("Thank you. Thank you. Thank you. Thank you.", 0, 4_000)]);
        assert_eq!(loops(&looped).len(), 1);
        let emphasis = decoded(&[("No, no, no, no, that is not it.", 0, 3_000)]);
        assert!(loops(&emphasis).is_empty());
    }

    #[test]
    fn repeats_far_apart_are_a_refrain_not_a_loop() {
        let filler = |from: usize| {
            (from..from + 40)
                .map(|n| format!("word{n}"))
                .collect::<Vec<_>>()
                .join(" ")
        };
        let text = format!(
            "at the end of {} at the end of {} at the end of it",
            filler(0),
            filler(100)
        );
        assert!(loops(&decoded(&[(&text, 0, 60_000)])).is_empty());
    }
}
