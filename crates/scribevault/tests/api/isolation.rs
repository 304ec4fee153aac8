//! User B cannot list, read, start, retry, cancel or subscribe to user A's uploads, jobs, files,
//! events or Vault items: every attempt is a 404 (or, for a path that is not one of ours, a
//! 400), and A's data is untouched.

use std::time::Duration;

use reqwest::Method;
use serde_json::json;

use crate::helpers::{SocketClient, TestApp, audio};
use crate::pipeline::spawn_pipeline_app;

/// A socket of `user`'s, once it is connected.
async fn connected_socket(app: &TestApp, user: &str, token: &str) -> SocketClient {
    let mut socket = SocketClient::connect(&app.base, user, token).await;
    socket
        .wait_for(Duration::from_secs(10), |line| line["kind"] == "connect")
        .await;
    socket
}

/// What A made: an upload, a finished job of it, its transcript and the Vault item.
struct WorkOfA {
    upload_path: String,
    job: String,
    transcript_path: String,
}

/// A uploads a file and transcribes it, until the library announced the Vault item on A's
/// socket.
async fn transcribe_a_file_of_a(
    app: &TestApp,
    token_a: &str,
    socket_a: &mut SocketClient,
) -> WorkOfA {
    let (_, uploaded) = app
        .upload_to(
            token_a,
            "/api/video-mp3/upload/videoA",
            &audio("sample-01-welcome.mp3"),
            Some("A's talk"),
        )
        .await;
    let upload_path = uploaded["data"]["mp3Path"].as_str().unwrap().to_owned();
    let (_, started) = app
        .post_json(
            "/api/transcription/start",
            &json!({ "files": [{ "id": "fa", "mp3Path": upload_path, "title": "A's talk" }] }),
            Some(token_a),
        )
        .await;
    let job = started["data"]["jobId"].as_str().unwrap().to_owned();
    let done = app
        .wait_for_job(token_a, &job, Duration::from_secs(120))
        .await;
    let transcript_path = done["files"][0]["transcriptPath"]
        .as_str()
        .unwrap()
        .to_owned();
    socket_a
        .wait_for(Duration::from_secs(10), |line| {
            line["name"] == "libraryUpdate"
        })
        .await;
    WorkOfA {
        upload_path,
        job,
        transcript_path,
    }
}

/// Listing: B sees none of A's uploads or items.
async fn assert_b_lists_nothing_of_a(app: &TestApp, token_b: &str) {
    assert_eq!(
        app.get("/api/video-mp3/manual-uploads", Some(token_b))
            .await
            .1["data"]["videos"],
        json!([])
    );
    assert_eq!(
        app.get("/api/video-mp3/status?videoIds=videoA", Some(token_b))
            .await
            .1["data"]["videoA"]["hasMp3"],
        false
    );
    assert_eq!(
        app.get("/api/library/transcripts", Some(token_b)).await.1["meta"]["total"],
        0
    );
}

/// The status of `GET /api/files?path=…` for the caller of `token`.
async fn file_status(app: &TestApp, token: &str, path: &str) -> u16 {
    app.http
        .get(app.url("/api/files"))
        .query(&[("path", path)])
        .bearer_auth(token)
        .send()
        .await
        .unwrap()
        .status()
        .as_u16()
}

/// Reading A's files by path: A's own paths are not found, paths out of B's space are refused.
async fn assert_b_reads_no_file_of_a(app: &TestApp, token_b: &str, user_a: &str, a: &WorkOfA) {
    for path in [&a.upload_path, &a.transcript_path] {
        assert_eq!(file_status(app, token_b, path).await, 404, "{path}");
    }
    let path_a = &a.upload_path;
    for traversal in [
        format!("../{user_a}/{path_a}"),
        format!("/users/{user_a}/{path_a}"),
        "uploads/../../etc/passwd".to_owned(),
    ] {
        assert_eq!(
            file_status(app, token_b, &traversal).await,
            400,
            "{traversal}"
        );
    }
}

/// Starting a job on A's audio, and touching A's job and file.
async fn assert_b_cannot_use_the_job_of_a(app: &TestApp, token_b: &str, a: &WorkOfA) {
    let (status, body) = app
        .post_json(
            "/api/transcription/start",
            &json!({ "files": [{ "id": "steal", "mp3Path": a.upload_path, "title": "x" }] }),
            Some(token_b),
        )
        .await;
    assert_eq!(status, 404, "{body}");
    let job_a = &a.job;
    for action in ["retry", "cancel"] {
        let (status, body) = app
            .post_json(
                &format!("/api/transcription/{action}"),
                &json!({ "fileId": "fa", "jobId": job_a }),
                Some(token_b),
            )
            .await;
        assert_eq!(status, 404, "{action}: {body}");
    }
    for path in [
        format!("/api/transcription/history/{job_a}"),
        format!("/api/transcription/jobs/{job_a}"),
    ] {
        assert_eq!(app.get(&path, Some(token_b)).await.0, 404, "{path}");
    }
}

/// Events: B's socket heard nothing of A's job (and still works).
async fn assert_b_heard_nothing_of_a(socket_b: &mut SocketClient) {
    let heard: Vec<_> = socket_b
        .seen
        .iter()
        .chain(std::iter::empty())
        .filter(|line| line["kind"] == "event")
        .cloned()
        .collect();
    socket_b
        .emit("testMessage", json!({ "message": "still here" }), false)
        .await;
    socket_b
        .wait_for(Duration::from_secs(5), |line| line["name"] == "testMessage")
        .await;
    let heard_after: Vec<_> = socket_b
        .seen
        .iter()
        .filter(|line| line["kind"] == "event" && line["name"] != "testMessage")
        .collect();
    assert!(
        heard.is_empty() && heard_after.is_empty(),
        "B heard A's events: {heard_after:?}"
    );
}

#[tokio::test]
async fn user_b_gets_nothing_of_user_a() {
    let (app, _models) = spawn_pipeline_app(&[]).await;
    let (token_a, user_a) = app.sign_up("a@example.com").await;
    let (token_b, user_b) = app.sign_up("b@example.com").await;
    let mut socket_b = connected_socket(&app, &user_b, &token_b).await;
    let mut socket_a = connected_socket(&app, &user_a, &token_a).await;
    let a = transcribe_a_file_of_a(&app, &token_a, &mut socket_a).await;

    assert_b_lists_nothing_of_a(&app, &token_b).await;
    assert_b_reads_no_file_of_a(&app, &token_b, &user_a, &a).await;
    assert_b_cannot_use_the_job_of_a(&app, &token_b, &a).await;

    // A's Vault item.
    let (_, vault_a) = app.get("/api/library/transcripts", Some(&token_a)).await;
    let item = vault_a["data"][0]["id"].as_str().unwrap().to_owned();
    for (method, path) in [
        (
            Method::GET,
            format!("/api/library/transcripts/{item}/content"),
        ),
        (Method::DELETE, format!("/api/library/transcripts/{item}")),
    ] {
        assert_eq!(app.send(method, &path, Some(&token_b), None).await.0, 404);
    }

    assert_b_heard_nothing_of_a(&mut socket_b).await;

    // A's data is intact.
    assert_eq!(
        app.get(
            &format!("/api/transcription/jobs/{}", a.job),
            Some(&token_a)
        )
        .await
        .1["data"]["files"][0]["status"],
        "completed"
    );
    assert_eq!(
        app.get(
            &format!("/api/library/transcripts/{item}/content"),
            Some(&token_a)
        )
        .await
        .0,
        200
    );
}
