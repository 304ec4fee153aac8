//! The database is the truth: files survive a crashed worker and a restarted process, and none
//! becomes two Vault items.

use std::time::Duration;

use serde_json::json;

use crate::helpers::{ANY_PORT, SocketClient, TestApp, audio, model_dir, spawn_process};

#[tokio::test]
async fn restarting_all_resumes_pending_and_running_files() {
    let data_dir = tempfile::tempdir().unwrap();
    let models = model_dir();
    let env: Vec<(String, String)> = [
        (
            "SCRIBEVAULT_DATA_DIR",
            data_dir.path().display().to_string(),
        ),
        ("SCRIBEVAULT_HTTP_ADDR", ANY_PORT.to_owned()),
        (
            "SCRIBEVAULT_WHISPER_MODEL_DIR",
            models.path().display().to_string(),
        ),
        ("SCRIBEVAULT_WHISPER_THREADS", "1".to_owned()),
        ("SCRIBEVAULT_WORKER_STALE_SECONDS", "3".to_owned()),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_owned(), v))
    .collect();
    let mut first = spawn_process("all", &env, &["http"]).await;
    let app = TestApp::from_parts(
        first.http_base(),
        String::new(),
        tempfile::tempdir().unwrap(),
        Vec::new(),
    );
    let (token, user) = app.sign_up("restart@example.com").await;
    let (_, long) = app
        .upload(&token, &audio("long-01-bread.mp3"), Some("long"))
        .await;
    let (_, short) = app
        .upload(&token, &audio("sample-03-meeting.mp3"), Some("short"))
        .await;
    let files = json!([
        { "id": "long", "mp3Path": long["data"]["mp3Path"], "title": "long" },
        { "id": "short", "mp3Path": short["data"]["mp3Path"], "title": "short" },
    ]);
    let (_, started) = app
        .post_json(
            "/api/transcription/start",
            &json!({ "files": files }),
            Some(&token),
        )
        .await;
    let job = started["data"]["jobId"].as_str().unwrap().to_owned();
    let mut socket = SocketClient::connect(&app.base, &user, &token).await;
    socket
        .wait_for(Duration::from_secs(60), |line| {
            line["name"] == "transcriptionProgress"
                && line["data"]["fileId"] == "long"
                && line["data"]["progress"].as_u64().unwrap_or(0) > 0
        })
        .await;

    // The process dies mid-file: one file running, one waiting.
    first.kill().await;
    drop(socket);
    let second = spawn_process("all", &env, &["http"]).await;
    // The restarted process listens on a port of its own choosing; the data dir is the same.
    let app = TestApp::from_parts(
        second.http_base(),
        String::new(),
        tempfile::tempdir().unwrap(),
        vec![second],
    );
    let finished = app
        .wait_for_job(&token, &job, Duration::from_secs(240))
        .await;
    for file in finished["files"].as_array().unwrap() {
        assert_eq!(file["status"], "completed", "{file}");
    }
    app.wait_for_vault_total(&token, 2, Duration::from_secs(30))
        .await;
    // Give a duplicate ingest time to show up before counting again.
    tokio::time::sleep(Duration::from_secs(2)).await;
    let (_, vault) = app.get("/api/library/transcripts", Some(&token)).await;
    assert_eq!(
        vault["meta"]["total"], 2,
        "one Vault item per file, none twice: {vault}"
    );
}
