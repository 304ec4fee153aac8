//! Audio pipeline benchmark on `long-01-bread.mp3` (77 s): decode + resample time, and whisper
//! time on the resulting PCM, with the test model and a given thread count. Prints one JSON
//! object, which `bench/run.sh` records next to the end-to-end figures.
//!
//! `cargo bench -p scribevault-transcription-worker --bench pipeline -- [threads] [repeats]`

#![allow(clippy::unwrap_used, clippy::expect_used)] // a benchmark fails loudly on purpose

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU32};
use std::time::Instant;

use scribevault_transcription_worker::audio::read_all;
use scribevault_transcription_worker::whisper::{DecodeOptions, ModelCache, transcribe};

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|arg| !arg.starts_with("--"))
        .collect();
    let threads: u32 = args.first().and_then(|arg| arg.parse().ok()).unwrap_or(2);
    let repeats: usize = args.get(1).and_then(|arg| arg.parse().ok()).unwrap_or(3);
    let shared = scribevault_test_support::shared_dir();
    let model_name = std::env::var("BENCH_MODEL").unwrap_or_else(|_| "ggml-tiny.en.bin".into());
    let mp3 = shared.join("audio/long-01-bread.mp3");
    ModelCache::install_logging();

    let mut decode_seconds = Vec::new();
    let mut pcm = Vec::new();
    let mut audio_seconds = 0.0;
    for _ in 0..repeats {
        let started = Instant::now();
        pcm = read_all(&mp3).unwrap();
        audio_seconds = pcm.len() as f64 / 16_000.0;
        decode_seconds.push(started.elapsed().as_secs_f64());
    }
    let load_started = Instant::now();
    let flash_attention = std::env::var("BENCH_FLASH_ATTN").is_ok_and(|value| value == "1");
    let model = ModelCache::with_flash_attention(flash_attention)
        .get(&shared.join("models").join(&model_name))
        .unwrap();
    let load_seconds = load_started.elapsed().as_secs_f64();
    let mut whisper_seconds = Vec::new();
    let mut text = String::new();
    for _ in 0..repeats {
        let started = Instant::now();
        let segments = transcribe(
            &model,
            &pcm,
            DecodeOptions::new(threads, "en"),
            Arc::new(AtomicU32::new(0)),
            Arc::new(AtomicBool::new(false)),
        )
        .unwrap();
        whisper_seconds.push(started.elapsed().as_secs_f64());
        text = segments
            .iter()
            .map(|segment| segment.text.as_str())
            .collect::<Vec<_>>()
            .join(" ");
    }
    let median = |values: &mut Vec<f64>| {
        values.sort_by(f64::total_cmp);
        values[values.len() / 2]
    };
    let result = serde_json::json!({
        "model": model_name,
        "threads": threads,
        "flash_attention": flash_attention,
        "repeats": repeats,
        "audio_seconds": audio_seconds,
        "decode_resample_seconds_median": median(&mut decode_seconds),
        "model_load_seconds": load_seconds,
        "whisper_seconds_median": median(&mut whisper_seconds),
        "whisper_seconds_all": whisper_seconds,
        "transcript": text,
    });
    println!("{result}");
}
