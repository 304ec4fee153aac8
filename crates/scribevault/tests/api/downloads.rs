//! Downloads and schedules through the product's REST API, with the real binary running the
//! real yt-dlp against a local media server and the YouTube fake: a channel's audio flows into
//! the Vault with no manual step, progress reaches the owner's socket, and another user gets
//! 404 for everything.

use std::time::Duration;

use reqwest::Method;
use scribevault_test_support::media::{MediaServer, ytdlp};
use scribevault_test_support::youtube::{
    FakeChannel, FakeVideo, FakeYouTube, channel_id, video_id,
};
use serde_json::{Value, json};

use crate::helpers::{SocketClient, TestApp, audio, model_dir};

struct Setup {
    app: TestApp,
    media: MediaServer,
    youtube: FakeYouTube,
    _models: tempfile::TempDir,
    alice: String,
    alice_id: String,
    bob: String,
    source_id: String,
    video_ids: Vec<String>,
}

async fn setup(test: &str) -> Option<Setup> {
    let ytdlp = ytdlp(test)?;
    let media = MediaServer::start().await;
    let youtube = FakeYouTube::start().await;
    youtube.add_channel(
        FakeChannel::generated(&channel_id(404), "Audio Flow", 2).with_handle("audioflow"),
    );
    let models = model_dir();
    let base = youtube.base_url();
    let watch_url = media.watch_url();
    let app = TestApp::spawn_all_with(&[
        ("SCRIBEVAULT_YOUTUBE_API_BASE", base.as_str()),
        ("SCRIBEVAULT_YOUTUBE_API_KEY", "flow-key"),
        ("SCRIBEVAULT_YTDLP_PATH", ytdlp.as_str()),
        ("SCRIBEVAULT_YOUTUBE_WATCH_URL", watch_url.as_str()),
        (
            "SCRIBEVAULT_WHISPER_MODEL_DIR",
            models.path().to_str().unwrap(),
        ),
        ("SCRIBEVAULT_WHISPER_THREADS", "1"),
    ])
    .await;
    let (alice, alice_id) = app.sign_up(&format!("alice-{test}@example.com")).await;
    let (bob, _) = app.sign_up(&format!("bob-{test}@example.com")).await;
    let (status, body) = app
        .post_json(
            "/api/sources",
            &json!({ "url": "@audioflow" }),
            Some(&alice),
        )
        .await;
    assert_eq!(status, 201, "{body}");
    let source_id = body["data"]["id"].as_str().unwrap().to_owned();
    let (_, videos) = app
        .get(&format!("/api/sources/{source_id}/videos"), Some(&alice))
        .await;
    let video_ids: Vec<String> = videos["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|video| video["youtubeVideoId"].as_str().unwrap().to_owned())
        .collect();
    for (id, file) in video_ids
        .iter()
        .zip(["sample-01-welcome.mp3", "sample-02-subscribe.mp3"])
    {
        media.add_audio(id, std::fs::read(audio(file)).unwrap());
    }
    Some(Setup {
        app,
        media,
        youtube,
        _models: models,
        alice,
        alice_id,
        bob,
        source_id,
        video_ids,
    })
}

#[tokio::test]
async fn a_channels_audio_flows_into_the_vault_with_progress_on_the_owners_socket() {
    let Some(s) = setup("flow").await else { return };
    let mut socket = SocketClient::connect(&s.app.base, &s.alice_id, &s.alice).await;
    socket
        .wait_for(Duration::from_secs(10), |line| line["kind"] == "connect")
        .await;
    let (status, body) = s
        .app
        .post_json(
            "/api/downloads",
            &json!({ "sourceId": s.source_id, "videoIds": s.video_ids, "transcribe": true, "model": "small", "outputFormat": "markdown" }),
            Some(&s.alice),
        )
        .await;
    assert_eq!(status, 201, "{body}");
    let job = &body["data"];
    assert_eq!(job["status"], "PENDING");
    assert_eq!(
        (job["totalVideos"].as_u64(), job["progress"].as_u64()),
        (Some(2), Some(0))
    );
    let job_id = job["id"].as_str().unwrap().to_owned();
    let done = socket
        .wait_for(Duration::from_secs(60), |line| {
            line["name"] == "downloadProgress"
                && line["data"]["jobId"] == job_id.as_str()
                && line["data"]["status"] == "COMPLETED"
        })
        .await;
    assert_eq!(done["data"]["processedVideos"], 2);
    assert_eq!(done["data"]["totalVideos"], 2);
    let (_, status_body) = s
        .app
        .get(
            &format!("/api/video-mp3/status?videoIds={}", s.video_ids.join(",")),
            Some(&s.alice),
        )
        .await;
    for id in &s.video_ids {
        assert_eq!(status_body["data"][id]["hasMp3"], true, "{status_body}");
    }
    assert_the_transcripts_arrive_on_their_own(&s).await;
    assert_bob_sees_none_of_the_download(&s, &job_id).await;
}

/// The transcripts arrive in the Vault with no manual step, and the job shows it finished.
async fn assert_the_transcripts_arrive_on_their_own(s: &Setup) {
    let vault = s
        .app
        .wait_for_vault_total(&s.alice, 2, Duration::from_secs(240))
        .await;
    let titles: Vec<&str> = vault["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|item| item["title"].as_str().unwrap())
        .collect();
    assert!(
        titles
            .iter()
            .all(|title| title.starts_with("Audio Flow episode")),
        "{titles:?}"
    );
    let (_, jobs) = s.app.get("/api/downloads", Some(&s.alice)).await;
    assert_eq!(jobs["data"][0]["status"], "COMPLETED");
    assert_eq!(jobs["data"][0]["progress"], 100);
}

/// Bob sees none of Alice's download job, cannot cancel or retry it, nor download from her
/// source.
async fn assert_bob_sees_none_of_the_download(s: &Setup, job_id: &str) {
    let (_, bob_jobs) = s.app.get("/api/downloads", Some(&s.bob)).await;
    assert_eq!(bob_jobs["data"], json!([]));
    for (method, path) in [
        (Method::DELETE, format!("/api/downloads/{job_id}")),
        (Method::POST, format!("/api/downloads/{job_id}/retry")),
    ] {
        let (status, body) = s.app.send(method, &path, Some(&s.bob), None).await;
        assert_eq!(status, 404, "{path}: {body}");
        assert_eq!(body["error"]["message"], "Download job not found");
    }
    let (status, _) = s
        .app
        .post_json(
            "/api/downloads",
            &json!({ "sourceId": s.source_id, "videoIds": s.video_ids }),
            Some(&s.bob),
        )
        .await;
    assert_eq!(status, 404, "bob cannot download from alice's source");
}

/// A schedule without a source, with an impossible time or an unknown field is refused.
async fn assert_bad_schedules_are_refused(s: &Setup) {
    let app = &s.app;
    let (status, body) = app
        .post_json(
            "/api/schedules",
            &json!({ "sourceId": "", "frequency": "DAILY", "timeOfDay": "09:00" }),
            Some(&s.alice),
        )
        .await;
    assert_eq!(
        (status, body["error"]["message"].as_str()),
        (400, Some("Source is required"))
    );
    let (status, body) = app
        .post_json(
            "/api/schedules",
            &json!({ "sourceId": s.source_id, "frequency": "DAILY", "timeOfDay": "9:75" }),
            Some(&s.alice),
        )
        .await;
    assert_eq!(
        (status, body["error"]["message"].as_str()),
        (400, Some("Invalid time format"))
    );
    let (status, body) = app
        .send(Method::POST, "/api/schedules", Some(&s.alice), Some(&json!({ "sourceId": s.source_id, "frequency": "DAILY", "timeOfDay": "09:00", "evil": true })))
        .await;
    assert_eq!(status, 400, "unknown fields are refused: {body}");
}

/// A weekly schedule of Alice's source, active and not run yet; returns its id.
async fn create_a_weekly_schedule(s: &Setup) -> String {
    let (status, body) = s.app
        .post_json("/api/schedules", &json!({ "sourceId": s.source_id, "frequency": "WEEKLY", "timeOfDay": "07:30", "timezone": "America/New_York" }), Some(&s.alice))
        .await;
    assert_eq!(status, 201, "{body}");
    let schedule = body["data"].clone();
    assert_eq!(schedule["source"]["title"], "Audio Flow");
    assert_eq!(schedule["source"]["type"], "CHANNEL");
    assert_eq!(schedule["isActive"], true);
    assert!(schedule["nextRunAt"].is_string());
    assert_eq!(schedule["lastRunAt"], Value::Null);
    schedule["id"].as_str().unwrap().to_owned()
}

/// Paused, a schedule has no next run; run by hand it records the run.
async fn assert_a_paused_schedule_runs_by_hand(s: &Setup, id: &str) {
    let (status, body) = s
        .app
        .send(
            Method::PATCH,
            &format!("/api/schedules/{id}"),
            Some(&s.alice),
            Some(&json!({ "isActive": false })),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        (
            body["data"]["isActive"].as_bool(),
            body["data"]["nextRunAt"].clone()
        ),
        (Some(false), Value::Null)
    );
    let (status, body) = s
        .app
        .post_json(
            &format!("/api/schedules/{id}/run"),
            &json!({}),
            Some(&s.alice),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["meta"]["newVideos"], 0);
    assert!(body["data"]["lastRunAt"].is_string());
}

/// Bob can neither change, delete, run nor list Alice's schedule.
async fn assert_bob_cannot_touch_the_schedule(s: &Setup, id: &str) {
    for (method, path) in [
        (Method::PATCH, format!("/api/schedules/{id}")),
        (Method::DELETE, format!("/api/schedules/{id}")),
        (Method::POST, format!("/api/schedules/{id}/run")),
    ] {
        let (status, body) = s
            .app
            .send(
                method,
                &path,
                Some(&s.bob),
                Some(&json!({ "isActive": true })),
            )
            .await;
        assert_eq!(status, 404, "{path}: {body}");
        assert_eq!(body["error"]["message"], "Schedule not found");
    }
    let (_, bob_list) = s.app.get("/api/schedules", Some(&s.bob)).await;
    assert_eq!(bob_list["data"], json!([]));
}

#[tokio::test]
async fn schedules_over_rest_validate_toggle_run_and_stay_private() {
    let Some(s) = setup("schedules").await else {
        return;
    };
    let app = &s.app;
    assert_bad_schedules_are_refused(&s).await;
    let id = create_a_weekly_schedule(&s).await;
    assert_a_paused_schedule_runs_by_hand(&s, &id).await;
    assert_bob_cannot_touch_the_schedule(&s, &id).await;
    let (status, _) = app
        .send(
            Method::DELETE,
            &format!("/api/schedules/{id}"),
            Some(&s.alice),
            None,
        )
        .await;
    assert_eq!(status, 204);
    let (_, list) = app.get("/api/schedules", Some(&s.alice)).await;
    assert_eq!(list["data"], json!([]));
    let (status, _) = app.get("/api/schedules", None).await;
    assert_eq!(status, 401);
}

/// Download-complete notifications on (the default): a finished job's toast arrives.
async fn assert_a_finished_download_is_toasted(s: &Setup, socket: &mut SocketClient) {
    let (status, body) = s
        .app
        .post_json(
            "/api/downloads",
            &json!({ "sourceId": s.source_id, "videoIds": [s.video_ids[0]] }),
            Some(&s.alice),
        )
        .await;
    assert_eq!(status, 201, "{body}");
    let toast = socket
        .wait_for(Duration::from_secs(60), |line| {
            line["name"] == "notification" && line["data"]["title"] == "Download complete"
        })
        .await;
    assert_eq!(toast["data"]["message"], "1 of 1 video downloaded");
    assert_eq!(toast["data"]["category"], "downloadComplete");
}

/// Turns download-complete toasts off and downloads the second video, until its progress
/// says it completed (its toast is checked for at the end of the test).
async fn download_with_toasts_off(s: &Setup, socket: &mut SocketClient) {
    let (status, body) = s
        .app
        .send(
            Method::PATCH,
            "/api/user/settings",
            Some(&s.alice),
            Some(&json!({ "notifications": { "downloadComplete": false } })),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let (status, body) = s
        .app
        .post_json(
            "/api/downloads",
            &json!({ "sourceId": s.source_id, "videoIds": [s.video_ids[1]] }),
            Some(&s.alice),
        )
        .await;
    assert_eq!(status, 201, "{body}");
    let second_job = body["data"]["id"].as_str().unwrap().to_owned();
    socket
        .wait_for(Duration::from_secs(60), |line| {
            line["name"] == "downloadProgress"
                && line["data"]["jobId"] == second_job.as_str()
                && line["data"]["status"] == "COMPLETED"
        })
        .await;
}

/// The channel publishes a third episode, with its audio on the media server.
fn publish_a_new_episode(s: &Setup) {
    let new_video = video_id(40_404);
    s.youtube.publish(
        &channel_id(404),
        vec![FakeVideo::public(
            &new_video,
            "Audio Flow episode new",
            "2030-01-01T00:00:00Z",
            "PT1M",
        )],
    );
    s.media.add_audio(
        &new_video,
        std::fs::read(audio("sample-03-meeting.mp3")).unwrap(),
    );
}

/// A schedule run by hand finds the new episode and starts a download job of it.
async fn assert_a_sync_downloads_the_new_episode(s: &Setup) {
    let app = &s.app;
    let (status, body) = app
        .post_json(
            "/api/schedules",
            &json!({ "sourceId": s.source_id, "frequency": "DAILY", "timeOfDay": "09:00" }),
            Some(&s.alice),
        )
        .await;
    assert_eq!(status, 201, "{body}");
    let schedule = body["data"]["id"].as_str().unwrap().to_owned();
    let (status, body) = app
        .post_json(
            &format!("/api/schedules/{schedule}/run"),
            &json!({}),
            Some(&s.alice),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["meta"]["newVideos"], 1);
    let (_, jobs) = app.get("/api/downloads", Some(&s.alice)).await;
    assert_eq!(jobs["data"].as_array().unwrap().len(), 3, "{jobs}");
    assert_eq!(jobs["data"][0]["totalVideos"], 1);
}

#[tokio::test]
async fn settings_decide_notifications_and_a_sync_downloads_what_it_finds() {
    let Some(s) = setup("settings").await else {
        return;
    };
    let app = &s.app;
    let mut socket = SocketClient::connect(&app.base, &s.alice_id, &s.alice).await;
    socket
        .wait_for(Duration::from_secs(10), |line| line["kind"] == "connect")
        .await;
    assert_a_finished_download_is_toasted(&s, &mut socket).await;
    // Off, and it stays off for the rest of the test: later jobs' progress still arrives, their
    // toasts never do (asserted at the end, whenever they would have come).
    download_with_toasts_off(&s, &mut socket).await;

    // autoDownload on: a sync that finds a new video starts a job for it.
    app.send(
        Method::PATCH,
        "/api/user/settings",
        Some(&s.alice),
        Some(&json!({ "autoDownload": true, "notifications": { "scheduledSync": false } })),
    )
    .await;
    publish_a_new_episode(&s);
    assert_a_sync_downloads_the_new_episode(&s).await;
    // The scheduled-sync notification was switched off.
    socket.drain(Duration::from_secs(1)).await;
    assert!(
        !socket
            .events("notification")
            .iter()
            .any(|data| data["title"] == "Scheduled sync"),
        "{:?}",
        socket.events("notification")
    );
}
