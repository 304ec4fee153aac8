//! The quality guard around each whisper call: the call's output is inspected
//! ([`crate::transcribe::quality`]); a suspect stretch is decoded again, alone, with temperature fallback
//! ([`Pass::Retry`]); what is still suspect is kept as review ranges. A clean call costs one
//! inspection (a few string and loudness passes, no decoding): the fast path.
//!
//! whisper.cpp already falls back to higher temperatures inside a call when its own measures
//! (the token entropy of a 30 s window, its mean log-probability) say so, and it keeps what
//! its last temperature wrote. The guard's measures are the ones it lacks (loops of any
//! length, zlib's ratio, log-probability per segment, the audio's loudness), so a window they
//! flag is one whisper.cpp's fallback let through: decoding it again greedily would repeat the
//! same text, hence sampling from 0.2 up, without the loop in the prompt.
//!
//! Which text is kept:
//! - a re-decode that heard nothing replaces the stretch: whisper found no speech there, so
//!   the first pass's text was invented;
//! - a re-decode that none of the checks flag replaces it, unless the stretch was flagged for
//!   low confidence: sampled tokens are scored at their temperature, which reads higher, so a
//!   re-decode cannot prove itself more likely, and the greedy text stays, flagged;
//! - otherwise the re-decode replaces it only if its suspect stretches are at most half as
//!   long (a near tie keeps the greedy text), and the version kept brings its ranges for
//!   review.
//!
//! Ranges end at the call's audio: whisper sometimes dates text past it.

use std::ops::Range;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU32};

use crate::audio::WHISPER_SAMPLE_RATE;
use crate::transcribe::quality::{self, Loudness, Reason, ReviewRange, Suspect};
use crate::whisper::WindowTranscriber;
use crate::whisper::{Decoded, EngineError, Pass, ProgressSpan};

/// Audio around a suspect stretch that is decoded with it (whisper's segment times are loose),
/// short of a neighbouring segment.
const MARGIN_MS: i64 = 1_000;

/// The least audio a stretch is decoded again with: whisper.cpp transcribes nothing shorter.
const MIN_REDECODE_MS: i64 = 1_000;

/// One call's output after the guard, on the call's clock.
#[derive(Debug, Default)]
pub struct Guarded {
    pub decoded: Vec<Decoded>,
    /// What is still suspect.
    pub review: Vec<ReviewRange>,
    /// Stretches decoded again.
    pub redecodes: usize,
}

/// Transcribes `pcm` with `transcriber` and guards the output. `progress` moves with the first
/// pass only: a re-decode is extra work on the same audio.
///
/// # Errors
/// What the engine answers ([`EngineError::Aborted`] once `abort` is set).
pub fn transcribe_guarded(
    transcriber: &mut dyn WindowTranscriber,
    pcm: &[f32],
    progress: ProgressSpan,
    abort: &Arc<AtomicBool>,
) -> Result<Guarded, EngineError> {
    let first = transcriber.transcribe(pcm, Pass::First, progress, abort.clone())?;
    let loudness = Loudness::of(pcm);
    let suspects = quality::inspect(&first, &loudness);
    if suspects.is_empty() {
        return Ok(Guarded {
            decoded: first,
            ..Guarded::default()
        });
    }
    let mut out = Guarded::default();
    let mut next = 0;
    for stretch in stretches(suspects) {
        out.decoded
            .extend_from_slice(&first[next..stretch.segments.start]);
        let audio = stretch_audio(&first, &stretch.segments, pcm.len());
        if audio.len() < sample_at(MIN_REDECODE_MS) {
            // Too little audio to decode again: text dated at or past the call's end (whisper
            // does that), or a sliver of it. whisper.cpp hears nothing under a second and
            // refuses an empty buffer (which failed the whole file), and an empty re-decode
            // would delete the text; keep it, flagged for a listen.
            tracing::info!(
                start_ms = stretch.start_ms,
                end_ms = stretch.end_ms,
                audio_ms = ms_of(audio.len()),
                "quality guard kept a stretch too short to decode again"
            );
            out.review
                .extend(stretch.suspects.iter().map(Suspect::range));
            out.decoded
                .extend_from_slice(&first[stretch.segments.clone()]);
            next = stretch.segments.end;
            continue;
        }
        let retry = redecode(transcriber, pcm, audio, abort)?;
        out.redecodes += 1;
        let retry_suspects = quality::inspect(&retry, &loudness);
        tracing::info!(
            start_ms = stretch.start_ms,
            end_ms = stretch.end_ms,
            reasons = ?stretch.suspects.iter().map(|s| s.reason).collect::<Vec<_>>(),
            still_suspect = retry_suspects.len(),
            retry_segments = retry.len(),
            "quality guard decoded a stretch again"
        );
        if keeps_retry(&stretch.suspects, &retry, &retry_suspects) {
            out.review.extend(retry_suspects.iter().map(Suspect::range));
            out.decoded.extend(retry);
        } else {
            out.review
                .extend(stretch.suspects.iter().map(Suspect::range));
            out.decoded
                .extend_from_slice(&first[stretch.segments.clone()]);
        }
        next = stretch.segments.end;
    }
    out.decoded.extend_from_slice(&first[next..]);
    let audio_ms = ms_of(pcm.len());
    for range in &mut out.review {
        range.end_ms = range.end_ms.clamp(0, audio_ms);
        range.start_ms = range.start_ms.clamp(0, range.end_ms);
        if range.start_ms == range.end_ms {
            // Text dated wholly past the audio: point the listener at its last stretch rather
            // than at an empty range.
            range.start_ms = (range.end_ms - MIN_REDECODE_MS).max(0);
        }
    }
    Ok(out)
}

/// Suspects whose segments overlap or touch, decoded again together.
#[derive(Debug)]
struct Stretch {
    segments: Range<usize>,
    start_ms: i64,
    end_ms: i64,
    suspects: Vec<Suspect>,
}

/// `suspects` grouped into stretches of consecutive segments, in order.
fn stretches(mut suspects: Vec<Suspect>) -> Vec<Stretch> {
    suspects.sort_by_key(|suspect| (suspect.segments.start, suspect.start_ms));
    let mut out: Vec<Stretch> = Vec::new();
    for suspect in suspects {
        match out.last_mut() {
            Some(last) if suspect.segments.start <= last.segments.end => {
                last.segments.end = last.segments.end.max(suspect.segments.end);
                last.start_ms = last.start_ms.min(suspect.start_ms);
                last.end_ms = last.end_ms.max(suspect.end_ms);
                last.suspects.push(suspect);
            }
            _ => out.push(Stretch {
                segments: suspect.segments.clone(),
                start_ms: suspect.start_ms,
                end_ms: suspect.end_ms,
                suspects: vec![suspect],
            }),
        }
    }
    out
}

/// The samples to decode again for `segments`: theirs, plus up to [`MARGIN_MS`] either side
/// short of the neighbouring segments.
fn stretch_audio(first: &[Decoded], segments: &Range<usize>, samples: usize) -> Range<usize> {
    let audio_ms = ms_of(samples);
    let floor = segments
        .start
        .checked_sub(1)
        .map_or(0, |before| first[before].segment.end_ms);
    let ceiling = first
        .get(segments.end)
        .map_or(audio_ms, |after| after.segment.start_ms);
    let start_ms = (first[segments.start].segment.start_ms - MARGIN_MS).max(floor);
    let end_ms = (first[segments.end - 1].segment.end_ms + MARGIN_MS)
        .min(ceiling)
        .min(audio_ms)
        .max(start_ms);
    sample_at(start_ms).min(samples)..sample_at(end_ms).min(samples)
}

/// Decodes `audio` of `pcm` again ([`Pass::Retry`]), with its times moved onto `pcm`'s clock.
fn redecode(
    transcriber: &mut dyn WindowTranscriber,
    pcm: &[f32],
    audio: Range<usize>,
    abort: &Arc<AtomicBool>,
) -> Result<Vec<Decoded>, EngineError> {
    let offset_ms = ms_of(audio.start);
    let unmoved = ProgressSpan::whole(Arc::new(AtomicU32::new(0)));
    let mut retry = transcriber.transcribe(&pcm[audio], Pass::Retry, unmoved, abort.clone())?;
    for decoded in &mut retry {
        let segment = &mut decoded.segment;
        segment.start_ms += offset_ms;
        segment.end_ms += offset_ms;
        for word in &mut segment.words {
            word.start_ms += offset_ms;
            word.end_ms += offset_ms;
        }
    }
    Ok(retry)
}

/// Whether the re-decode replaces the stretch (see the module's doc).
fn keeps_retry(first: &[Suspect], retry: &[Decoded], retry_suspects: &[Suspect]) -> bool {
    if retry
        .iter()
        .all(|d| d.segment.words.is_empty() && d.segment.text.trim().is_empty())
    {
        return true;
    }
    let low_confidence = first.iter().any(|s| s.reason == Reason::LowConfidence);
    if retry_suspects.is_empty() {
        return !low_confidence;
    }
    !low_confidence && suspect_ms(retry_suspects) * 2 <= suspect_ms(first)
}

/// How long `suspects` cover, overlaps counted once per reason.
fn suspect_ms(suspects: &[Suspect]) -> i64 {
    quality::merge_ranges(suspects.iter().map(Suspect::range).collect())
        .iter()
        .map(|range| range.end_ms - range.start_ms)
        .sum()
}

fn ms_of(samples: usize) -> i64 {
    i64::try_from(samples / (WHISPER_SAMPLE_RATE as usize / 1000)).unwrap_or(i64::MAX)
}

fn sample_at(ms: i64) -> usize {
    usize::try_from(ms.max(0)).unwrap_or(0) * (WHISPER_SAMPLE_RATE as usize / 1000)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::transcribe::quality::recorded;
    use crate::whisper::Segment;

    /// A transcriber that answers recorded output: `first` on the first pass, `retry` (moved
    /// by the test's own expectations) on a re-decode; it records what it was asked.
    struct Scripted {
        first: Vec<Decoded>,
        retry: Vec<Decoded>,
        asked: Vec<(Pass, usize)>,
    }

    impl WindowTranscriber for Scripted {
        fn transcribe(
            &mut self,
            pcm: &[f32],
            pass: Pass,
            _progress: ProgressSpan,
            _abort: Arc<AtomicBool>,
        ) -> Result<Vec<Decoded>, EngineError> {
            self.asked.push((pass, pcm.len()));
            Ok(match pass {
                Pass::First => self.first.clone(),
                Pass::Retry => self.retry.clone(),
            })
        }
    }

    fn run(first: Vec<Decoded>, retry: Vec<Decoded>, pcm: &[f32]) -> (Guarded, Vec<(Pass, usize)>) {
        let mut scripted = Scripted {
            first,
            retry,
            asked: Vec::new(),
        };
        let guarded = transcribe_guarded(
            &mut scripted,
            pcm,
            ProgressSpan::whole(Arc::new(AtomicU32::new(0))),
            &Arc::new(AtomicBool::new(false)),
        )
        .unwrap();
        (guarded, scripted.asked)
    }

    /// Speech-like audio throughout (no frame silent).
    fn loud(seconds: usize) -> Vec<f32> {
        (0..seconds * 16_000)
            .map(|i| ((i as f32) * 0.07).sin() * 0.3)
            .collect()
    }

    fn said(start_ms: i64, end_ms: i64, text: &str, avg_logprob: f32) -> Decoded {
        Decoded {
            segment: Segment {
                start_ms,
                end_ms,
                text: text.to_owned(),
                words: Vec::new(),
            },
            avg_logprob,
            tokens: 8,
            no_speech_prob: 0.1,
        }
    }

    #[test]
    fn a_loop_dated_past_the_audio_is_kept_for_review_not_decoded_again() {
        // whisper dates the loop after the call's 10 s of audio: there is nothing to decode
        // again (an empty buffer made whisper fail the whole file), and nothing is deleted.
        let first = vec![
            said(0, 4_000, "The meeting has been moved to Thursday.", -0.2),
            said(10_500, 12_000, "Thank you for watching.", -0.2),
            said(12_000, 13_500, "Thank you for watching.", -0.2),
            said(13_500, 15_000, "Thank you for watching.", -0.2),
        ];
        let (guarded, asked) = run(first.clone(), Vec::new(), &loud(10));
        assert_eq!(asked, [(Pass::First, 160_000)]);
        assert_eq!(guarded.decoded, first);
        assert_eq!(guarded.redecodes, 0);
        assert!(!guarded.review.is_empty());
        assert!(
            guarded
                .review
                .iter()
                .all(|range| range.start_ms < range.end_ms && range.end_ms <= 10_000),
            "every range is one to listen to, within the audio: {:?}",
            guarded.review
        );
    }

    #[test]
    fn clean_output_is_decoded_once_and_passed_through() {
        let first = recorded::load("sample-02-subscribe");
        let (guarded, asked) = run(first.clone(), Vec::new(), &loud(10));
        assert_eq!(asked, [(Pass::First, 160_000)]);
        assert_eq!(guarded.decoded, first);
        assert!(guarded.review.is_empty());
        assert_eq!(guarded.redecodes, 0);
    }

    #[test]
    fn a_loop_decoded_cleanly_again_is_replaced_and_not_reported() {
        let first = vec![
            said(0, 4_000, "The meeting has been moved to Thursday.", -0.2),
            said(4_000, 6_000, "Thank you for watching.", -0.2),
            said(6_000, 8_000, "Thank you for watching.", -0.2),
            said(8_000, 10_000, "Thank you for watching.", -0.2),
            said(12_000, 15_000, "Bring your notes from last week.", -0.2),
        ];
        let retry = vec![said(500, 3_000, "We will go through the budget.", -0.3)];
        let (guarded, asked) = run(first, retry, &loud(16));
        // The stretch (4-10 s) with a second either side, short of its neighbours: 4 s to 11 s.
        assert_eq!(asked, [(Pass::First, 256_000), (Pass::Retry, 7 * 16_000)]);
        let texts: Vec<&str> = guarded
            .decoded
            .iter()
            .map(|d| d.segment.text.as_str())
            .collect();
        assert_eq!(
            texts,
            [
                "The meeting has been moved to Thursday.",
                "We will go through the budget.",
                "Bring your notes from last week."
            ]
        );
        // The re-decode's times are on the call's clock.
        assert_eq!(guarded.decoded[1].segment.start_ms, 4_500);
        assert!(guarded.review.is_empty());
        assert_eq!(guarded.redecodes, 1);
    }

    #[test]
    fn a_loop_that_loops_again_stays_and_is_reported() {
        let first = recorded::load("chipmunk");
        let (guarded, asked) = run(first.clone(), first.clone(), &loud(6));
        assert_eq!(asked.len(), 2);
        assert_eq!(guarded.decoded, first);
        let reasons: Vec<Reason> = guarded.review.iter().map(|r| r.reason).collect();
        assert!(reasons.contains(&Reason::Repetition), "{reasons:?}");
    }

    #[test]
    fn a_re_decode_that_hears_nothing_removes_the_invented_text() {
        let first = recorded::load("pink-noise");
        let (guarded, _) = run(first, Vec::new(), &loud(9));
        assert!(guarded.decoded.is_empty());
        assert!(guarded.review.is_empty());
        assert_eq!(guarded.redecodes, 1);
    }

    #[test]
    fn unlikely_text_stays_flagged_when_sampling_writes_something_else() {
        // tiny.en's re-decode of the melody wrote "Thank you." at a tempered −0.22.
        let first = recorded::load("music");
        let retry = vec![said(0, 27_440, "Thank you.", -0.22)];
        let (guarded, _) = run(first.clone(), retry, &loud(28));
        assert_eq!(guarded.decoded, first);
        assert_eq!(guarded.review.len(), 1);
        assert_eq!(guarded.review[0].reason, Reason::LowConfidence);
    }

    #[test]
    fn a_re_decode_no_better_keeps_the_greedy_text_and_its_ranges() {
        // 25 s of digital silence, then speech; tiny.en dated the first sentence from 0 s.
        let mut pcm = vec![0.0; 25 * 16_000];
        pcm.extend(loud(8));
        let first = recorded::load("silence-then-speech");
        let mut retry = first.clone();
        retry[0].segment.text = "Welcome back to the channel. Today we are looking at a".into();
        let (guarded, _) = run(first.clone(), retry, &pcm);
        assert_eq!(guarded.decoded, first);
        assert_eq!(guarded.review.len(), 1, "{:?}", guarded.review);
        assert_eq!(guarded.review[0].reason, Reason::TextOverSilence);
        assert_eq!(guarded.review[0].start_ms, 0);
    }

    #[test]
    fn ranges_end_with_the_audio_though_whisper_dated_text_past_it() {
        // tiny.en dated "Yeah you can weld the" to 23.1 s in 9.2 s of audio.
        let first = recorded::load("speech-under-noise");
        let (guarded, _) = run(first, Vec::new(), &loud(9));
        // Nothing heard again: the invented text goes.
        assert!(guarded.decoded.is_empty());
        let retry = vec![said(0, 9_000, "And the magic that we do.", -0.3)];
        let (guarded, _) = run(recorded::load("speech-under-noise"), retry, &loud(9));
        assert!(!guarded.review.is_empty());
        assert!(
            guarded
                .review
                .iter()
                .all(|r| r.start_ms <= r.end_ms && r.end_ms <= 9_000),
            "{:?}",
            guarded.review
        );
    }
}
