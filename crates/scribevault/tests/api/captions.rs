//! Captions first, end to end through the product's REST API: the real binary, the real yt-dlp
//! reading YouTube's pages as the local media server plays them (`test-support`'s
//! `youtube_site`), the YouTube fake and whisper (tiny.en). The Settings default reaches
//! discovery, a video with automatic captions becomes a Vault item at once with word times,
//! and 'Transcribe with Whisper' replaces its transcript in the same item.

use std::time::Duration;

use scribevault_test_support::media::{MediaServer, ytdlp};
use scribevault_test_support::youtube::{FakeChannel, FakeYouTube, channel_id};
use scribevault_test_support::youtube_site::{self, FakeVideo, YtDlpWithFakeYouTube};
use serde_json::{Value, json};

use crate::helpers::{TestApp, audio, model_dir};

const AUTO_TRACK: &[u8] = include_bytes!("../../../discovery/src/captions/testdata/asr_en.json3");

/// The caller's only Vault item, once it is there and `ready` says so.
async fn the_item(app: &TestApp, token: &str, ready: impl Fn(&Value) -> bool) -> Value {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(120);
    loop {
        let (_, vault) = app.get("/api/library/transcripts", Some(token)).await;
        if let Some(item) = vault["data"].as_array().and_then(|items| items.first())
            && ready(item)
        {
            assert_eq!(vault["meta"]["total"], 1, "one item: {vault}");
            return item.clone();
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "the item did not get there: {vault}"
        );
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
}

/// The instance of the captions test and the fakes it talks to (fields drop in order: the
/// instance first).
struct CaptionsSetup {
    app: TestApp,
    media: MediaServer,
    _models: tempfile::TempDir,
    _youtube: FakeYouTube,
    _ytdlp: YtDlpWithFakeYouTube,
}

/// A channel `@captioned` of one video on the YouTube fake, yt-dlp reading the local media
/// server, and an instance with whisper that uses both.
async fn start_captions_setup(real_ytdlp: &str) -> CaptionsSetup {
    let ytdlp = YtDlpWithFakeYouTube::new(real_ytdlp);
    let media = MediaServer::start().await;
    let youtube = FakeYouTube::start().await;
    youtube.add_channel(
        FakeChannel::generated(&channel_id(405), "Captioned", 1).with_handle("captioned"),
    );
    let models = model_dir();
    let base = youtube.base_url();
    let watch_url = youtube_site::watch_url(&media);
    let app = TestApp::spawn_all_with(&[
        ("SCRIBEVAULT_YOUTUBE_API_BASE", base.as_str()),
        ("SCRIBEVAULT_YOUTUBE_API_KEY", "captions-key"),
        ("SCRIBEVAULT_YTDLP_PATH", ytdlp.path.as_str()),
        ("SCRIBEVAULT_YOUTUBE_WATCH_URL", watch_url.as_str()),
        ("SCRIBEVAULT_CAPTIONS_SLEEP_SECONDS", "0"),
        (
            "SCRIBEVAULT_WHISPER_MODEL_DIR",
            models.path().to_str().unwrap(),
        ),
        ("SCRIBEVAULT_WHISPER_THREADS", "1"),
    ])
    .await;
    CaptionsSetup {
        app,
        media,
        _models: models,
        _youtube: youtube,
        _ytdlp: ytdlp,
    }
}

/// The Settings default, handed over to discovery.
async fn turn_captions_on_by_default(app: &TestApp, token: &str) {
    let (status, settings) = app
        .send(
            reqwest::Method::PATCH,
            "/api/user/settings",
            Some(token),
            Some(&json!({ "useCaptions": true })),
        )
        .await;
    assert_eq!(status, 200, "{settings}");
    assert_eq!(settings["data"]["useCaptions"], true);
}

/// Adds the channel as a source and publishes its video with automatic captions (English
/// original, English, French) and the welcome MP3; returns (source id, the video).
async fn add_the_captioned_video(setup: &CaptionsSetup, token: &str) -> (String, FakeVideo) {
    let (app, media) = (&setup.app, &setup.media);
    let (status, source) = app
        .post_json("/api/sources", &json!({ "url": "@captioned" }), Some(token))
        .await;
    assert_eq!(status, 201, "{source}");
    let source_id = source["data"]["id"].as_str().unwrap().to_owned();
    let (_, videos) = app
        .get(&format!("/api/sources/{source_id}/videos"), Some(token))
        .await;
    let id = videos["data"][0]["youtubeVideoId"]
        .as_str()
        .unwrap()
        .to_owned();
    let video = FakeVideo {
        id: id.clone(),
        title: "Captioned".into(),
        audio_language: Some("en".into()),
        uploader_tracks: Vec::new(),
        automatic_tracks: vec!["en-orig".into(), "en".into(), "fr".into()],
    };
    video.publish(media);
    media.add_audio(&id, std::fs::read(audio("sample-01-welcome.mp3")).unwrap());
    media.add_caption(&video.caption_file("en-orig", true), AUTO_TRACK.to_vec());
    (source_id, video)
}

/// The caption track became the item's transcript, with word times; returns the item's id.
async fn assert_the_captions_are_the_transcript(app: &TestApp, token: &str) -> String {
    let item = the_item(app, token, |item| item["transcriptSource"].is_string()).await;
    assert_eq!(item["transcriptSource"], "captions:auto", "{item}");
    assert_eq!(item["language"], "en");
    let item_id = item["id"].as_str().unwrap().to_owned();
    let (_, segments) = app
        .get(
            &format!("/api/library/transcripts/{item_id}/segments"),
            Some(token),
        )
        .await;
    let first = &segments["data"]["segments"][0];
    assert_eq!(first["text"], "today we're going to be talking about");
    assert_eq!(first["words"][1]["startMs"], 280, "{first}");
    let (_, content) = app
        .get(
            &format!("/api/library/transcripts/{item_id}/content"),
            Some(token),
        )
        .await;
    assert!(
        content["data"]["content"]
            .as_str()
            .unwrap()
            .starts_with("today we're going"),
        "{content}"
    );
    item_id
}

/// 'Transcribe with Whisper': the same item gets Whisper's transcript of its MP3.
async fn assert_whisper_replaces_the_transcript(app: &TestApp, token: &str, item_id: &str) {
    let (status, run) = app
        .post_json(
            &format!("/api/library/transcripts/{item_id}/whisper"),
            &json!({}),
            Some(token),
        )
        .await;
    assert_eq!(status, 202, "{run}");
    let job_id = run["data"]["jobId"].as_str().unwrap().to_owned();
    assert_eq!(run["data"]["transcript"]["whisperJobId"], job_id.as_str());
    let finished = app
        .wait_for_job(token, &job_id, Duration::from_secs(180))
        .await;
    assert_eq!(finished["files"][0]["status"], "completed", "{finished}");
    let replaced = the_item(app, token, |item| item["transcriptSource"] == "whisper").await;
    assert_eq!(replaced["id"], item_id, "the same item");
    assert_eq!(replaced["whisperJobId"], Value::Null);
    let (_, content) = app
        .get(
            &format!("/api/library/transcripts/{item_id}/content"),
            Some(token),
        )
        .await;
    let text = content["data"]["content"].as_str().unwrap().to_lowercase();
    assert!(text.contains("welcome"), "Whisper's words: {text}");
    assert!(!text.contains("ragas"), "the captions are gone: {text}");
}

#[tokio::test]
async fn a_video_with_captions_is_a_vault_item_at_once_and_whisper_replaces_it_on_request() {
    let Some(real_ytdlp) = ytdlp("captions_end_to_end") else {
        return;
    };
    let setup = start_captions_setup(&real_ytdlp).await;
    let app = &setup.app;
    let (token, _) = app.sign_up("captions@example.com").await;
    turn_captions_on_by_default(app, &token).await;
    let (source_id, video) = add_the_captioned_video(&setup, &token).await;

    // No `useCaptions`: the user's default applies.
    let (status, job) = app
        .post_json(
            "/api/downloads",
            &json!({ "sourceId": source_id, "videoIds": [video.id], "transcribe": true, "model": "small" }),
            Some(&token),
        )
        .await;
    assert_eq!(status, 201, "{job}");
    assert_eq!(job["data"]["useCaptions"], true);

    let item_id = assert_the_captions_are_the_transcript(app, &token).await;
    assert_whisper_replaces_the_transcript(app, &token, &item_id).await;

    let (status, again) = app
        .post_json(
            &format!("/api/library/transcripts/{item_id}/whisper"),
            &json!({}),
            Some(&token),
        )
        .await;
    assert_eq!(status, 409, "{again}");
    assert_eq!(
        setup
            .media
            .requests(&format!("captions/{}", video.caption_file("fr", true))),
        0,
        "no translation was fetched"
    );
}
