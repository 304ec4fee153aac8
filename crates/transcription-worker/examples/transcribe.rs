//! The worker's engine on one local file, as the worker runs it (streamed decode, windows, VAD,
//! word times), without the services around it. `bench/engine.sh` builds it in each build
//! variant and reads the JSON it prints.
//!
//! `transcribe <audio.mp3> --model <ggml.bin> [--threads N] [--vad-model <silero.bin>]
//!  [--window-seconds S] [--no-context] [--no-fallback] [--max-text-context N] [--language en|auto]
//!  [--rss-every SECONDS] [--in-thread] [--flash-attn] [--trim-audio-ctx]`
//!
//! `--rss-every` prints the process's VmRSS and VmHWM (and the file's progress) to stderr at that
//! interval, to see when memory grows during a long file. `--in-thread` transcribes on a thread of
//! its own, as the worker does (a blocking thread: glibc then serves it from a thread arena, not
//! the main heap).

#![allow(clippy::unwrap_used, clippy::expect_used)] // a tool that fails loudly on purpose

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU32};
use std::time::Instant;

use scribevault_transcription_worker::transcribe::stitching::{
    AudioOptions, transcribe_in_windows,
};
use scribevault_transcription_worker::whisper::{DecodeOptions, ModelCache};

/// What the command line asks for.
struct Args {
    audio: PathBuf,
    model: PathBuf,
    rss_every: Option<f64>,
    in_thread: bool,
    flash_attention: bool,
    options: AudioOptions,
}

fn parse_args() -> Args {
    let mut args = std::env::args().skip(1);
    let mut audio = None;
    let mut model = None;
    let mut rss_every = None;
    let mut in_thread = false;
    let mut flash_attention = false;
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
            "--rss-every" => {
                rss_every = Some(value().parse::<f64>().expect("--rss-every SECONDS"));
            }
            "--in-thread" => in_thread = true,
            "--flash-attn" => flash_attention = true,
            "--trim-audio-ctx" => options.decode.trim_audio_ctx = true,
            other if !other.starts_with("--") => audio = Some(PathBuf::from(other)),
            other => panic!("unknown option {other}"),
        }
    }
    Args {
        audio: audio.expect("usage: transcribe <audio.mp3> --model <ggml.bin> [options]"),
        model: model.expect("--model <ggml.bin> is required"),
        rss_every,
        in_thread,
        flash_attention,
        options,
    }
}

/// Prints the process's memory and the file's progress to stderr every `every` seconds.
fn watch_memory(every: f64, started: Instant, progress: Arc<AtomicU32>) {
    std::thread::spawn(move || {
        loop {
            let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
            let field = |name: &str| {
                status
                    .lines()
                    .find_map(|line| line.strip_prefix(name))
                    .map_or(0, |rest| {
                        rest.trim()
                            .trim_end_matches(" kB")
                            .parse::<u64>()
                            .unwrap_or(0)
                    })
            };
            eprintln!(
                "rss t={:.0}s progress={}% rss={}KiB hwm={}KiB",
                started.elapsed().as_secs_f64(),
                progress.load(std::sync::atomic::Ordering::Relaxed),
                field("VmRSS:"),
                field("VmHWM:")
            );
            std::thread::sleep(std::time::Duration::from_secs_f64(every));
        }
    });
}

fn main() {
    let Args {
        audio,
        model,
        rss_every,
        in_thread,
        flash_attention,
        options,
    } = parse_args();
    ModelCache::install_logging();
    let context = ModelCache::with_flash_attention(flash_attention)
        .get(&model)
        .unwrap();
    // Like faster-whisper's figure in the bench: the model is loaded before the clock starts.
    let started = Instant::now();
    let file = std::fs::File::open(&audio).unwrap();
    let progress = Arc::new(AtomicU32::new(0));
    if let Some(every) = rss_every {
        watch_memory(every, started, progress.clone());
    }
    let trim_audio_ctx = options.decode.trim_audio_ctx;
    let run = {
        let progress = progress.clone();
        move || {
            transcribe_in_windows(
                file,
                &context,
                &options,
                &progress,
                &Arc::new(AtomicBool::new(false)),
            )
            .unwrap()
        }
    };
    let transcript = if in_thread {
        std::thread::spawn(run).join().unwrap()
    } else {
        run()
    };
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
        "whisper_calls": transcript.whisper_calls,
        "flash_attn": flash_attention,
        "trim_audio_ctx": trim_audio_ctx,
        "window_starts_ms": transcript.window_starts_ms,
        "language": transcript.language,
        "text": text,
        "segments": transcript.segments,
        "redecodes": transcript.redecodes,
        "review": transcript.review,
    });
    println!("{result}");
}
