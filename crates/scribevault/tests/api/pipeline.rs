//! The transcription pipeline end to end on embedded defaults: MP3 upload → Whisper → Vault,
//! watched live through the real `socket.io-client`.

use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::helpers::{SocketClient, TestApp, audio, model_dir};
use scribevault_test_support::word_error_rate;

const SAMPLES: [&str; 5] = [
    "sample-01-welcome",
    "sample-02-subscribe",
    "sample-03-meeting",
    "sample-04-noisy",
    "long-01-bread",
];

pub async fn spawn_pipeline_app(extra: &[(&str, &str)]) -> (TestApp, tempfile::TempDir) {
    let models = model_dir();
    let mut settings = vec![
        (
            "SCRIBEVAULT_WHISPER_MODEL_DIR",
            models.path().to_str().unwrap(),
        ),
        ("SCRIBEVAULT_WHISPER_THREADS", "1"),
    ];
    settings.extend_from_slice(extra);
    (TestApp::spawn_all_with(&settings).await, models)
}

/// Text of a Vault item without its markdown title line.
pub fn body_text(markdown: &str) -> String {
    markdown
        .lines()
        .filter(|line| !line.starts_with("# "))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Uploads every sample and starts one markdown job of them; returns the job's id.
async fn upload_and_start_the_samples(app: &TestApp, token: &str) -> String {
    let mut files = Vec::new();
    for (index, name) in SAMPLES.iter().enumerate() {
        let (status, body) = app
            .upload(token, &audio(&format!("{name}.mp3")), Some(name))
            .await;
        assert_eq!(status, 200, "{name}: {body}");
        files.push(json!({ "id": format!("file-{index}"), "mp3Path": body["data"]["mp3Path"], "title": name }));
    }
    let (status, started) = app
        .post_json(
            "/api/transcription/start",
            &json!({ "files": files, "model": "small", "outputFormat": "markdown" }),
            Some(token),
        )
        .await;
    assert_eq!(status, 200, "{started}");
    assert_eq!(started["data"]["files"][0]["status"], "pending");
    started["data"]["jobId"].as_str().unwrap().to_owned()
}

/// Waits for every sample's completion event (none may fail) and checks the long file
/// reported progress on the way; returns each completion's data by file id.
async fn wait_for_every_completion(
    socket: &mut SocketClient,
    job_id: &str,
) -> std::collections::HashMap<String, Value> {
    let mut completed = std::collections::HashMap::new();
    while completed.len() < SAMPLES.len() {
        let line = socket
            .wait_for(Duration::from_secs(300), |line| {
                line["kind"] == "event"
                    && matches!(
                        line["name"].as_str(),
                        Some("transcriptionComplete" | "transcriptionError")
                    )
            })
            .await;
        assert_eq!(
            line["name"], "transcriptionComplete",
            "no file may fail: {line}"
        );
        assert_eq!(line["data"]["jobId"], job_id);
        assert!(line["data"]["processingTime"].as_u64().unwrap() > 0);
        assert!(
            line["data"]["transcriptPath"]
                .as_str()
                .unwrap()
                .starts_with("transcripts/")
        );
        completed.insert(
            line["data"]["fileId"].as_str().unwrap().to_owned(),
            line["data"].clone(),
        );
    }
    let progress = socket.events("transcriptionProgress");
    assert!(
        progress
            .iter()
            .any(|event| event["fileId"] == "file-4" && event["progress"].as_u64().unwrap() > 0),
        "the long file reports progress as it goes: {progress:?}"
    );
    completed
}

/// Each file became exactly one Vault item, announced on the socket (the library ingests
/// after the completion event, so wait for its announcement), with the spoken text.
async fn assert_each_sample_is_one_vault_item(
    app: &TestApp,
    socket: &mut SocketClient,
    token: &str,
) {
    for name in SAMPLES {
        socket
            .seen_or_wait_for(Duration::from_secs(30), |line| {
                line["kind"] == "event"
                    && line["name"] == "libraryUpdate"
                    && line["data"]["transcript"]["title"] == name
            })
            .await;
    }
    let (_, vault) = app
        .get("/api/library/transcripts?limit=50", Some(token))
        .await;
    assert_eq!(vault["meta"]["total"], SAMPLES.len(), "{vault}");
    for name in SAMPLES {
        let item = vault["data"]
            .as_array()
            .unwrap()
            .iter()
            .find(|item| item["title"] == name)
            .unwrap_or_else(|| panic!("{name} in the Vault"));
        assert_eq!(item["sourceType"], "AUDIO");
        assert!(item["duration"].as_f64().unwrap() > 5.0);
        let (_, content) = app
            .get(
                &format!(
                    "/api/library/transcripts/{}/content",
                    item["id"].as_str().unwrap()
                ),
                Some(token),
            )
            .await;
        let markdown = content["data"]["content"].as_str().unwrap();
        assert!(
            markdown.starts_with(&format!("# {name}\n")),
            "markdown has the title heading: {markdown}"
        );
        let reference = std::fs::read_to_string(audio(&format!("{name}.txt"))).unwrap();
        let wer = word_error_rate(&reference, &body_text(markdown));
        assert!(
            wer < 0.20,
            "{name}: WER {wer:.3}\nreference: {reference}\ngot: {markdown}"
        );
    }
}

/// The transcript file of the completed file `done` can be read back through the API.
async fn assert_the_transcript_file_reads_back(app: &TestApp, token: &str, done: &Value) {
    let text = app
        .http
        .get(app.url("/api/files"))
        .query(&[("path", done["transcriptPath"].as_str().unwrap())])
        .bearer_auth(token)
        .send()
        .await
        .unwrap();
    assert_eq!(text.status(), 200);
    assert!(
        text.text()
            .await
            .unwrap()
            .to_lowercase()
            .contains("welcome")
    );
}

/// The worker's segments reached the Vault: a search says where in the recording a word was
/// said, and the transcription screen finds the item by its transcript path.
async fn assert_search_finds_the_segments_and_the_path(app: &TestApp, token: &str, done: &Value) {
    let (status, hits) = app
        .get("/api/library/transcripts?q=welcome", Some(token))
        .await;
    assert_eq!(status, 200, "{hits}");
    let hit = &hits["data"][0];
    assert_eq!(hit["sourceType"], "AUDIO", "{hits}");
    let matches = hit["matches"].as_array().unwrap();
    assert!(
        !matches.is_empty(),
        "segments came with the transcript: {hits}"
    );
    assert!(
        matches[0]["text"]
            .as_str()
            .unwrap()
            .to_lowercase()
            .contains("welcome")
    );
    assert!(matches[0]["end"].as_f64().unwrap() > matches[0]["start"].as_f64().unwrap());
    let path = done["transcriptPath"].as_str().unwrap();
    let (_, by_path) = app
        .get(
            &format!("/api/library/transcripts?path={}", url_encode(path)),
            Some(token),
        )
        .await;
    assert_eq!(by_path["meta"]["total"], 1, "{by_path}");
    assert_eq!(by_path["data"][0]["title"], "sample-01-welcome");
}

#[tokio::test]
async fn every_sample_becomes_a_vault_item_with_live_progress() {
    let (app, _models) = spawn_pipeline_app(&[]).await;
    let (token, user) = app.sign_up("listener@example.com").await;
    let mut socket = SocketClient::connect(&app.base, &user, &token).await;
    socket
        .wait_for(Duration::from_secs(10), |line| line["kind"] == "connect")
        .await;

    let job_id = upload_and_start_the_samples(&app, &token).await;
    let completed = wait_for_every_completion(&mut socket, &job_id).await;
    assert_each_sample_is_one_vault_item(&app, &mut socket, &token).await;

    // The transcript files can be read back through the API, and the job shows it all.
    let done = &completed["file-0"];
    assert_the_transcript_file_reads_back(&app, &token, done).await;
    assert_search_finds_the_segments_and_the_path(&app, &token, done).await;

    let job = app
        .wait_for_job(&token, &job_id, Duration::from_secs(5))
        .await;
    assert!(
        job["files"]
            .as_array()
            .unwrap()
            .iter()
            .all(|file| file["status"] == "completed" && file["progress"] == 100)
    );
}

#[tokio::test]
async fn broken_files_are_refused_at_upload_and_nothing_is_kept() {
    let app = TestApp::spawn().await;
    let (token, _) = app.sign_up("broken@example.com").await;
    for name in [
        "broken-not-audio.mp3",
        "broken-empty.mp3",
        "broken-truncated.mp3",
    ] {
        let (status, body) = app.upload(&token, &audio(name), None).await;
        assert_eq!(status, 400, "{name}: {body}");
        assert_eq!(
            body["error"]["message"], "Please select MP3 files only",
            "{name}"
        );
    }
    let (_, uploads) = app.get("/api/video-mp3/manual-uploads", Some(&token)).await;
    assert_eq!(uploads["data"]["videos"], json!([]));
    let stored: Vec<_> = walk(&app.data_dir.path().join("blobs/users"));
    assert!(stored.is_empty(), "no blob kept: {stored:?}");
}

fn walk(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    entries
        .flatten()
        .flat_map(|entry| {
            if entry.path().is_dir() {
                walk(&entry.path())
            } else {
                vec![entry.path()]
            }
        })
        .collect()
}

#[tokio::test]
async fn uploads_over_the_limit_get_413_and_nothing_is_kept() {
    let app = TestApp::spawn_all_with(&[("SCRIBEVAULT_MAX_UPLOAD_BYTES", "100000")]).await;
    let (token, _) = app.sign_up("big@example.com").await;
    let (status, body) = app
        .upload(&token, &audio("sample-01-welcome.mp3"), Some("too big"))
        .await;
    assert_eq!(status, 413, "{body}");
    assert!(
        body["error"]["message"]
            .as_str()
            .unwrap()
            .starts_with("File is too large"),
        "{body}"
    );
    assert!(walk(&app.data_dir.path().join("blobs/users")).is_empty());
    let (status, _) = app
        .upload(
            &token,
            &audio("truncated-partial.mp3"),
            Some("small enough"),
        )
        .await;
    assert_eq!(status, 200, "files under the limit still go through");
}

#[tokio::test]
async fn audio_longer_than_the_limit_gets_413_with_the_limit_and_nothing_is_kept() {
    let app = TestApp::spawn_all_with(&[("SCRIBEVAULT_MAX_AUDIO_SECONDS", "60")]).await;
    let (token, _) = app.sign_up("long@example.com").await;
    let (status, body) = app
        .upload(&token, &audio("long-01-bread.mp3"), Some("77 seconds"))
        .await;
    assert_eq!(status, 413, "{body}");
    assert_eq!(
        body["error"]["message"], "The audio is longer than the limit of 1 min",
        "{body}"
    );
    assert!(walk(&app.data_dir.path().join("blobs/users")).is_empty());
    let (status, body) = app
        .upload(&token, &audio("sample-01-welcome.mp3"), Some("7 seconds"))
        .await;
    assert_eq!(status, 200, "shorter audio still goes through: {body}");
}

#[tokio::test]
async fn the_same_audio_twice_is_stored_once_and_video_status_follows_uploads() {
    let app = TestApp::spawn().await;
    let (token, _) = app.sign_up("twice@example.com").await;
    let (_, first) = app
        .upload_to(
            &token,
            "/api/video-mp3/upload/vid123",
            &audio("sample-02-subscribe.mp3"),
            Some("Video"),
        )
        .await;
    let (_, second) = app
        .upload(
            &token,
            &audio("sample-02-subscribe.mp3"),
            Some("Manual copy"),
        )
        .await;
    assert_eq!(first["data"]["mp3Path"], second["data"]["mp3Path"]);
    assert_eq!(second["data"]["deduplicated"], true);
    assert_eq!(
        walk(&app.data_dir.path().join("blobs/users")).len(),
        1,
        "one stored object"
    );
    let (_, status) = app
        .get("/api/video-mp3/status?videoIds=vid123,other", Some(&token))
        .await;
    assert_eq!(
        status["data"]["vid123"],
        json!({ "hasMp3": true, "mp3FilePath": first["data"]["mp3Path"] })
    );
    assert_eq!(
        status["data"]["other"],
        json!({ "hasMp3": false, "mp3FilePath": null })
    );
    let (_, manual) = app.get("/api/video-mp3/manual-uploads", Some(&token)).await;
    assert_eq!(
        manual["data"]["videos"].as_array().unwrap().len(),
        1,
        "the video upload is not a manual upload"
    );
    assert_eq!(manual["data"]["videos"][0]["title"], "Manual copy");
}

#[tokio::test]
async fn a_truncated_file_transcribes_its_prefix_and_an_absent_model_is_named() {
    let (app, models) = spawn_pipeline_app(&[]).await;
    let (token, _) = app.sign_up("partial@example.com").await;
    let (status, uploaded) = app
        .upload(&token, &audio("truncated-partial.mp3"), Some("partial"))
        .await;
    assert_eq!(status, 200, "{uploaded}");
    let file = json!([{ "id": "p", "mp3Path": uploaded["data"]["mp3Path"], "title": "partial" }]);
    let (status, body) = app
        .post_json(
            "/api/transcription/start",
            &json!({ "files": file, "model": "large-v3" }),
            Some(&token),
        )
        .await;
    assert_eq!(status, 400);
    // The message says what exists and how an operator adds the missing model.
    let message = body["error"]["message"].as_str().unwrap();
    assert_eq!(
        message,
        format!(
            "Model 'large-v3' is not available. Available models: small, tiny.en. Run `scribevault model fetch large-v3` or put ggml-large-v3.bin in {}.",
            models.path().display()
        )
    );
    let (_, started) = app
        .post_json(
            "/api/transcription/start",
            &json!({ "files": file, "model": "tiny.en", "outputFormat": "txt" }),
            Some(&token),
        )
        .await;
    let job = app
        .wait_for_job(
            &token,
            started["data"]["jobId"].as_str().unwrap(),
            Duration::from_secs(120),
        )
        .await;
    let file = &job["files"][0];
    match file["status"].as_str() {
        Some("completed") => {
            let content = app.only_vault_content(&token).await;
            let text = content.to_lowercase();
            assert!(
                text.contains("before we start"),
                "a prefix of sample-02: {text}"
            );
        }
        _ => assert!(
            file["errorMessage"]
                .as_str()
                .is_some_and(|message| !message.is_empty()),
            "a clear error: {file}"
        ),
    }
}

#[tokio::test]
async fn cancel_stops_a_running_file_and_frees_the_worker() {
    let (app, _models) = spawn_pipeline_app(&[]).await;
    let (token, user) = app.sign_up("cancel@example.com").await;
    let mut socket = SocketClient::connect(&app.base, &user, &token).await;
    socket
        .wait_for(Duration::from_secs(10), |line| line["kind"] == "connect")
        .await;
    let (_, long) = app
        .upload(&token, &audio("long-01-bread.mp3"), Some("long"))
        .await;
    let (_, short) = app
        .upload(&token, &audio("sample-01-welcome.mp3"), Some("short"))
        .await;
    let (_, first) = app.post_json("/api/transcription/start", &json!({ "files": [{ "id": "long", "mp3Path": long["data"]["mp3Path"], "title": "long" }] }), Some(&token)).await;
    let job = first["data"]["jobId"].as_str().unwrap().to_owned();
    socket
        .wait_for(Duration::from_secs(60), |line| {
            line["name"] == "transcriptionProgress"
                && line["data"]["fileId"] == "long"
                && line["data"]["progress"].as_u64().unwrap_or(0) > 0
        })
        .await;

    let cancelled_at = Instant::now();
    let (status, cancelled) = app
        .post_json(
            "/api/transcription/cancel",
            &json!({ "fileId": "long", "jobId": job }),
            Some(&token),
        )
        .await;
    assert_eq!(status, 200, "{cancelled}");
    assert_eq!(cancelled["data"]["status"], "error");
    assert_eq!(cancelled["data"]["errorMessage"], "Cancelled by user");
    // One worker, one file at a time: the next file can only start once the cancelled one
    // has really stopped.
    let (_, second) = app.post_json("/api/transcription/start", &json!({ "files": [{ "id": "short", "mp3Path": short["data"]["mp3Path"], "title": "short" }] }), Some(&token)).await;
    socket
        .wait_for(Duration::from_secs(10), |line| {
            line["name"] == "transcriptionProgress" && line["data"]["fileId"] == "short"
        })
        .await;
    // This span also holds the second job's start and claim; the worker's own stop (abort flag
    // to whisper returning) is held to 2 s in the engine's unit test.
    let stopped_within = cancelled_at.elapsed();
    assert!(
        stopped_within < Duration::from_secs(4),
        "the worker was busy for {stopped_within:?} after the cancel"
    );
    app.wait_for_job(
        &token,
        second["data"]["jobId"].as_str().unwrap(),
        Duration::from_secs(60),
    )
    .await;
    let (_, job_state) = app
        .get(&format!("/api/transcription/jobs/{job}"), Some(&token))
        .await;
    assert_eq!(
        job_state["data"]["files"][0]["status"], "error",
        "the cancelled file did not complete after all"
    );

    // Retry brings it back.
    let (status, retried) = app
        .post_json(
            "/api/transcription/retry",
            &json!({ "fileId": "long", "jobId": job }),
            Some(&token),
        )
        .await;
    assert_eq!(status, 200, "{retried}");
    assert_eq!(retried["data"]["status"], "retrying");
    let (_, history) = app
        .get(&format!("/api/transcription/history/{job}"), Some(&token))
        .await;
    assert_eq!(history["data"][0]["id"], "long");
    assert_eq!(history["data"][0]["maxRetries"], 10);
}

#[tokio::test]
async fn socket_speaks_socket_io_to_two_client_libraries_and_checks_tokens() {
    let app = TestApp::spawn().await;
    let (token, user) = app.sign_up("socket@example.com").await;
    let (other_token, _) = app.sign_up("other-socket@example.com").await;

    let mut socket = SocketClient::connect(&app.base, &user, &token).await;
    socket
        .wait_for(Duration::from_secs(10), |line| line["kind"] == "connect")
        .await;
    socket
        .emit("testMessage", json!({ "message": "hello" }), true)
        .await;
    let echo = socket
        .wait_for(Duration::from_secs(5), |line| {
            line["kind"] == "event" && line["name"] == "testMessage"
        })
        .await;
    assert_eq!(echo["data"], json!({ "message": "hello" }));
    let ack = socket
        .wait_for(Duration::from_secs(5), |line| line["kind"] == "ack")
        .await;
    assert_eq!(ack["data"]["received"], true);

    // Only the namespace the app serves: a session cannot be made to hold others.
    let mut admin = SocketClient::connect_namespace(&app.base, &user, &token, "/admin").await;
    let refused = admin
        .wait_for(Duration::from_secs(10), |line| {
            line["kind"] == "connect_error" || line["kind"] == "connect"
        })
        .await;
    assert_eq!(refused["message"], "Invalid namespace", "{refused}");

    for (user_id, bad_token, why) in [
        (user.as_str(), "not-a-token", "garbage"),
        (user.as_str(), other_token.as_str(), "another user's token"),
        (user.as_str(), "", "no token"),
    ] {
        let mut refused = SocketClient::connect(&app.base, user_id, bad_token).await;
        let line = refused
            .wait_for(Duration::from_secs(10), |line| {
                line["kind"] == "connect_error" || line["kind"] == "connect"
            })
            .await;
        assert_eq!(line["kind"], "connect_error", "{why}");
    }

    let python = tokio::process::Command::new("python3")
        .arg(
            scribevault_test_support::workspace_root()
                .join("crates/scribevault")
                .join("tests/support/socket_client.py"),
        )
        .args([&app.base, &user, &token])
        .output()
        .await
        .expect("python3 with python-socketio (make test installs it)");
    let output = String::from_utf8_lossy(&python.stdout);
    let lines: Vec<Value> = output
        .lines()
        .filter_map(|line| serde_json::from_str(line).ok())
        .collect();
    assert!(
        lines.iter().any(|line| line["kind"] == "connect"),
        "python-socketio connected: {output} {}",
        String::from_utf8_lossy(&python.stderr)
    );
    assert!(
        lines.iter().any(|line| line["kind"] == "event"
            && line["name"] == "testMessage"
            && line["data"]["message"] == "from python"),
        "{output}"
    );
    assert!(
        lines
            .iter()
            .any(|line| line["kind"] == "ack" && line["data"]["received"] == true),
        "{output}"
    );
}

/// A file with only a few milliseconds of audio neither hangs nor fails obscurely: it ends as
/// an empty transcript.
#[tokio::test]
async fn a_file_with_almost_no_audio_ends_as_an_empty_transcript() {
    let (app, _models) = spawn_pipeline_app(&[]).await;
    let (token, _) = app.sign_up("tiny@example.com").await;
    // sample-02 is CBR 96 kbit/s at 44.1 kHz: after its ID3 tag, 1.3 KiB are four frames,
    // about 0.1 s of sound.
    let bytes = std::fs::read(audio("sample-02-subscribe.mp3")).unwrap();
    let tag = if &bytes[..3] == b"ID3" {
        10 + bytes[6..10]
            .iter()
            .fold(0usize, |size, byte| (size << 7) | usize::from(*byte))
    } else {
        0
    };
    let dir = tempfile::tempdir().unwrap();
    let short = dir.path().join("blip.mp3");
    std::fs::write(&short, &bytes[..tag + 1300]).unwrap();
    let (status, uploaded) = app.upload(&token, &short, Some("blip")).await;
    assert_eq!(status, 200, "{uploaded}");
    let (_, started) = app
        .post_json("/api/transcription/start", &json!({ "files": [{ "id": "blip", "mp3Path": uploaded["data"]["mp3Path"], "title": "blip" }] }), Some(&token))
        .await;
    let job = app
        .wait_for_job(
            &token,
            started["data"]["jobId"].as_str().unwrap(),
            Duration::from_secs(60),
        )
        .await;
    let file = &job["files"][0];
    match file["status"].as_str() {
        Some("completed") => {
            let content = app.only_vault_content(&token).await;
            assert_eq!(
                body_text(&content).trim(),
                "",
                "no words from a blip: {content}"
            );
        }
        _ => assert!(
            file["errorMessage"]
                .as_str()
                .is_some_and(|message| !message.is_empty()),
            "a clear error: {file}"
        ),
    }
}

/// A transcription service without the models on disk offers the configured list.
#[tokio::test]
async fn configured_models_are_offered_without_the_files() {
    let app = TestApp::spawn_all_with(&[("SCRIBEVAULT_WHISPER_MODELS", "small, base.en")]).await;
    let (token, _) = app.sign_up("models@example.com").await;
    let (status, models) = app.get("/api/transcription/models", Some(&token)).await;
    assert_eq!(status, 200);
    assert_eq!(models["data"]["models"], json!(["base.en", "small"]));
    let (_, uploaded) = app
        .upload(&token, &audio("sample-01-welcome.mp3"), None)
        .await;
    let (status, body) = app
        .post_json("/api/transcription/start", &json!({ "files": [{ "id": "x", "mp3Path": uploaded["data"]["mp3Path"] }], "model": "medium" }), Some(&token))
        .await;
    assert_eq!(status, 400);
    assert_eq!(
        body["error"]["message"],
        "Model 'medium' is not available. Available models: base.en, small. Give the workers ggml-medium.bin and add medium to SCRIBEVAULT_WHISPER_MODELS."
    );
}

fn url_encode(text: &str) -> String {
    url::form_urlencoded::byte_serialize(text.as_bytes()).collect()
}
