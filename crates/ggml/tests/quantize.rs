//! Quantising the real tiny.en model: whisper.cpp loads the result and transcribes speech as
//! well as from the f16 file; damaged and wrong inputs are refused and leave nothing behind.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU32};

use scribevault_ggml::{ModelFileError, QuantType, quantize_model};
use scribevault_transcription_worker::audio::read_all;
use scribevault_transcription_worker::whisper::{DecodeOptions, ModelCache, transcribe};

fn shared(path: &str) -> PathBuf {
    scribevault_test_support::shared_dir().join(path)
}

fn words(text: &str) -> Vec<String> {
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

fn word_errors(reference: &[String], hypothesis: &[String]) -> usize {
    let mut previous: Vec<usize> = (0..=hypothesis.len()).collect();
    for (i, r) in reference.iter().enumerate() {
        let mut current = vec![i + 1; hypothesis.len() + 1];
        for (j, h) in hypothesis.iter().enumerate() {
            current[j + 1] = (previous[j] + usize::from(r != h))
                .min(previous[j + 1] + 1)
                .min(current[j] + 1);
        }
        previous = current;
    }
    previous[hypothesis.len()]
}

fn transcript_of(model: &Path, sample: &str) -> Vec<String> {
    let context = ModelCache::default().get(model).unwrap();
    let pcm = read_all(&shared(&format!("audio/{sample}.mp3"))).unwrap();
    let segments = transcribe(
        &context,
        &pcm,
        DecodeOptions::new(1, "en"),
        Arc::new(AtomicU32::new(0)),
        Arc::new(AtomicBool::new(false)),
    )
    .unwrap();
    words(
        &segments
            .iter()
            .map(|s| s.text.as_str())
            .collect::<Vec<_>>()
            .join(" "),
    )
}

fn header_ftype(path: &Path) -> i32 {
    let bytes = std::fs::read(path).unwrap();
    i32::from_le_bytes(bytes[44..48].try_into().unwrap())
}

#[test]
fn a_quantised_tiny_model_transcribes_as_well_as_the_f16_one() {
    let dir = tempfile::tempdir().unwrap();
    let f16 = shared("models/ggml-tiny.en.bin");
    for (kind, ftype, largest_share) in [
        (QuantType::Q8_0, 2007, 0.60),
        (QuantType::Q5_0, 2008, 0.45),
        (QuantType::Bf16, 2024, 1.01),
    ] {
        let out = dir.path().join(format!("ggml-tiny.en-{kind}.bin"));
        let report = quantize_model(&f16, &out, kind).unwrap();
        assert_eq!(header_ftype(&out), ftype, "{kind}");
        assert_eq!(report.bytes_in, std::fs::metadata(&f16).unwrap().len());
        assert_eq!(report.bytes_out, std::fs::metadata(&out).unwrap().len());
        // Every matrix quantised: the file shrinks to about 53 % (q8_0) or 35 % (q5_0) of f16;
        // bf16 is as large as f16. A bf16 matrix read as f16 (or the reverse) would have the
        // right size and the wrong values: the transcripts below catch that.
        #[allow(clippy::cast_precision_loss)]
        let share = report.bytes_out as f64 / report.bytes_in as f64;
        assert!(share < largest_share, "{kind}: {share}");
        assert!(report.quantised > 50, "{report:?}");
        for sample in ["sample-01-welcome", "sample-03-meeting"] {
            let reference =
                words(&std::fs::read_to_string(shared(&format!("audio/{sample}.txt"))).unwrap());
            let ours = transcript_of(&out, sample);
            let errors = word_errors(&reference, &ours);
            assert!(
                errors * 100 <= reference.len() * 15,
                "{kind} {sample}: {errors} errors in {ours:?}"
            );
        }
    }
}

#[test]
fn wrong_and_damaged_inputs_are_refused_and_leave_no_file() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.bin");

    let text = dir.path().join("notes.bin");
    std::fs::write(&text, "not a model at all").unwrap();
    assert!(matches!(
        quantize_model(&text, &out, QuantType::Q8_0),
        Err(ModelFileError::NotGgml(_))
    ));

    let truncated = dir.path().join("truncated.bin");
    let f16 = std::fs::read(shared("models/ggml-tiny.en.bin")).unwrap();
    std::fs::write(&truncated, &f16[..10_000_000]).unwrap();
    let error = quantize_model(&truncated, &out, QuantType::Q8_0).unwrap_err();
    assert!(error.to_string().contains("truncated"), "{error}");

    let quantised = shared("models/ggml-base-q8_0.bin");
    assert!(matches!(
        quantize_model(&quantised, &out, QuantType::Q8_0),
        Err(ModelFileError::AlreadyQuantised(_))
    ));

    std::fs::write(&out, b"keep me").unwrap();
    assert!(matches!(
        quantize_model(&out, &out, QuantType::Q8_0),
        Err(ModelFileError::SameFile)
    ));
    assert_eq!(std::fs::read(&out).unwrap(), b"keep me");
    std::fs::remove_file(&out).unwrap();

    let left: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(
        !left.iter().any(|name| name.starts_with("out")),
        "left behind: {left:?}"
    );
}
