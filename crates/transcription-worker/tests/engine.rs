//! The engine on real audio with the real tiny.en model (1 thread: whisper.cpp busy-waits):
//! windows cut mid-sentence, VAD on a file of known speech onsets, word times, progress and
//! cancel across windows, and the duration limit.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::time::{Duration, Instant};

use scribevault_test_support::words;
use scribevault_transcription_worker::transcribe::stitching::{
    AudioOptions, FileError, FileTranscript, transcribe_in_windows,
};
use scribevault_transcription_worker::whisper::{DecodeOptions, EngineError, ModelCache, Segment};

fn shared(path: &str) -> PathBuf {
    scribevault_test_support::shared_dir().join(path)
}

fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
}

fn options(window_seconds: u32, vad_model: Option<PathBuf>) -> AudioOptions {
    AudioOptions {
        decode: DecodeOptions::new(1, "en"),
        vad_model,
        window_seconds,
        max_audio_seconds: 12 * 3600,
    }
}

fn run(audio: &PathBuf, options: &AudioOptions) -> Result<FileTranscript, FileError> {
    let model = ModelCache::default()
        .get(&shared("models/ggml-tiny.en.bin"))
        .unwrap();
    transcribe_in_windows(
        std::fs::File::open(audio).unwrap(),
        &model,
        options,
        &Arc::new(AtomicU32::new(0)),
        &Arc::new(AtomicBool::new(false)),
    )
}

/// A transcribed word with the time it was heard.
struct Heard {
    word: String,
    at_ms: i64,
}

fn heard(segments: &[Segment]) -> Vec<Heard> {
    segments
        .iter()
        .flat_map(|segment| {
            segment.words.iter().flat_map(|word| {
                words(&word.text).into_iter().map(|w| Heard {
                    word: w,
                    at_ms: word.start_ms,
                })
            })
        })
        .collect()
}

/// Edit operations aligning `hypothesis` to `reference`: for each inserted or deleted
/// (lost) word, the time in the audio where it happened. An inserted word that repeats its
/// neighbour in the transcript is a doubled word (`+`); any other insertion is a mishearing
/// that split a word (`~`, tiny.en hears "inside" as "in size"), not a stitching fault.
fn insertions_and_deletions(reference: &[String], hypothesis: &[Heard]) -> Vec<(String, i64)> {
    let (n, m) = (reference.len(), hypothesis.len());
    let mut cost = vec![vec![0usize; m + 1]; n + 1];
    for (i, row) in cost.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in cost[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=n {
        for j in 1..=m {
            let substitution =
                cost[i - 1][j - 1] + usize::from(reference[i - 1] != hypothesis[j - 1].word);
            cost[i][j] = substitution.min(cost[i - 1][j] + 1).min(cost[i][j - 1] + 1);
        }
    }
    let (mut i, mut j) = (n, m);
    let mut events = Vec::new();
    while i > 0 || j > 0 {
        let here = |j: usize| hypothesis.get(j.saturating_sub(1)).map_or(0, |h| h.at_ms);
        if i > 0
            && j > 0
            && cost[i][j]
                == cost[i - 1][j - 1] + usize::from(reference[i - 1] != hypothesis[j - 1].word)
        {
            i -= 1;
            j -= 1;
        } else if j > 0 && cost[i][j] == cost[i][j - 1] + 1 {
            let inserted = &hypothesis[j - 1].word;
            let doubled = [j.checked_sub(2), Some(j)]
                .into_iter()
                .flatten()
                .filter_map(|k| hypothesis.get(k))
                .any(|neighbour| &neighbour.word == inserted);
            let mark = if doubled { '+' } else { '~' };
            events.push((format!("{mark}{inserted}"), here(j)));
            j -= 1;
        } else {
            events.push((format!("-{}", reference[i - 1]), here(j)));
            i -= 1;
        }
    }
    events
}

#[test]
fn windows_cut_mid_sentence_lose_and_double_no_word() {
    let audio = shared("audio/long-01-bread.mp3");
    let reference = words(&std::fs::read_to_string(shared("audio/long-01-bread.txt")).unwrap());
    let whole = run(&audio, &options(300, None)).unwrap();
    assert_eq!(whole.window_starts_ms, [0]);
    // 16 s windows cut within their last 4 s: on 77 s of speech some cuts must fall inside a
    // sentence (inside a segment of the one-window run).
    let windowed = run(&audio, &options(16, None)).unwrap();
    let cuts: Vec<i64> = windowed.window_starts_ms[1..].to_vec();
    let mid_sentence: Vec<i64> = cuts
        .iter()
        .copied()
        .filter(|cut| {
            whole
                .segments
                .iter()
                .any(|segment| segment.start_ms + 300 < *cut && *cut < segment.end_ms - 300)
        })
        .collect();
    assert!(
        !mid_sentence.is_empty(),
        "no cut fell inside a sentence: {cuts:?}"
    );
    // Words lost or added near a cut are the model's own mistakes only if the one-window run
    // makes them too (tiny.en hears "inside" as "in size" either way).
    let model_errors = insertions_and_deletions(&reference, &heard(&whole.segments));
    let at_cuts: Vec<_> = insertions_and_deletions(&reference, &heard(&windowed.segments))
        .into_iter()
        .filter(|(word, _)| !word.starts_with('~'))
        .filter(|(_, at)| cuts.iter().any(|cut| (at - cut).abs() <= 1_500))
        .filter(|(word, at)| {
            !model_errors
                .iter()
                .any(|(same, when)| same == word && (at - when).abs() <= 2_000)
        })
        .collect();
    assert!(
        at_cuts.is_empty(),
        "words lost (-) or doubled (+) at the cuts {cuts:?}: {at_cuts:?}"
    );
    let errors = insertions_and_deletions(&reference, &heard(&windowed.segments)).len();
    assert!(
        errors <= model_errors.len() + 3,
        "{errors} words lost or added in windows, {} in one go",
        model_errors.len()
    );
}

#[test]
fn word_times_lie_inside_their_segment_and_spell_it() {
    let transcript = run(&shared("audio/sample-01-welcome.mp3"), &options(300, None)).unwrap();
    assert!(!transcript.segments.is_empty());
    for segment in &transcript.segments {
        assert!(!segment.words.is_empty(), "{segment:?}");
        let spelled: Vec<String> = segment.words.iter().flat_map(|w| words(&w.text)).collect();
        assert_eq!(spelled, words(&segment.text), "{segment:?}");
        let mut previous = segment.start_ms;
        for word in &segment.words {
            assert!(word.start_ms >= previous, "{segment:?}");
            assert!(
                word.end_ms >= word.start_ms && word.end_ms <= segment.end_ms,
                "{segment:?}"
            );
            assert!((0.0..=1.0).contains(&word.probability), "{word:?}");
            previous = word.start_ms;
        }
    }
}

struct Piece {
    file: String,
    start_seconds: f64,
    end_seconds: f64,
}

/// The pieces of speech in `padded.mp3`, as `scripts/make-engine-audio.sh` measured them.
fn padded_pieces() -> Vec<Piece> {
    let manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(fixture("padded.json")).unwrap()).unwrap();
    manifest["pieces"]
        .as_array()
        .unwrap()
        .iter()
        .map(|piece| Piece {
            file: piece["file"].as_str().unwrap().to_owned(),
            start_seconds: piece["start_seconds"].as_f64().unwrap(),
            end_seconds: piece["end_seconds"].as_f64().unwrap(),
        })
        .collect()
}

/// With VAD and windows shorter than the file, each piece's first segment starts within
/// 0.3 s of where its speech really starts, and no segment starts in a gap, though whisper
/// runs its segments on across the pauses VAD leaves.
#[test]
fn with_vad_segments_start_where_the_speech_starts() {
    let Some(vad) =
        scribevault_test_support::vad_model("with_vad_segments_start_where_the_speech_starts")
    else {
        return;
    };
    let pieces = padded_pieces();
    // The default window: whisper then hears several pieces in one go, 100 ms apart.
    let transcript = run(&fixture("padded.mp3"), &options(120, Some(vad))).unwrap();
    assert!(transcript.window_starts_ms.len() >= 2);
    // The speech of both windows fits in one call.
    assert_eq!(transcript.whisper_calls, 1);
    assert_starts_at_the_speech(&transcript, &pieces);
}

/// With short windows, the speech of several windows is gathered into one call (whisper pays a
/// whole 30 s encoder pass for each call's last seconds), and times still land on the file's
/// clock where each piece of speech starts.
#[test]
fn with_vad_the_speech_of_several_windows_goes_to_whisper_together() {
    let Some(vad) = scribevault_test_support::vad_model(
        "with_vad_the_speech_of_several_windows_goes_to_whisper_together",
    ) else {
        return;
    };
    let pieces = padded_pieces();
    let transcript = run(&fixture("padded.mp3"), &options(30, Some(vad))).unwrap();
    assert!(
        transcript.whisper_calls < transcript.window_starts_ms.len(),
        "{} calls for {} windows",
        transcript.whisper_calls,
        transcript.window_starts_ms.len()
    );
    assert_starts_at_the_speech(&transcript, &pieces);
}

/// VAD kept little of the silence, no segment starts in a gap, and every piece's first segment
/// starts within 0.3 s of its speech.
fn assert_starts_at_the_speech(transcript: &FileTranscript, pieces: &[Piece]) {
    assert!(
        transcript.speech_seconds < transcript.audio_seconds * 0.8,
        "VAD kept {} of {} s",
        transcript.speech_seconds,
        transcript.audio_seconds
    );
    let inside = |ms: i64| {
        pieces.iter().any(|piece| {
            let (start, end) = (piece.start_seconds * 1000.0, piece.end_seconds * 1000.0);
            (start - 300.0..=end).contains(&(ms as f64))
        })
    };
    for segment in &transcript.segments {
        assert!(
            inside(segment.start_ms),
            "a segment starts in a gap: {segment:?}"
        );
    }
    for piece in pieces {
        let start_ms = piece.start_seconds * 1000.0;
        let first = transcript
            .segments
            .iter()
            .map(|segment| segment.start_ms as f64)
            .filter(|start| (start_ms - 1_000.0..=piece.end_seconds * 1000.0).contains(start))
            .fold(f64::INFINITY, f64::min);
        assert!(
            (first - start_ms).abs() <= 300.0,
            "{}: speech starts at {start_ms} ms, its first segment at {first} ms",
            piece.file
        );
    }
}

/// Progress grows across windows to 100 %, and an abort set half-way stops the file within
/// about one window's work, not at its end.
#[test]
fn progress_spans_the_windows_and_cancel_stops_midway() {
    let audio = fixture("padded.mp3");
    let model = ModelCache::default()
        .get(&shared("models/ggml-tiny.en.bin"))
        .unwrap();
    let progress = Arc::new(AtomicU32::new(0));
    let seen = Arc::new(std::sync::Mutex::new(Vec::new()));
    let watcher = {
        let (progress, seen) = (progress.clone(), seen.clone());
        std::thread::spawn(move || {
            loop {
                let now = progress.load(Ordering::Relaxed);
                seen.lock().unwrap().push(now);
                if now >= 100 {
                    break;
                }
                std::thread::sleep(Duration::from_millis(50));
            }
        })
    };
    let started = Instant::now();
    let whole = transcribe_in_windows(
        std::fs::File::open(&audio).unwrap(),
        &model,
        &options(30, None),
        &progress,
        &Arc::new(AtomicBool::new(false)),
    )
    .unwrap();
    let whole_run = started.elapsed();
    watcher.join().unwrap();
    let seen = seen.lock().unwrap().clone();
    assert!(seen.windows(2).all(|pair| pair[0] <= pair[1]), "{seen:?}");
    let distinct: std::collections::BTreeSet<_> = seen.iter().collect();
    assert!(
        distinct.len() >= 6,
        "progress moved in too few steps: {seen:?}"
    );
    assert_eq!(*seen.last().unwrap(), 100);

    let progress = Arc::new(AtomicU32::new(0));
    let abort = Arc::new(AtomicBool::new(false));
    let stopper = {
        let (progress, abort) = (progress.clone(), abort.clone());
        std::thread::spawn(move || {
            while progress.load(Ordering::Relaxed) < 50 {
                std::thread::sleep(Duration::from_millis(20));
            }
            abort.store(true, Ordering::Relaxed);
            (Instant::now(), progress.load(Ordering::Relaxed))
        })
    };
    let result = transcribe_in_windows(
        std::fs::File::open(&audio).unwrap(),
        &model,
        &options(30, None),
        &progress,
        &abort,
    );
    let returned_at = Instant::now();
    let (aborted_at, at_percent) = stopper.join().unwrap();
    assert!(
        matches!(result, Err(FileError::Engine(EngineError::Aborted))),
        "{result:?}"
    );
    let lag = returned_at.duration_since(aborted_at);
    let per_window = whole_run / u32::try_from(whole.window_starts_ms.len()).unwrap();
    assert!(
        lag < per_window,
        "stopped {lag:?} after the abort at {at_percent} %; a window takes {per_window:?}"
    );
    assert!(progress.load(Ordering::Relaxed) < 100);
}

#[test]
fn audio_over_the_limit_is_refused_before_it_is_transcribed() {
    let mut limited = options(30, None);
    limited.max_audio_seconds = 60;
    let result = run(&shared("audio/long-01-bread.mp3"), &limited);
    match result {
        Err(error @ FileError::TooLong { .. }) => {
            assert_eq!(
                error.to_string(),
                "The audio is longer than the limit of 1 min"
            );
        }
        other => panic!("expected TooLong, got {other:?}"),
    }
}

/// German for espeak-ng's `de` voice (about 12 s). Whisper's detection needs a few seconds
/// of this synthetic voice: base named 5–6 s cuts of the first sentence Thai.
const GERMAN: &str = "Guten Morgen. Heute sprechen wir über das Wetter in Berlin \
    und über die Bahn, die wieder zu spät gekommen ist. Morgen soll es regnen, \
    deshalb bleiben wir zu Hause und lesen ein Buch.";

#[test]
fn auto_detects_a_german_file_once_and_decodes_every_window_in_german() {
    let test = "auto_detects_a_german_file_once_and_decodes_every_window_in_german";
    let Some(mp3) = scribevault_test_support::speech::spoken_mp3(test, "de", GERMAN) else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let audio = dir.path().join("german.mp3");
    std::fs::write(&audio, mp3).unwrap();
    let model = ModelCache::default()
        .get(&shared("models/ggml-base-q8_0.bin"))
        .unwrap();
    // Two windows: [0, ~7 s] and the rest.
    let mut options = options(8, None);
    options.decode.language = "auto".to_owned();
    let transcript = transcribe_in_windows(
        std::fs::File::open(&audio).unwrap(),
        &model,
        &options,
        &Arc::new(AtomicU32::new(0)),
        &Arc::new(AtomicBool::new(false)),
    )
    .unwrap();
    assert!(
        transcript.window_starts_ms.len() >= 2,
        "several windows: {:?}",
        transcript.window_starts_ms
    );
    assert_eq!(transcript.language.as_deref(), Some("de"));
    // The text is German, in the later windows too (detection ran on the first): most words
    // heard are words of the sentence (espeak's voice and base's size cost a few).
    let spoken = words(GERMAN);
    let heard: Vec<String> = transcript
        .segments
        .iter()
        .flat_map(|segment| words(&segment.text))
        .collect();
    let understood: Vec<&String> = heard.iter().filter(|word| spoken.contains(word)).collect();
    assert!(
        understood.len() * 10 >= heard.len() * 6 && understood.len() >= 8,
        "{heard:?}"
    );
    let last_window = transcript.window_starts_ms.last().copied().unwrap();
    assert!(
        transcript
            .segments
            .iter()
            .filter(|segment| segment.start_ms >= last_window)
            .flat_map(|segment| words(&segment.text))
            .any(|word| spoken.contains(&word)),
        "the last window is German too: {:?}",
        transcript.segments
    );
}

#[test]
fn an_english_only_model_transcribes_in_english_whatever_was_asked() {
    let mut options = options(300, None);
    options.decode.language = "de".to_owned();
    let transcript = run(&shared("audio/sample-01-welcome.mp3"), &options).unwrap();
    assert_eq!(transcript.language.as_deref(), Some("en"));
    assert!(
        transcript
            .segments
            .iter()
            .any(|segment| segment.text.to_lowercase().contains("welcome")),
        "{:?}",
        transcript.segments
    );
}
