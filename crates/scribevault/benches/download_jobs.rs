//! 20 MP3 downloads through the whole job path (REST → discovery → yt-dlp → storage, progress
//! events, database bookkeeping) against running yt-dlp alone, one file after another, on the
//! same files in the same session.
//!
//! `cargo bench -p scribevault --bench download_jobs [-- <runs>]`
//!
//! A local HTTP server in this process serves the MP3s (`test-support`'s media server) and the
//! YouTube fake names the videos; `scribevault all` runs as its own process. yt-dlp is the one
//! `scripts/install-media-tools.sh` installs. Each run uses a fresh user, so storage's
//! per-user de-duplication never shortcuts a file. Prints one JSON line.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::print_stdout)] // a measuring tool

use std::time::{Duration, Instant};

use scribevault_discovery::{YtDlp, YtDlpOptions};
use scribevault_test_support::media::{MediaServer, ytdlp};
use scribevault_test_support::shared_dir;
use scribevault_test_support::youtube::{FakeChannel, FakeYouTube, channel_id};
use serde_json::{Value, json};
use tokio::io::AsyncBufReadExt as _;

const VIDEOS: usize = 20;
const SAMPLES: [&str; 4] = [
    "sample-01-welcome.mp3",
    "sample-02-subscribe.mp3",
    "sample-03-meeting.mp3",
    "sample-04-noisy.mp3",
];

/// yt-dlp alone, the same flags the service gives it, each file in turn.
async fn ytdlp_alone(program: &str, watch_url: &str, ids: &[String]) -> Duration {
    let dir = tempfile::tempdir().unwrap();
    let ytdlp = YtDlp::new(YtDlpOptions {
        program: program.to_owned(),
        watch_url: watch_url.to_owned(),
        retries: 3,
        rate_limit: None,
        timeout: Duration::from_secs(600),
        captions_sleep: Duration::ZERO,
    });
    let started = Instant::now();
    for id in ids {
        let status = tokio::process::Command::new(program)
            .args(ytdlp.arguments(id, dir.path()))
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .status()
            .await
            .unwrap();
        assert!(status.success(), "yt-dlp alone failed on {id}");
    }
    started.elapsed()
}

async fn post(http: &reqwest::Client, url: String, token: Option<&str>, body: Value) -> Value {
    let mut request = http.post(url).json(&body);
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    let response = request.send().await.unwrap();
    assert!(response.status().is_success(), "{}", response.status());
    response.json().await.unwrap()
}

async fn get(http: &reqwest::Client, url: String, token: &str) -> Value {
    http.get(url)
        .bearer_auth(token)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap()
}

/// Starts `scribevault all` against the fakes; answers the process and its HTTP base URL.
async fn start_server(
    data_dir: &std::path::Path,
    youtube: &FakeYouTube,
    media: &MediaServer,
    program: &str,
) -> (tokio::process::Child, String) {
    let mut child = tokio::process::Command::new(env!("CARGO_BIN_EXE_scribevault"))
        .arg("all")
        .env("SCRIBEVAULT_DATA_DIR", data_dir)
        .env("SCRIBEVAULT_HTTP_ADDR", "127.0.0.1:0")
        .env("SCRIBEVAULT_FRONTEND_DIR", data_dir.join("none"))
        .env("SCRIBEVAULT_YOUTUBE_API_BASE", youtube.base_url())
        .env("SCRIBEVAULT_YOUTUBE_API_KEY", "bench-key")
        .env("SCRIBEVAULT_YTDLP_PATH", program)
        .env("SCRIBEVAULT_YOUTUBE_WATCH_URL", media.watch_url())
        .env("SCRIBEVAULT_DOWNLOAD_RETRIES", "3")
        .env("SCRIBEVAULT_DOWNLOAD_CONCURRENCY", "1")
        .env("RUST_LOG", "warn")
        .stdout(std::process::Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    let mut lines = tokio::io::BufReader::new(child.stdout.take().unwrap()).lines();
    let base = loop {
        let line = lines
            .next_line()
            .await
            .unwrap()
            .expect("the server announces itself");
        if let Some(addr) = line.strip_prefix("scribevault listening http ") {
            break format!("http://{}", addr.trim());
        }
    };
    tokio::spawn(async move { while let Ok(Some(_)) = lines.next_line().await {} });
    (child, base)
}

/// A fresh user with the bench channel as a source: (token, source id).
async fn user_with_source(http: &reqwest::Client, base: &str, run: u32) -> (String, String) {
    let signed_up = post(
        http,
        format!("{base}/api/auth/signup"),
        None,
        json!({ "email": format!("bench{run}@example.com"), "password": "bench-password-1" }),
    )
    .await;
    let token = signed_up["data"]["token"]
        .as_str()
        .or_else(|| signed_up["token"].as_str())
        .unwrap()
        .to_owned();
    let source = post(
        http,
        format!("{base}/api/sources"),
        Some(&token),
        json!({ "url": "@benchdownloads" }),
    )
    .await;
    let source_id = source["data"]["id"].as_str().unwrap().to_owned();
    (token, source_id)
}

/// The source's video ids, each given one of the samples to serve.
async fn serve_videos(
    http: &reqwest::Client,
    base: &str,
    (token, source_id): (&str, &str),
    media: &MediaServer,
) -> Vec<String> {
    let videos = get(
        http,
        format!("{base}/api/sources/{source_id}/videos"),
        token,
    )
    .await;
    let ids: Vec<String> = videos["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|video| video["youtubeVideoId"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(ids.len(), VIDEOS);
    for (index, id) in ids.iter().enumerate() {
        let file = shared_dir()
            .join("audio")
            .join(SAMPLES[index % SAMPLES.len()]);
        media.add_audio(id, std::fs::read(file).unwrap());
    }
    ids
}

/// One download job of `ids`, from the request until the job is listed as completed.
async fn timed_job(
    http: &reqwest::Client,
    base: &str,
    (token, source_id): (&str, &str),
    ids: &[String],
) -> Duration {
    let started = Instant::now();
    let job = post(
        http,
        format!("{base}/api/downloads"),
        Some(token),
        json!({ "sourceId": source_id, "videoIds": ids }),
    )
    .await;
    let job_id = job["data"]["id"].as_str().unwrap().to_owned();
    loop {
        let listed = get(http, format!("{base}/api/downloads"), token).await;
        let job = listed["data"]
            .as_array()
            .unwrap()
            .iter()
            .find(|job| job["id"] == job_id.as_str())
            .unwrap()
            .clone();
        match job["status"].as_str().unwrap() {
            "COMPLETED" => break,
            "FAILED" => panic!("the job failed: {job}"),
            _ => tokio::time::sleep(Duration::from_millis(20)).await,
        }
    }
    started.elapsed()
}

#[tokio::main]
async fn main() {
    let runs: u32 = std::env::args()
        .skip(1)
        .find(|arg| arg != "--bench")
        .map_or(3, |arg| arg.parse().unwrap());
    let program =
        ytdlp("download_jobs bench").expect("yt-dlp and ffmpeg (scripts/install-media-tools.sh)");
    let media = MediaServer::start().await;
    let youtube = FakeYouTube::start().await;
    let channel = channel_id(777);
    youtube.add_channel(
        FakeChannel::generated(&channel, "Bench downloads", VIDEOS).with_handle("benchdownloads"),
    );
    let data_dir = tempfile::tempdir().unwrap();
    let (mut child, base) = start_server(data_dir.path(), &youtube, &media, &program).await;
    let http = reqwest::Client::new();

    let mut alone = Vec::new();
    let mut jobs = Vec::new();
    let mut ids: Vec<String> = Vec::new();
    for run in 0..runs {
        let (token, source_id) = user_with_source(&http, &base, run).await;
        if ids.is_empty() {
            ids = serve_videos(&http, &base, (&token, &source_id), &media).await;
        }
        alone.push(ytdlp_alone(&program, &media.watch_url(), &ids).await);
        jobs.push(timed_job(&http, &base, (&token, &source_id), &ids).await);
    }
    let median = |durations: &mut Vec<Duration>| {
        durations.sort();
        durations[durations.len() / 2].as_secs_f64()
    };
    let job = median(&mut jobs);
    let reference = median(&mut alone);
    println!(
        "{}",
        json!({
            "videos": VIDEOS,
            "runs": runs,
            "job_seconds_median": job,
            "ytdlp_alone_seconds_median": reference,
            "ratio_job_to_ytdlp_alone": job / reference,
            "profile": if cfg!(debug_assertions) { "debug" } else { "release" },
        })
    );
    child.kill().await.unwrap();
}
