//! User B cannot list, read, start, retry, cancel or subscribe to user A's uploads, jobs, files,
//! events or Vault items: every attempt is a 404 (or, for a path that is not one of ours, a
//! 400), and A's data is untouched.

use std::time::Duration;

use reqwest::Method;
use serde_json::json;

use crate::helpers::{SocketClient, audio};
use crate::pipeline::spawn_pipeline_app;

#[tokio::test]
async fn user_b_gets_nothing_of_user_a() {
    let (app, _models) = spawn_pipeline_app(&[]).await;
    let (token_a, user_a) = app.sign_up("a@example.com").await;
    let (token_b, user_b) = app.sign_up("b@example.com").await;
    let mut socket_b = SocketClient::connect(&app.base, &user_b, &token_b).await;
    socket_b
        .wait_for(Duration::from_secs(10), |line| line["kind"] == "connect")
        .await;
    let mut socket_a = SocketClient::connect(&app.base, &user_a, &token_a).await;
    socket_a
        .wait_for(Duration::from_secs(10), |line| line["kind"] == "connect")
        .await;

    let (_, uploaded) = app
        .upload_to(
            &token_a,
            "/api/video-mp3/upload/videoA",
            &audio("sample-01-welcome.mp3"),
            Some("A's talk"),
        )
        .await;
    let path_a = uploaded["data"]["mp3Path"].as_str().unwrap().to_owned();
    let (_, started) = app
        .post_json(
            "/api/transcription/start",
            &json!({ "files": [{ "id": "fa", "mp3Path": path_a, "title": "A's talk" }] }),
            Some(&token_a),
        )
        .await;
    let job_a = started["data"]["jobId"].as_str().unwrap().to_owned();
    let done = app
        .wait_for_job(&token_a, &job_a, Duration::from_secs(120))
        .await;
    let transcript_a = done["files"][0]["transcriptPath"]
        .as_str()
        .unwrap()
        .to_owned();
    socket_a
        .wait_for(Duration::from_secs(10), |line| {
            line["name"] == "libraryUpdate"
        })
        .await;

    // Listing: B sees none of A's uploads or items.
    assert_eq!(
        app.get("/api/video-mp3/manual-uploads", Some(&token_b))
            .await
            .1["data"]["videos"],
        json!([])
    );
    assert_eq!(
        app.get("/api/video-mp3/status?videoIds=videoA", Some(&token_b))
            .await
            .1["data"]["videoA"]["hasMp3"],
        false
    );
    assert_eq!(
        app.get("/api/library/transcripts", Some(&token_b)).await.1["meta"]["total"],
        0
    );

    // Reading A's files by path.
    for path in [&path_a, &transcript_a] {
        let response = app
            .http
            .get(app.url("/api/files"))
            .query(&[("path", path.as_str())])
            .bearer_auth(&token_b)
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), 404, "{path}");
    }
    for traversal in [
        format!("../{user_a}/{path_a}"),
        format!("/users/{user_a}/{path_a}"),
        "uploads/../../etc/passwd".to_owned(),
    ] {
        let response = app
            .http
            .get(app.url("/api/files"))
            .query(&[("path", traversal.as_str())])
            .bearer_auth(&token_b)
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), 400, "{traversal}");
    }

    // Starting a job on A's audio, and touching A's job and file.
    let (status, body) = app
        .post_json(
            "/api/transcription/start",
            &json!({ "files": [{ "id": "steal", "mp3Path": path_a, "title": "x" }] }),
            Some(&token_b),
        )
        .await;
    assert_eq!(status, 404, "{body}");
    for action in ["retry", "cancel"] {
        let (status, body) = app
            .post_json(
                &format!("/api/transcription/{action}"),
                &json!({ "fileId": "fa", "jobId": job_a }),
                Some(&token_b),
            )
            .await;
        assert_eq!(status, 404, "{action}: {body}");
    }
    for path in [
        format!("/api/transcription/history/{job_a}"),
        format!("/api/transcription/jobs/{job_a}"),
    ] {
        assert_eq!(app.get(&path, Some(&token_b)).await.0, 404, "{path}");
    }

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

    // Events: B's socket heard nothing of A's job.
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

    // A's data is intact.
    assert_eq!(
        app.get(&format!("/api/transcription/jobs/{job_a}"), Some(&token_a))
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
