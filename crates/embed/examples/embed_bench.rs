//! Search by meaning's costs on one core (issue 37's goals): the CPU time of one query's
//! vector, the back-fill's rate in hours of transcript a CPU-minute, and the peak RSS.
//!
//! `cargo run --release -p scribevault-embed --example embed_bench -- <e5-small-q4.bin> <transcript.txt> [words-a-minute]`
//!
//! The transcript is repeated to an hour of speech at its speaking rate (words a minute,
//! default 190: `long-01-bread.mp3` says 245 words in 77 s) and cut into chunks of 120 words,
//! as `domain::chunks` cuts a transcript without times. Prints one JSON line.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::print_stdout)] // a measuring tool

use std::time::Instant;

use scribevault_embed::{Embedder, Role};

/// This process's user + system CPU seconds, from /proc (clock ticks of 1/100 s).
fn cpu_seconds() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap();
    let fields: Vec<&str> = stat
        .rsplit(')')
        .next()
        .unwrap()
        .split_whitespace()
        .collect();
    let ticks: f64 = fields[11].parse::<f64>().unwrap() + fields[12].parse::<f64>().unwrap();
    ticks / 100.0
}

fn peak_rss_mib() -> f64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    let kib: f64 = status
        .lines()
        .find_map(|line| line.strip_prefix("VmHWM:"))
        .and_then(|rest| rest.trim().trim_end_matches(" kB").parse().ok())
        .unwrap_or(0.0);
    kib / 1024.0
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let model = Embedder::load(args[0].as_ref(), 1).unwrap();
    let text = std::fs::read_to_string(&args[1]).unwrap();
    let rate: f64 = args.get(2).map_or(190.0, |rate| rate.parse().unwrap());
    let words: Vec<&str> = text.split_whitespace().collect();
    let hour_of_words = (rate * 60.0) as usize;
    let speech: Vec<&str> = words.iter().copied().cycle().take(hour_of_words).collect();
    let chunks: Vec<String> = speech.chunks(120).map(|chunk| chunk.join(" ")).collect();

    let queries = [
        "how to bake bread at home",
        "what did they say about sourdough starters",
        "wie backt man Brot",
        "receta de pan casero",
        "how long should the dough rise",
    ];
    model.embed_query("warm up").unwrap();
    let rounds = 40;
    let started_cpu = cpu_seconds();
    let started = Instant::now();
    for _ in 0..rounds {
        for query in queries {
            model.embed_query(query).unwrap();
        }
    }
    let queries_run = (rounds * queries.len()) as f64;
    let query_cpu_ms = (cpu_seconds() - started_cpu) * 1000.0 / queries_run;
    let query_wall_ms = started.elapsed().as_secs_f64() * 1000.0 / queries_run;

    let started_cpu = cpu_seconds();
    let started = Instant::now();
    for batch in chunks.chunks(8) {
        let batch: Vec<&str> = batch.iter().map(String::as_str).collect();
        model.embed(&batch, Role::Passage).unwrap();
    }
    let backfill_cpu = cpu_seconds() - started_cpu;
    let backfill_wall = started.elapsed().as_secs_f64();
    println!(
        "{}",
        serde_json::json!({
            "threads": 1,
            "query_cpu_ms": query_cpu_ms,
            "query_wall_ms": query_wall_ms,
            "hour_of_speech_words": hour_of_words,
            "hour_of_speech_chunks": chunks.len(),
            "backfill_cpu_seconds_per_hour_of_speech": backfill_cpu,
            "backfill_wall_seconds_per_hour_of_speech": backfill_wall,
            "backfill_hours_of_speech_per_cpu_minute": 60.0 / backfill_cpu,
            "peak_rss_mib": peak_rss_mib(),
        })
    );
}
