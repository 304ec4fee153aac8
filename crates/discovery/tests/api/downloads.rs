//! Download jobs with the real yt-dlp against a local media server (its generic extractor
//! downloads a direct media URL), the real storage service in-process, and the owner's events.

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
            let ended = matches!(progress.status.as_str(), "COMPLETED" | "FAILED");
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

#[tokio::test]
async fn a_job_for_three_videos_completes_and_each_video_has_its_mp3() {
    let Some(setup) = setup("three_videos", 3, &[]).await else {
        return;
    };
    let ids = setup.video_ids.clone();
    for (id, file) in ids.iter().zip([
        "sample-01-welcome.mp3",
        "sample-02-subscribe.mp3",
        "sample-03-meeting.mp3",
    ]) {
        setup.media.add_audio(id, sample(file));
    }
    let mut events = setup.app.events().await;
    let job = create_job(&setup.app, "alice", &setup.source.id, &ids, false)
        .await
        .unwrap();
    assert_eq!(job.status, "PENDING");
    assert_eq!(
        (job.total_videos, job.processed_videos, job.progress),
        (3, 0, 0)
    );
    let seen = progress_until_ended(&mut events, &job.id, Duration::from_secs(60)).await;
    let last = seen.last().unwrap();
    assert_eq!(last.status, "COMPLETED", "{seen:#?}");
    assert_eq!(
        (last.processed_videos, last.total_videos, last.progress),
        (3, 3, 100)
    );
    assert!(
        seen.iter().any(|p| p.status == "PROCESSING"),
        "the socket saw it running: {seen:#?}"
    );
    let counts: Vec<u32> = seen.iter().map(|p| p.processed_videos).collect();
    assert!(
        counts.windows(2).all(|pair| pair[0] <= pair[1]),
        "counts only grow: {counts:?}"
    );
    assert!(
        counts.contains(&1) && counts.contains(&2),
        "each video was reported: {counts:?}"
    );
    assert_eq!(
        mp3_status(&setup.app, "alice", &ids).await,
        [true, true, true]
    );
    assert_eq!(
        mp3_status(&setup.app, "bob", &ids).await,
        [false, false, false],
        "audio is per user"
    );
    let listed = jobs(&setup.app, "alice").await;
    assert_eq!(listed.len(), 1);
    let done = &listed[0];
    assert_eq!(done.status, "COMPLETED");
    assert!(done.started_at.is_some() && done.completed_at.is_some());
    assert_eq!(done.error_message, None);
    assert!(
        setup.app.transcriptions.queued().is_empty(),
        "not asked to transcribe"
    );
}

#[tokio::test]
async fn a_failing_video_fails_the_job_with_its_reason_and_retry_completes_the_rest() {
    let Some(setup) = setup("failing_video", 3, &[]).await else {
        return;
    };
    let ids = setup.video_ids.clone();
    setup
        .media
        .add_audio(&ids[0], sample("sample-01-welcome.mp3"));
    // ids[1] is not served (404); ids[2] answers a web page, not audio.
    setup
        .media
        .add_page(&ids[2], "<html><body><h1>Not audio</h1></body></html>");
    let mut events = setup.app.events().await;
    let job = create_job(&setup.app, "alice", &setup.source.id, &ids, false)
        .await
        .unwrap();
    let seen = progress_until_ended(&mut events, &job.id, Duration::from_secs(60)).await;
    let last = seen.last().unwrap();
    assert_eq!(last.status, "FAILED");
    assert_eq!((last.processed_videos, last.failed_videos), (3, 2));
    let message = last.error.clone().unwrap();
    let lines: Vec<&str> = message.lines().collect();
    assert_eq!(lines.len(), 2, "one line per failed video: {message}");
    assert!(
        lines[0].contains(&ids[1]) && lines[0].contains("404"),
        "yt-dlp's reason: {message}"
    );
    assert!(lines[1].contains(&ids[2]), "{message}");
    assert_eq!(
        mp3_status(&setup.app, "alice", &ids).await,
        [true, false, false]
    );

    // The missing files appear; a retry downloads only what did not arrive.
    setup
        .media
        .add_audio(&ids[1], sample("sample-02-subscribe.mp3"));
    setup
        .media
        .add_audio(&ids[2], sample("sample-03-meeting.mp3"));
    let first_requests = setup.media.requests(&ids[0]);
    let retried = setup
        .app
        .client
        .clone()
        .retry_download_job(as_user("alice", pb::DownloadJobRef { id: job.id.clone() }))
        .await
        .unwrap()
        .into_inner();
    assert_ne!(retried.id, job.id);
    assert_eq!(
        (
            retried.status.as_str(),
            retried.total_videos,
            retried.progress
        ),
        ("PENDING", 2, 0)
    );
    let seen = progress_until_ended(&mut events, &retried.id, Duration::from_secs(60)).await;
    assert_eq!(seen.last().unwrap().status, "COMPLETED", "{seen:#?}");
    assert_eq!(
        setup.media.requests(&ids[0]),
        first_requests,
        "the arrived video is not fetched again"
    );
    assert_eq!(
        mp3_status(&setup.app, "alice", &ids).await,
        [true, true, true]
    );
    let listed = jobs(&setup.app, "alice").await;
    assert_eq!(
        listed.iter().map(|j| j.id.as_str()).collect::<Vec<_>>(),
        [retried.id.as_str()],
        "the retry replaced the failed job"
    );
    let again = setup
        .app
        .client
        .clone()
        .retry_download_job(as_user("alice", pb::DownloadJobRef { id: job.id.clone() }))
        .await
        .unwrap_err();
    assert_eq!(again.code(), Code::AlreadyExists, "409: {again:?}");
    assert_eq!(again.message(), "This job has already been retried");
}

#[tokio::test]
async fn cancel_stops_yt_dlp_within_two_seconds_and_fails_the_job() {
    let Some(setup) = setup("cancel", 1, &[]).await else {
        return;
    };
    let ids = setup.video_ids.clone();
    // About 30 s of transfer: 4 KiB every 100 ms.
    let mut body = sample("sample-01-welcome.mp3");
    body.extend(sample("sample-02-subscribe.mp3"));
    body.extend(sample("sample-03-meeting.mp3"));
    setup
        .media
        .add_slow_audio(&ids[0], body, 4096, Duration::from_millis(100));
    let mut events = setup.app.events().await;
    let job = create_job(&setup.app, "alice", &setup.source.id, &ids, false)
        .await
        .unwrap();
    // Wait until yt-dlp is downloading (a progress event with a current video).
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        assert!(Instant::now() < deadline, "the download never started");
        let envelope = tokio::time::timeout(Duration::from_secs(30), events.next())
            .await
            .unwrap()
            .unwrap();
        if let Some(Event::DownloadProgress(progress)) = envelope.event()
            && progress.current_video.is_some()
        {
            break;
        }
    }
    // While a file downloads, progress keeps coming (the spec: at least every 2 s), not only
    // when a video ends.
    for _ in 0..2 {
        let envelope = tokio::time::timeout(Duration::from_secs(6), events.next())
            .await
            .expect("progress keeps coming while the file downloads")
            .unwrap();
        let Some(Event::DownloadProgress(progress)) = envelope.event() else {
            panic!("only download progress is expected here");
        };
        assert_eq!(progress.status, "PROCESSING");
        assert_eq!(progress.processed_videos, 0);
        assert!(progress.current_video.is_some(), "{progress:?}");
    }
    assert!(ytdlp_processes(&setup.media) >= 1, "yt-dlp is running");
    let cancelled_at = Instant::now();
    let cancelled = setup
        .app
        .client
        .clone()
        .cancel_download_job(as_user("alice", pb::DownloadJobRef { id: job.id.clone() }))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(cancelled.status, "FAILED");
    assert_eq!(
        cancelled.error_message.as_deref(),
        Some("Cancelled by user")
    );
    while ytdlp_processes(&setup.media) > 0 {
        assert!(
            cancelled_at.elapsed() < Duration::from_secs(2),
            "yt-dlp still running 2 s after the cancel"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    // It stays cancelled: the runner wrote nothing more.
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let listed = jobs(&setup.app, "alice").await;
    assert_eq!(listed[0].status, "FAILED");
    assert_eq!(
        listed[0].error_message.as_deref(),
        Some("Cancelled by user")
    );
    assert_eq!(mp3_status(&setup.app, "alice", &ids).await, [false]);
    let twice = setup
        .app
        .client
        .clone()
        .cancel_download_job(as_user("alice", pb::DownloadJobRef { id: job.id.clone() }))
        .await
        .unwrap_err();
    assert_eq!(twice.code(), Code::AlreadyExists, "409: {twice:?}");
    assert_eq!(twice.message(), "This job has already ended");
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

#[tokio::test]
async fn deleting_the_owners_data_stops_their_running_download_and_no_one_elses() {
    let Some(setup) = setup("delete_user_data", 2, &[]).await else {
        return;
    };
    let ids = setup.video_ids.clone();
    // Alice's video takes about 30 s; Bob's a few seconds.
    let mut long = sample("sample-01-welcome.mp3");
    long.extend(sample("sample-02-subscribe.mp3"));
    long.extend(sample("sample-03-meeting.mp3"));
    setup
        .media
        .add_slow_audio(&ids[0], long, 4096, Duration::from_millis(100));
    setup.media.add_slow_audio(
        &ids[1],
        sample("sample-02-subscribe.mp3"),
        16 * 1024,
        Duration::from_millis(100),
    );
    let bob_source = add_source(&setup.app, "bob", "https://www.youtube.com/@downloads").await;
    let mut events = setup.app.events().await;
    let alice_job = create_job(&setup.app, "alice", &setup.source.id, &ids[..1], false)
        .await
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        assert!(Instant::now() < deadline, "the download never started");
        let envelope = tokio::time::timeout(Duration::from_secs(30), events.next())
            .await
            .unwrap()
            .unwrap();
        if let Some(Event::DownloadProgress(progress)) = envelope.event()
            && progress.job_id == alice_job.id
            && progress.current_video.is_some()
        {
            break;
        }
    }
    assert!(
        ytdlp_processes_for(&setup.media, &ids[0]) >= 1,
        "yt-dlp is running"
    );
    let bob_job = create_job(&setup.app, "bob", &bob_source.id, &ids[1..], false)
        .await
        .unwrap();

    let deleted_at = Instant::now();
    let deleted = setup
        .app
        .client
        .clone()
        .delete_user_data(as_user("alice", pb::DeleteUserDataRequest {}))
        .await
        .unwrap()
        .into_inner();
    // Her source with its two videos, her job with its one video, and the day's row of the
    // YouTube units adding her source spent.
    assert_eq!(deleted.rows_deleted, 6);
    while ytdlp_processes_for(&setup.media, &ids[0]) > 0 {
        assert!(
            deleted_at.elapsed() < Duration::from_secs(2),
            "yt-dlp still running 2 s after the deletion"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(jobs(&setup.app, "alice").await.is_empty());

    // Bob's job runs to its end.
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let listed = jobs(&setup.app, "bob").await;
        assert_eq!(listed.len(), 1);
        assert_eq!(listed[0].id, bob_job.id);
        if listed[0].status == "COMPLETED" {
            break;
        }
        assert!(
            Instant::now() < deadline && listed[0].status != "FAILED",
            "bob's job did not complete: {listed:?}"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    assert_eq!(mp3_status(&setup.app, "bob", &ids[1..]).await, [true]);
    // Nothing of Alice's arrived in storage, and her job stays gone.
    tokio::time::sleep(Duration::from_millis(1000)).await;
    assert_eq!(mp3_status(&setup.app, "alice", &ids).await, [false, false]);
    assert!(jobs(&setup.app, "alice").await.is_empty());
}

#[tokio::test]
async fn transcribe_true_queues_each_downloaded_mp3_for_transcription() {
    let Some(setup) = setup("transcribe", 2, &[]).await else {
        return;
    };
    let ids = setup.video_ids.clone();
    setup
        .media
        .add_audio(&ids[0], sample("sample-01-welcome.mp3"));
    setup
        .media
        .add_audio(&ids[1], sample("sample-02-subscribe.mp3"));
    let mut events = setup.app.events().await;
    let job = create_job(&setup.app, "alice", &setup.source.id, &ids, true)
        .await
        .unwrap();
    assert!(job.transcribe);
    let seen = progress_until_ended(&mut events, &job.id, Duration::from_secs(60)).await;
    assert_eq!(seen.last().unwrap().status, "COMPLETED");
    let queued = setup.app.transcriptions.queued();
    assert_eq!(queued.len(), 2);
    for (user, video, mp3_path, model) in &queued {
        assert_eq!(user, "alice");
        assert!(ids.contains(video));
        assert!(!mp3_path.is_empty());
        assert_eq!(model, "small", "the default model");
    }
}

#[tokio::test]
async fn a_job_survives_a_restart_of_the_service() {
    let env = [
        ("SCRIBEVAULT_DOWNLOAD_STALE_SECONDS", "3"),
        ("SCRIBEVAULT_SCHEDULER_INTERVAL_MS", "200"),
    ];
    let Some(setup) = setup("restart", 1, &env).await else {
        return;
    };
    let ids = setup.video_ids.clone();
    setup.media.add_slow_audio(
        &ids[0],
        sample("sample-01-welcome.mp3"),
        8192,
        Duration::from_millis(200),
    );
    let mut events = setup.app.events().await;
    let job = create_job(&setup.app, "alice", &setup.source.id, &ids, false)
        .await
        .unwrap();
    loop {
        let envelope = tokio::time::timeout(Duration::from_secs(30), events.next())
            .await
            .unwrap()
            .unwrap();
        if let Some(Event::DownloadProgress(progress)) = envelope.event()
            && progress.current_video.is_some()
        {
            break;
        }
    }
    let Setup { app, media, .. } = setup;
    let youtube = app.youtube.clone();
    let db = app.db.clone();
    let ytdlp_path = ytdlp("restart").unwrap();
    app.stop().await.unwrap();
    assert_eq!(
        ytdlp_processes(&media),
        0,
        "stopping the service killed yt-dlp"
    );
    media.add_audio(&ids[0], sample("sample-01-welcome.mp3"));
    let watch_url = media.watch_url();
    let mut restart_env = vec![
        ("SCRIBEVAULT_YOUTUBE_API_KEY", KEY),
        ("SCRIBEVAULT_YTDLP_PATH", ytdlp_path.as_str()),
        ("SCRIBEVAULT_YOUTUBE_WATCH_URL", watch_url.as_str()),
    ];
    restart_env.extend_from_slice(&env);
    let again = spawn_app_on(youtube, &restart_env, db).await;
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let listed = jobs(&again, "alice").await;
        if listed[0].status == "COMPLETED" {
            assert_eq!(listed[0].id, job.id);
            assert_eq!(listed[0].processed_videos, 1);
            break;
        }
        assert!(
            Instant::now() < deadline,
            "the interrupted job did not finish: {listed:?}"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    assert_eq!(mp3_status(&again, "alice", &ids).await, [true]);
}

#[tokio::test]
async fn jobs_are_checked_and_belong_to_their_owner() {
    let Some(setup) = setup("job_rules", 3, &[]).await else {
        return;
    };
    let ids = setup.video_ids.clone();
    let app = &setup.app;
    let bad = |status: tonic::Status| (status.code(), status.message().to_owned());
    assert_eq!(
        bad(create_job(app, "alice", &setup.source.id, &[], false)
            .await
            .unwrap_err()),
        (
            Code::InvalidArgument,
            "Please select videos to download".into()
        )
    );
    let too_many: Vec<String> = (0..101).map(|i| format!("v{i:010}")).collect();
    assert_eq!(
        bad(create_job(app, "alice", &setup.source.id, &too_many, false)
            .await
            .unwrap_err()),
        (
            Code::InvalidArgument,
            "A download job takes at most 100 videos".into()
        )
    );
    let stranger = create_job(
        app,
        "alice",
        &setup.source.id,
        &["dQw4w9WgXcQ".to_owned()],
        false,
    )
    .await
    .unwrap_err();
    assert_eq!(stranger.code(), Code::InvalidArgument);
    assert!(
        stranger.message().contains("is not in the source"),
        "{stranger:?}"
    );
    assert_eq!(
        create_job(app, "bob", &setup.source.id, &ids, false)
            .await
            .unwrap_err()
            .code(),
        Code::NotFound,
        "bob cannot download from alice's source"
    );
    setup
        .media
        .add_audio(&ids[0], sample("sample-01-welcome.mp3"));
    let job = create_job(app, "alice", &setup.source.id, &ids[..1], false)
        .await
        .unwrap();
    assert!(jobs(app, "bob").await.is_empty());
    for call in ["cancel", "retry"] {
        let request = as_user("bob", pb::DownloadJobRef { id: job.id.clone() });
        let status = match call {
            "cancel" => app
                .client
                .clone()
                .cancel_download_job(request)
                .await
                .unwrap_err(),
            _ => app
                .client
                .clone()
                .retry_download_job(request)
                .await
                .unwrap_err(),
        };
        assert_eq!(status.code(), Code::NotFound, "{call}");
        assert_eq!(status.message(), "Download job not found");
    }
}

#[tokio::test]
async fn a_missing_yt_dlp_fails_each_video_with_what_to_install() {
    let youtube = FakeYouTube::start().await;
    youtube.add_channel(FakeChannel::generated(&channel_id(8), "No tool", 2).with_handle("notool"));
    let app = spawn_app_with(
        youtube,
        &[
            ("SCRIBEVAULT_YOUTUBE_API_KEY", KEY),
            ("SCRIBEVAULT_YTDLP_PATH", "/nonexistent/bin/yt-dlp"),
        ],
    )
    .await;
    let source = add_source(&app, "alice", "https://www.youtube.com/@notool").await;
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
    let ids: Vec<String> = page
        .videos
        .iter()
        .map(|video| video.youtube_video_id.clone())
        .collect();
    let mut events = app.events().await;
    let job = create_job(&app, "alice", &source.id, &ids, false)
        .await
        .unwrap();
    let seen = progress_until_ended(&mut events, &job.id, Duration::from_secs(30)).await;
    let last = seen.last().unwrap();
    assert_eq!((last.status.as_str(), last.failed_videos), ("FAILED", 2));
    let message = last.error.clone().unwrap();
    assert_eq!(message.lines().count(), 2, "{message}");
    assert!(
        message
            .lines()
            .all(|line| line.contains("yt-dlp is not installed")
                && line.contains("SCRIBEVAULT_YTDLP_PATH")),
        "{message}"
    );
}

#[tokio::test]
async fn a_download_over_its_time_limit_is_stopped_and_fails_the_video() {
    let env = [("SCRIBEVAULT_DOWNLOAD_TIMEOUT_SECONDS", "2")];
    let Some(setup) = setup("timeout", 1, &env).await else {
        return;
    };
    let ids = setup.video_ids.clone();
    // About 15 s of transfer.
    setup.media.add_slow_audio(
        &ids[0],
        sample("sample-01-welcome.mp3"),
        1024,
        Duration::from_millis(120),
    );
    let mut events = setup.app.events().await;
    let job = create_job(&setup.app, "alice", &setup.source.id, &ids, false)
        .await
        .unwrap();
    let seen = progress_until_ended(&mut events, &job.id, Duration::from_secs(30)).await;
    let last = seen.last().unwrap();
    assert_eq!((last.status.as_str(), last.failed_videos), ("FAILED", 1));
    assert!(
        last.error
            .as_deref()
            .unwrap()
            .contains("Download timed out after 2 s"),
        "{last:?}"
    );
    let ended_at = Instant::now();
    while ytdlp_processes(&setup.media) > 0 {
        assert!(
            ended_at.elapsed() < Duration::from_secs(2),
            "yt-dlp outlived its time limit"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test]
async fn a_user_at_the_cap_on_unfinished_download_jobs_is_refused_and_no_one_else_is() {
    // A yt-dlp that never finishes keeps every job pending or running.
    let tools = tempfile::tempdir().unwrap();
    let hanging = tools.path().join("yt-dlp");
    std::fs::write(&hanging, "#!/bin/sh\nexec sleep 30\n").unwrap();
    std::fs::set_permissions(
        &hanging,
        std::os::unix::fs::PermissionsExt::from_mode(0o755),
    )
    .unwrap();
    let hanging = hanging.to_string_lossy().into_owned();
    let youtube = FakeYouTube::start().await;
    youtube.add_channel(FakeChannel::generated(&channel_id(9), "Capped", 3).with_handle("capped"));
    let app = spawn_app_with(
        youtube,
        &[
            ("SCRIBEVAULT_YOUTUBE_API_KEY", KEY),
            ("SCRIBEVAULT_YTDLP_PATH", hanging.as_str()),
            ("SCRIBEVAULT_MAX_ACTIVE_DOWNLOAD_JOBS_PER_USER", "2"),
        ],
    )
    .await;
    let mut sources = Vec::new();
    for user in ["alice", "bob"] {
        let source = add_source(&app, user, "https://www.youtube.com/@capped").await;
        let ids: Vec<String> = app
            .client
            .clone()
            .list_source_videos(as_user(
                user,
                pb::ListSourceVideosRequest {
                    source_id: source.id.clone(),
                    page_token: String::new(),
                },
            ))
            .await
            .unwrap()
            .into_inner()
            .videos
            .into_iter()
            .map(|video| video.youtube_video_id)
            .collect();
        sources.push((source.id, ids));
    }
    let (alice_source, ids) = &sources[0];
    let refusal = "You have 2 download jobs not yet finished; at most 2 may be active at once. Wait for some to finish or cancel them.";
    let first = create_job(&app, "alice", alice_source, &ids[..1], false)
        .await
        .expect("under the cap");
    let second = create_job(&app, "alice", alice_source, &ids[1..2], false)
        .await
        .expect("reaches the cap");
    let refused = create_job(&app, "alice", alice_source, &ids[2..], false)
        .await
        .unwrap_err();
    assert_eq!(
        (refused.code(), refused.message()),
        (Code::ResourceExhausted, refusal)
    );
    let (bob_source, bob_ids) = &sources[1];
    let bobs = create_job(&app, "bob", bob_source, &bob_ids[..1], false)
        .await
        .expect("bob has his own cap");

    // A cancelled job frees its place; retrying it would take it again.
    let cancel = |id: &str| {
        let mut client = app.client.clone();
        let request = as_user("alice", pb::DownloadJobRef { id: id.to_owned() });
        async move { client.cancel_download_job(request).await }
    };
    cancel(&first.id).await.expect("cancelled");
    let third = create_job(&app, "alice", alice_source, &ids[2..], false)
        .await
        .expect("below the cap again");
    let retry = app
        .client
        .clone()
        .retry_download_job(as_user(
            "alice",
            pb::DownloadJobRef {
                id: first.id.clone(),
            },
        ))
        .await
        .unwrap_err();
    assert_eq!(
        (retry.code(), retry.message()),
        (Code::ResourceExhausted, refusal)
    );
    assert_eq!(jobs(&app, "alice").await.len(), 3, "nothing was added");

    for id in [&second.id, &third.id] {
        cancel(id).await.expect("cancelled");
    }
    app.client
        .clone()
        .cancel_download_job(as_user("bob", pb::DownloadJobRef { id: bobs.id }))
        .await
        .expect("cancelled");
}

#[tokio::test]
async fn download_jobs_take_turns_between_users() {
    let Some(setup) = setup(
        "download_turns",
        4,
        &[("SCRIBEVAULT_DOWNLOAD_CONCURRENCY", "1")],
    )
    .await
    else {
        return;
    };
    let ids = setup.video_ids.clone();
    // Alice's first video takes a few seconds, so every job is queued while it runs.
    setup.media.add_slow_audio(
        &ids[0],
        sample("sample-01-welcome.mp3"),
        8 * 1024,
        Duration::from_millis(100),
    );
    for id in &ids[1..] {
        setup.media.add_audio(id, sample("sample-01-welcome.mp3"));
    }
    let bob_source = add_source(&setup.app, "bob", "https://www.youtube.com/@downloads").await;
    // One runner; Alice starts three jobs, then Bob one.
    let mut alice_jobs = Vec::new();
    for id in &ids[..3] {
        alice_jobs.push(
            create_job(
                &setup.app,
                "alice",
                &setup.source.id,
                std::slice::from_ref(id),
                false,
            )
            .await
            .unwrap()
            .id,
        );
    }
    let bob_job = create_job(&setup.app, "bob", &bob_source.id, &ids[3..], false)
        .await
        .unwrap()
        .id;
    let deadline = Instant::now() + Duration::from_secs(90);
    let (alice, bob) = loop {
        let alice = jobs(&setup.app, "alice").await;
        let bob = jobs(&setup.app, "bob").await;
        if alice
            .iter()
            .chain(&bob)
            .all(|job| job.status == "COMPLETED")
            && alice.len() == 3
        {
            break (alice, bob);
        }
        assert!(Instant::now() < deadline, "{alice:?} {bob:?}");
        tokio::time::sleep(Duration::from_millis(200)).await;
    };
    let mut started: Vec<(String, String)> = alice
        .iter()
        .chain(&bob)
        .map(|job| (job.started_at.clone().unwrap(), job.id.clone()))
        .collect();
    started.sort();
    let order: Vec<&str> = started.iter().map(|(_, id)| id.as_str()).collect();
    // Alice's first job was running when Bob queued; his runs next, before her other two.
    assert_eq!(order[0], alice_jobs[0], "{order:?}");
    assert_eq!(order[1], bob_job, "{order:?}");
}
