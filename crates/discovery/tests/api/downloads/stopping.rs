//! A running job stopped from outside: a cancel, the owner's data deleted, the service restarted.

use super::*;
use scribevault_bus::contract::DownloadStatus as WireStatus;

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
        assert_eq!(progress.status, WireStatus::Processing);
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
    assert_eq!(cancelled.status(), pb::DownloadStatus::Failed);
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
    assert_eq!(listed[0].status(), pb::DownloadStatus::Failed);
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
        if listed[0].status() == pb::DownloadStatus::Completed {
            break;
        }
        assert!(
            Instant::now() < deadline && listed[0].status() != pb::DownloadStatus::Failed,
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
        if listed[0].status() == pb::DownloadStatus::Completed {
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
