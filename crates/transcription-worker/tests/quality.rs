//! The quality guard on real audio with the real tiny.en model (1 thread): inputs that make
//! tiny.en invent text or loop (made by `scripts/make-quality-audio.sh` into a cache directory,
//! see `docs/quality.md`) each end flagged for review or without the invented text, and the
//! clean shared samples are neither flagged nor decoded twice.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU32};

use scribevault_bus::contract::ReviewReason;
use scribevault_test_support::words;
use scribevault_transcription_worker::transcribe::stitching::{
    AudioOptions, FileTranscript, transcribe_in_windows,
};
use scribevault_transcription_worker::whisper::{DecodeOptions, ModelCache};

fn shared(path: &str) -> PathBuf {
    scribevault_test_support::shared_dir().join(path)
}

/// The generated inputs' directory, or `None` (after a loud message outside CI) without sox.
fn quality_audio(test_name: &str) -> Option<PathBuf> {
    let sox = Command::new("sox").arg("--version").output().is_ok();
    if !scribevault_test_support::required_tool(sox, "sox", test_name) {
        return None;
    }
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scripts/make-quality-audio.sh");
    let made = Command::new(script).output().unwrap();
    assert!(
        made.status.success(),
        "make-quality-audio.sh: {}",
        String::from_utf8_lossy(&made.stderr)
    );
    Some(PathBuf::from(
        String::from_utf8(made.stdout).unwrap().trim(),
    ))
}

/// How the file is transcribed: without VAD, or with it (the product's default).
#[derive(Debug, Clone, Copy, PartialEq)]
enum Vad {
    Off,
    On,
}

fn run(audio: &Path, vad: Vad, test_name: &str) -> Option<FileTranscript> {
    let vad_model = match vad {
        Vad::Off => None,
        Vad::On => Some(scribevault_test_support::vad_model(test_name)?),
    };
    let model = ModelCache::default()
        .get(&shared("models/ggml-tiny.en.bin"))
        .unwrap();
    let options = AudioOptions {
        decode: DecodeOptions::new(1, "en"),
        vad_model,
        window_seconds: 120,
        max_audio_seconds: 3_600,
    };
    Some(
        transcribe_in_windows(
            std::fs::File::open(audio).unwrap(),
            &model,
            &options,
            &Arc::new(AtomicU32::new(0)),
            &Arc::new(AtomicBool::new(false)),
        )
        .unwrap(),
    )
}

fn text(transcript: &FileTranscript) -> String {
    transcript
        .segments
        .iter()
        .map(|segment| segment.text.as_str())
        .collect::<Vec<_>>()
        .join(" ")
}

fn reasons(transcript: &FileTranscript) -> Vec<ReviewReason> {
    transcript.review.reasons()
}

/// Every range lies in the audio and names where the text is.
fn assert_ranges_in_the_audio(transcript: &FileTranscript) {
    let audio_ms = (transcript.audio_seconds * 1000.0).ceil() as i64;
    for range in &transcript.review.ranges {
        assert!(
            0 <= range.start_ms && range.start_ms <= range.end_ms && range.end_ms <= audio_ms,
            "{range:?} in {audio_ms} ms"
        );
    }
}

/// The fast path: on the clean samples the guard finds nothing and decodes nothing twice.
#[test]
fn the_clean_samples_are_not_flagged_nor_decoded_twice() {
    const NAME: &str = "the_clean_samples_are_not_flagged_nor_decoded_twice";
    for sample in [
        "sample-01-welcome",
        "sample-02-subscribe",
        "sample-03-meeting",
        "sample-04-noisy",
    ] {
        for vad in [Vad::Off, Vad::On] {
            let Some(transcript) = run(&shared(&format!("audio/{sample}.mp3")), vad, NAME) else {
                continue;
            };
            assert!(
                !transcript.review.needs_review(),
                "{sample} ({vad:?}): {:?}",
                transcript.review
            );
            assert_eq!(transcript.redecodes, 0, "{sample} ({vad:?})");
            assert_eq!(transcript.whisper_calls, 1, "{sample} ({vad:?})");
            let reference =
                words(&std::fs::read_to_string(shared(&format!("audio/{sample}.txt"))).unwrap());
            let heard = words(&text(&transcript));
            assert!(
                heard.len() + 3 >= reference.len(),
                "{sample} ({vad:?}) lost words: {heard:?}"
            );
        }
    }
}

/// `sample-02` sped up 1.8×: tiny.en writes one sentence four times. Decoded again it loops
/// again, so it stays, marked as a repetition; with VAD, tiny.en writes other nonsense, which
/// is marked too.
#[test]
fn a_loop_on_sped_up_speech_is_flagged() {
    const NAME: &str = "a_loop_on_sped_up_speech_is_flagged";
    let Some(dir) = quality_audio(NAME) else {
        return;
    };
    let audio = dir.join("looped-speech.mp3");
    let transcript = run(&audio, Vad::Off, NAME).unwrap();
    assert!(
        reasons(&transcript).contains(&ReviewReason::Repetition),
        "{:?}: {}",
        transcript.review,
        text(&transcript)
    );
    assert_eq!(transcript.redecodes, 1);
    assert_ranges_in_the_audio(&transcript);
    if let Some(transcript) = run(&audio, Vad::On, NAME) {
        assert!(
            transcript.review.needs_review() || transcript.segments.is_empty(),
            "{}",
            text(&transcript)
        );
        assert_ranges_in_the_audio(&transcript);
    }
}

/// `sample-03` under louder brown noise: without VAD tiny.en invents three sentences at a
/// mean log-probability near −5; they are marked.
#[test]
fn sentences_invented_under_noise_are_flagged() {
    const NAME: &str = "sentences_invented_under_noise_are_flagged";
    let Some(dir) = quality_audio(NAME) else {
        return;
    };
    let transcript = run(&dir.join("speech-under-noise.mp3"), Vad::Off, NAME).unwrap();
    assert!(
        reasons(&transcript).contains(&ReviewReason::LowConfidence),
        "{:?}: {}",
        transcript.review,
        text(&transcript)
    );
    assert_ranges_in_the_audio(&transcript);
}

/// Pink noise: tiny.en writes "(wind howling)" where it heard no speech; decoded again it
/// hears nothing, so the text goes and nothing is left to review. With VAD whisper never hears
/// it.
#[test]
fn noise_alone_ends_without_text() {
    const NAME: &str = "noise_alone_ends_without_text";
    let Some(dir) = quality_audio(NAME) else {
        return;
    };
    let audio = dir.join("pink-noise.mp3");
    let transcript = run(&audio, Vad::Off, NAME).unwrap();
    assert!(transcript.segments.is_empty(), "{}", text(&transcript));
    assert!(!transcript.review.needs_review());
    assert_eq!(transcript.redecodes, 1);
    if let Some(transcript) = run(&audio, Vad::On, NAME) {
        assert!(transcript.segments.is_empty(), "{}", text(&transcript));
    }
}

/// 25 s of silence before `sample-01`: without VAD tiny.en dates the first sentence from 0 s,
/// over the silence, and that stretch is marked; with VAD the silence is never heard and the
/// text starts with the speech.
#[test]
fn text_dated_into_a_long_silence_is_flagged_and_vad_spares_it() {
    const NAME: &str = "text_dated_into_a_long_silence_is_flagged_and_vad_spares_it";
    let Some(dir) = quality_audio(NAME) else {
        return;
    };
    let audio = dir.join("silence-then-speech.mp3");
    let transcript = run(&audio, Vad::Off, NAME).unwrap();
    let over_silence: Vec<_> = transcript
        .review
        .ranges
        .iter()
        .filter(|range| range.reason == ReviewReason::TextOverSilence)
        .collect();
    assert_eq!(over_silence.len(), 1, "{:?}", transcript.review);
    assert!(over_silence[0].start_ms < 1_000, "{over_silence:?}");
    assert!(over_silence[0].end_ms <= 25_500, "{over_silence:?}");
    if let Some(transcript) = run(&audio, Vad::On, NAME) {
        assert!(!transcript.review.needs_review(), "{:?}", transcript.review);
        assert!(
            transcript.segments[0].start_ms >= 24_500,
            "{:?}",
            transcript.segments
        );
    }
}

/// A plucked melody: without VAD tiny.en writes "(lively music)" at −1.07 and, decoded again,
/// "Thank you."; the first stays, marked. With VAD, no text. After speech, the same melody
/// makes tiny.en write "Thank you for watching." with confidence, which only VAD spares.
#[test]
fn music_is_flagged_or_left_without_text() {
    const NAME: &str = "music_is_flagged_or_left_without_text";
    let Some(dir) = quality_audio(NAME) else {
        return;
    };
    let music = dir.join("music.mp3");
    let transcript = run(&music, Vad::Off, NAME).unwrap();
    assert!(
        reasons(&transcript).contains(&ReviewReason::LowConfidence),
        "{:?}: {}",
        transcript.review,
        text(&transcript)
    );
    if let Some(transcript) = run(&music, Vad::On, NAME) {
        assert!(transcript.segments.is_empty(), "{}", text(&transcript));
    }
    if let Some(transcript) = run(&dir.join("speech-then-music.mp3"), Vad::On, NAME) {
        let heard = text(&transcript).to_lowercase();
        assert!(!heard.contains("watching"), "{heard}");
        assert!(heard.contains("garden"), "{heard}");
        assert!(!transcript.review.needs_review(), "{:?}", transcript.review);
    }
}
