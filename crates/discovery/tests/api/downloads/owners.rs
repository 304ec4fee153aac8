//! Jobs and their owners: checked requests, another user's jobs, the cap on unfinished jobs,
//! and turns between users.

use super::*;

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

/// A yt-dlp that never finishes, which keeps every job pending or running.
fn hanging_ytdlp(dir: &std::path::Path) -> String {
    let hanging = dir.join("yt-dlp");
    std::fs::write(&hanging, "#!/bin/sh\nexec sleep 30\n").unwrap();
    std::fs::set_permissions(
        &hanging,
        std::os::unix::fs::PermissionsExt::from_mode(0o755),
    )
    .unwrap();
    hanging.to_string_lossy().into_owned()
}

/// The capped channel as one of `user`'s sources: its id and its videos' ids.
async fn source_and_its_videos(app: &TestApp, user: &str) -> (String, Vec<String>) {
    let source = add_source(app, user, "https://www.youtube.com/@capped").await;
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
    (source.id, ids)
}

#[tokio::test]
async fn a_user_at_the_cap_on_unfinished_download_jobs_is_refused_and_no_one_else_is() {
    let tools = tempfile::tempdir().unwrap();
    let hanging = hanging_ytdlp(tools.path());
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
        sources.push(source_and_its_videos(&app, user).await);
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
            .all(|job| job.status() == pb::DownloadStatus::Completed)
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
