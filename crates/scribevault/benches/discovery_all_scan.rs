//! "All" of a 5,000-video channel: wall time against the unavoidable chain of 100 sequential
//! `playlistItems.list` pages, and the memory the discovery process takes.
//!
//! `cargo bench -p scribevault --bench discovery_all_scan [-- <latency ms> <runs>]`
//!
//! The YouTube fake runs in this process and answers every request after the latency (20 ms by
//! default); `scribevault discovery` runs as its own process (SQLite in a temporary data dir),
//! so its peak RSS (`VmHWM`) is the service's alone. Each run uses a fresh channel so nothing
//! is cached. Prints one JSON line.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::print_stdout)] // a measuring tool

use std::time::{Duration, Instant};

use scribevault_proto::discovery::v1 as pb;
use scribevault_proto::discovery::v1::discovery_service_client::DiscoveryServiceClient;
use scribevault_test_support::grpc::as_user;
use scribevault_test_support::youtube::{FakeChannel, FakeYouTube, channel_id};
use tokio::io::AsyncBufReadExt as _;

const VIDEOS: usize = 5_000;
const KEY: &str = "bench-key";

fn rss_kib(pid: u32, field: &str) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .unwrap()
        .lines()
        .find_map(|line| line.strip_prefix(field))
        .and_then(|rest| rest.trim().trim_end_matches(" kB").trim().parse().ok())
        .unwrap()
}

/// The reference: the 100 pages read one after the other, nothing else.
async fn page_chain(youtube: &FakeYouTube, uploads: &str) -> Duration {
    let http = reqwest::Client::new();
    let started = Instant::now();
    let mut token: Option<String> = None;
    let mut pages = 0;
    loop {
        let mut query = vec![
            ("part", "contentDetails,status".to_owned()),
            ("playlistId", uploads.to_owned()),
            ("maxResults", "50".to_owned()),
            ("key", KEY.to_owned()),
        ];
        if let Some(token) = &token {
            query.push(("pageToken", token.clone()));
        }
        let page: serde_json::Value = http
            .get(format!("{}/playlistItems", youtube.base_url()))
            .query(&query)
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        pages += 1;
        match page["nextPageToken"].as_str() {
            Some(next) => token = Some(next.to_owned()),
            None => break,
        }
    }
    assert_eq!(pages, VIDEOS / 50);
    started.elapsed()
}

/// Starts the discovery service alone against the fake; answers it and its gRPC address.
async fn start_discovery(
    data_dir: &std::path::Path,
    youtube: &FakeYouTube,
) -> (tokio::process::Child, String) {
    let mut child = tokio::process::Command::new(env!("CARGO_BIN_EXE_scribevault"))
        .arg("discovery")
        .env("SCRIBEVAULT_DATA_DIR", data_dir)
        .env("SCRIBEVAULT_DISCOVERY_GRPC_ADDR", "127.0.0.1:0")
        .env("SCRIBEVAULT_YOUTUBE_API_BASE", youtube.base_url())
        .env("SCRIBEVAULT_YOUTUBE_API_KEY", KEY)
        .env("RUST_LOG", "warn")
        .stdout(std::process::Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    let mut lines = tokio::io::BufReader::new(child.stdout.take().unwrap()).lines();
    let addr = loop {
        let line = lines
            .next_line()
            .await
            .unwrap()
            .expect("discovery announces itself");
        if let Some(addr) = line.strip_prefix("scribevault listening discovery ") {
            break addr.trim().to_owned();
        }
    };
    tokio::spawn(async move { while let Ok(Some(_)) = lines.next_line().await {} });
    (child, addr)
}

#[tokio::main]
async fn main() {
    let mut args = std::env::args().skip(1).filter(|arg| arg != "--bench");
    let latency_ms: u64 = args.next().map_or(20, |arg| arg.parse().unwrap());
    let runs: u32 = args.next().map_or(3, |arg| arg.parse().unwrap());

    let youtube = FakeYouTube::start().await;
    youtube.set_daily_quota(KEY, 1_000_000);
    youtube.set_latency(Duration::from_millis(latency_ms));

    let data_dir = tempfile::tempdir().unwrap();
    let (mut child, addr) = start_discovery(data_dir.path(), &youtube).await;
    let pid = child.id().unwrap();
    // `as_user` marks each request; the signed channel signs it for its method.
    let mut client = DiscoveryServiceClient::new(scribevault_proto::client::signed(
        scribevault_proto::server::connect_lazy(&addr).unwrap(),
    ));
    let rss_before_kib = rss_kib(pid, "VmRSS:");

    let mut scans = Vec::new();
    let mut chains = Vec::new();
    let mut units = Vec::new();
    for run in 0..runs {
        let id = channel_id(9_000 + run);
        let handle = format!("@bench{run}");
        youtube.add_channel(FakeChannel::generated(&id, "Bench", VIDEOS).with_handle(&handle));
        chains.push(page_chain(&youtube, &format!("UU{}", &id[2..])).await);
        youtube.reset_calls();
        let started = Instant::now();
        let found = client
            .get_channel_videos(as_user(
                "bench",
                pb::GetChannelVideosRequest {
                    channel_url: handle,
                    limit: -1,
                    refresh: false,
                },
            ))
            .await
            .unwrap()
            .into_inner();
        scans.push(started.elapsed());
        assert_eq!(found.videos.len(), VIDEOS);
        units.push(youtube.units_spent());
    }
    let peak_kib = rss_kib(pid, "VmHWM:");
    let median = |durations: &mut Vec<Duration>| {
        durations.sort();
        durations[durations.len() / 2].as_secs_f64()
    };
    let scan = median(&mut scans);
    let chain = median(&mut chains);
    println!(
        "{}",
        serde_json::json!({
            "videos": VIDEOS,
            "latency_ms": latency_ms,
            "runs": runs,
            "all_scan_seconds_median": scan,
            "page_chain_seconds_median": chain,
            "ratio_to_page_chain": scan / chain,
            "units_per_scan": units,
            "service_rss_before_mib": rss_before_kib as f64 / 1024.0,
            "service_peak_rss_mib": peak_kib as f64 / 1024.0,
            "profile": if cfg!(debug_assertions) { "debug" } else { "release" },
        })
    );
    child.kill().await.unwrap();
}
