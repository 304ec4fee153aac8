//! Download jobs with the real yt-dlp against a local media server (its generic extractor
//! downloads a direct media URL), the real storage service in-process, and the owner's events.
//! The shared set-up is here; the tests by concern in `outcomes.rs`, `stopping.rs`, `owners.rs`
//! and `captions.rs` (YouTube's own captions, against fake video pages).

mod captions;
mod outcomes;
mod owners;
mod stopping;

use scribevault_bus::contract::DownloadStatus as WireStatus;
use std::time::{Duration, Instant};

use scribevault_bus::EventSubscription;
use scribevault_bus::contract::{DownloadProgress, Event};
use scribevault_proto::discovery::v1 as pb;
use scribevault_proto::storage::v1 as storage_pb;
use scribevault_test_support::media::{MediaServer, ytdlp};
use scribevault_test_support::shared_dir;
use scribevault_test_support::youtube::{FakeChannel, FakeYouTube, channel_id};
use tonic::Code;

use crate::helpers::{KEY, TestApp, as_user, spawn_app_on, spawn_app_with};

fn sample(name: &str) -> Vec<u8> {
    std::fs::read(shared_dir().join("audio").join(name)).expect("a shared audio sample")
}

/// The app, its media server and a channel source of `videos` videos owned by alice; `None`
/// when yt-dlp is not installed outside CI.
struct Setup {
    app: TestApp,
    media: MediaServer,
    source: pb::Source,
    video_ids: Vec<String>,
}

async fn setup(test: &str, videos: usize, extra_env: &[(&str, &str)]) -> Option<Setup> {
    let ytdlp = ytdlp(test)?;
    let media = MediaServer::start().await;
    let youtube = FakeYouTube::start().await;
    youtube.add_channel(
        FakeChannel::generated(&channel_id(7), "Downloads", videos).with_handle("downloads"),
    );
    let watch_url = media.watch_url();
    let mut env = vec![
        ("SCRIBEVAULT_YOUTUBE_API_KEY", KEY),
        ("SCRIBEVAULT_YTDLP_PATH", ytdlp.as_str()),
        ("SCRIBEVAULT_YOUTUBE_WATCH_URL", watch_url.as_str()),
        ("SCRIBEVAULT_DOWNLOAD_RETRIES", "0"),
    ];
    env.extend_from_slice(extra_env);
    let app = spawn_app_with(youtube, &env).await;
    let source = add_source(&app, "alice", "https://www.youtube.com/@downloads").await;
    let page = app
        .client
        .clone()
        .list_source_videos(as_user(
            "alice",
            pb::ListSourceVideosRequest {
                source_id: source.id.clone(),
                page_token: String::new(),
            },
        ))
        .await
        .unwrap()
        .into_inner();
    let video_ids = page
        .videos
        .iter()
        .map(|video| video.youtube_video_id.clone())
        .collect();
    Some(Setup {
        app,
        media,
        source,
        video_ids,
    })
}

async fn add_source(app: &TestApp, user: &str, url: &str) -> pb::Source {
    app.client
        .clone()
        .create_source(as_user(
            user,
            pb::CreateSourceRequest {
                url: url.to_owned(),
                reuse_existing: false,
            },
        ))
        .await
        .expect("the source is added")
        .into_inner()
}

async fn create_job(
    app: &TestApp,
    user: &str,
    source_id: &str,
    video_ids: &[String],
    transcribe: bool,
) -> Result<pb::DownloadJob, tonic::Status> {
    app.client
        .clone()
        .create_download_job(as_user(
            user,
            pb::CreateDownloadJobRequest {
                source_id: source_id.to_owned(),
                video_ids: video_ids.to_vec(),
                transcribe,
                model: String::new(),
                output_format: String::new(),
                use_captions: None,
            },
        ))
        .await
        .map(tonic::Response::into_inner)
}

async fn jobs(app: &TestApp, user: &str) -> Vec<pb::DownloadJob> {
    app.client
        .clone()
        .list_download_jobs(as_user(user, pb::ListDownloadJobsRequest {}))
        .await
        .unwrap()
        .into_inner()
        .jobs
}

/// Every `downloadProgress` of `job` until it ends (COMPLETED or FAILED), within `limit`.
async fn progress_until_ended(
    events: &mut EventSubscription,
    job: &str,
    limit: Duration,
) -> Vec<DownloadProgress> {
    let deadline = Instant::now() + limit;
    let mut seen = Vec::new();
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        let envelope = tokio::time::timeout(left, events.next())
            .await
            .unwrap_or_else(|_| panic!("job {job} did not end in {limit:?}; saw {seen:#?}"))
            .expect("the bus is open");
        if let Some(Event::DownloadProgress(progress)) = envelope.event()
            && progress.job_id == job
        {
            assert_eq!(envelope.user_id, "alice", "progress goes to the owner only");
            let ended = matches!(progress.status, WireStatus::Completed | WireStatus::Failed);
            seen.push(progress);
            if ended {
                return seen;
            }
        }
    }
}

async fn mp3_status(app: &TestApp, user: &str, ids: &[String]) -> Vec<bool> {
    let statuses = app
        .storage
        .clone()
        .get_mp3_status(as_user(
            user,
            storage_pb::GetMp3StatusRequest {
                video_ids: ids.to_vec(),
            },
        ))
        .await
        .unwrap()
        .into_inner()
        .statuses;
    ids.iter()
        .map(|id| statuses.get(id).is_some_and(|status| status.has_mp3))
        .collect()
}

/// yt-dlp processes whose command line names this media server.
fn ytdlp_processes(media: &MediaServer) -> usize {
    let needle = media.watch_url().replace("{id}.mp3", "");
    std::fs::read_dir("/proc")
        .map(|entries| {
            entries
                .filter_map(Result::ok)
                .filter_map(|entry| std::fs::read(entry.path().join("cmdline")).ok())
                .filter(|cmdline| String::from_utf8_lossy(cmdline).contains(&needle))
                .count()
        })
        .unwrap_or(0)
}

/// yt-dlp processes downloading the video `id` from this media server.
fn ytdlp_processes_for(media: &MediaServer, id: &str) -> usize {
    let needle = media.watch_url().replace("{id}", id);
    std::fs::read_dir("/proc")
        .map(|entries| {
            entries
                .filter_map(Result::ok)
                .filter_map(|entry| std::fs::read(entry.path().join("cmdline")).ok())
                .filter(|cmdline| String::from_utf8_lossy(cmdline).contains(&needle))
                .count()
        })
        .unwrap_or(0)
}
