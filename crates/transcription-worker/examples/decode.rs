//! Records what the decoder makes of one audio file in one whisper call, with its scores: the
//! quality guard's unit tests read such recordings (`src/transcribe/quality/recorded/`), and
//! `docs/quality.md` says which inputs made tiny.en invent or loop.
//!
//! `decode <audio.mp3> --model <ggml.bin> [--threads N] [--retry] [--no-fallback]`
//!
//! Prints `{"audio_seconds", "wall_seconds", "decoded": [Decoded…]}`; `--retry` decodes as the
//! quality guard's re-decode does; `--no-fallback`
//! turns whisper.cpp's own temperature fallback off.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a tool that fails loudly on purpose

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU32};
use std::time::Instant;

use scribevault_transcription_worker::audio::{WHISPER_SAMPLE_RATE, read_all};
use scribevault_transcription_worker::whisper::{
    DecodeOptions, ModelCache, Pass, ProgressSpan, Transcriber,
};

fn main() {
    let mut args = std::env::args().skip(1);
    let (mut audio, mut model, mut threads, mut pass) = (None, None, 1, Pass::First);
    let mut fallback = true;
    while let Some(arg) = args.next() {
        let mut value = || args.next().unwrap_or_else(|| panic!("{arg} needs a value"));
        match arg.as_str() {
            "--model" => model = Some(PathBuf::from(value())),
            "--threads" => threads = value().parse().expect("--threads N"),
            "--retry" => pass = Pass::Retry,
            "--no-fallback" => fallback = false,
            other if !other.starts_with("--") => audio = Some(PathBuf::from(other)),
            other => panic!("unknown option {other}"),
        }
    }
    let audio = audio.expect("usage: decode <audio.mp3> --model <ggml.bin> [--retry]");
    let model = ModelCache::default()
        .get(&model.expect("--model <ggml.bin> is required"))
        .unwrap();
    let pcm = read_all(&audio).unwrap();
    let started = Instant::now();
    let mut options = DecodeOptions::new(threads, "en");
    options.temperature_fallback = fallback;
    let mut transcriber = Transcriber::new(&model, options).unwrap();
    let decoded = transcriber
        .transcribe(
            &pcm,
            pass,
            ProgressSpan::whole(Arc::new(AtomicU32::new(0))),
            Arc::new(AtomicBool::new(false)),
        )
        .unwrap();
    #[allow(clippy::cast_precision_loss)]
    let audio_seconds = pcm.len() as f64 / f64::from(WHISPER_SAMPLE_RATE);
    let result = serde_json::json!({
        "audio_seconds": audio_seconds,
        "wall_seconds": started.elapsed().as_secs_f64(),
        "decoded": decoded,
    });
    println!("{result}");
}
