//! The worker's engine on one local file, as the worker runs it (streamed decode, windows, VAD,
//! word times), without the services around it. `bench/engine.sh` builds it in each build
//! variant and reads the JSON it prints.
//!
//! `transcribe <audio.mp3> --model <ggml.bin> [--threads N] [--vad-model <silero.bin>]
//!  [--window-seconds S] [--no-context] [--no-fallback] [--max-text-context N] [--language en]`

#![allow(clippy::unwrap_used, clippy::expect_used)] // a tool that fails loudly on purpose

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU32};
use std::time::Instant;

use scribevault_transcription_worker::engine::{DecodeOptions, ModelCache};
use scribevault_transcription_worker::stitching::{AudioOptions, transcribe_in_windows};

fn main() {
    let mut args = std::env::args().skip(1);
    let mut audio = None;
    let mut model = None;
    let mut options = AudioOptions {
        decode: DecodeOptions::new(2, "en"),
        vad_model: None,
        window_seconds: 120,
        max_audio_seconds: u64::MAX / 16_000,
    };
    while let Some(arg) = args.next() {
        let mut value = || args.next().unwrap_or_else(|| panic!("{arg} needs a value"));
        match arg.as_str() {
            "--model" => model = Some(PathBuf::from(value())),
            "--threads" => options.decode.threads = value().parse().expect("--threads N"),
            "--vad-model" => options.vad_model = Some(PathBuf::from(value())),
            "--window-seconds" => {
                options.window_seconds = value().parse().expect("--window-seconds S")
            }
            "--language" => options.decode.language = value(),
            "--no-context" => options.decode.no_context = true,
            "--no-fallback" => options.decode.temperature_fallback = false,
            "--max-text-context" => {
                options.decode.max_text_context = value().parse().expect("--max-text-context N");
            }
            other if !other.starts_with("--") => audio = Some(PathBuf::from(other)),
            other => panic!("unknown option {other}"),
        }
    }
    let audio = audio.expect("usage: transcribe <audio.mp3> --model <ggml.bin> [options]");
    let model = model.expect("--model <ggml.bin> is required");
    ModelCache::install_logging();
    let context = ModelCache::default().get(&model).unwrap();
    // Like faster-whisper's figure in the bench: the model is loaded before the clock starts.
    let started = Instant::now();
    let file = std::fs::File::open(&audio).unwrap();
    let transcript = transcribe_in_windows(
        file,
        &context,
        &options,
        &Arc::new(AtomicU32::new(0)),
        &Arc::new(AtomicBool::new(false)),
    )
    .unwrap();
    let text = transcript
        .segments
        .iter()
        .map(|segment| segment.text.as_str())
        .collect::<Vec<_>>()
        .join(" ");
    let result = serde_json::json!({
        "audio_seconds": transcript.audio_seconds,
        "wall_seconds": started.elapsed().as_secs_f64(),
        "decode_seconds": transcript.decode_time.as_secs_f64(),
        "vad_seconds": transcript.vad_time.as_secs_f64(),
        "whisper_seconds": transcript.whisper_time.as_secs_f64(),
        "speech_seconds": transcript.speech_seconds,
        "window_starts_ms": transcript.window_starts_ms,
        "text": text,
        "segments": transcript.segments,
    });
    println!("{result}");
}
