//! What a job ends as: every video arrived, a failed video (and the retry), the MP3s handed to
//! transcription, yt-dlp missing, a download over its time limit.

use super::*;
use scribevault_bus::contract::DownloadStatus as WireStatus;

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
    assert_eq!(job.status(), pb::DownloadStatus::Pending);
    assert_eq!(
        (job.total_videos, job.processed_videos, job.progress),
        (3, 0, 0)
    );
    let seen = progress_until_ended(&mut events, &job.id, Duration::from_secs(60)).await;
    let last = seen.last().unwrap();
    assert_eq!(last.status, WireStatus::Completed, "{seen:#?}");
    assert_eq!(
        (last.processed_videos, last.total_videos, last.progress),
        (3, 3, 100)
    );
    assert!(
        seen.iter().any(|p| p.status == WireStatus::Processing),
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
    assert_eq!(done.status(), pb::DownloadStatus::Completed);
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
    assert_eq!(last.status, WireStatus::Failed);
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
        (retried.status(), retried.total_videos, retried.progress),
        (pb::DownloadStatus::Pending, 2, 0)
    );
    let seen = progress_until_ended(&mut events, &retried.id, Duration::from_secs(60)).await;
    assert_eq!(
        seen.last().unwrap().status,
        WireStatus::Completed,
        "{seen:#?}"
    );
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
    assert_eq!(seen.last().unwrap().status, WireStatus::Completed);
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
    assert_eq!((last.status, last.failed_videos), (WireStatus::Failed, 2));
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
    assert_eq!((last.status, last.failed_videos), (WireStatus::Failed, 1));
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
