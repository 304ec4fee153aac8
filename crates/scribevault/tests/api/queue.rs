//! Queue transparency (issue 24 §3) on the real binary: `GET /api/transcription/queue` answers
//! each member their own waiting and running files only, placed in the whole instance's queue;
//! the start answer carries the same fields; and the socket's `queueUpdate` follows a file that
//! real Whisper transcribes, after which the machine's speed counts as measured.

use std::time::Duration;

use chrono::{DateTime, Utc};
use serde_json::{Value, json};

use crate::helpers::{SocketClient, TestApp, audio};
use crate::pipeline::spawn_pipeline_app;

/// Uploads sample-01 as `title`; returns its path.
async fn upload(app: &TestApp, token: &str, title: &str) -> String {
    let (status, body) = app
        .upload(token, &audio("sample-01-welcome.mp3"), Some(title))
        .await;
    assert_eq!(status, 200, "{body}");
    body["data"]["mp3Path"].as_str().unwrap().to_owned()
}

/// Schedules `files` (`(id, title)`) of the caller in a window that closed an hour ago: they
/// wait for it, so the queue holds still while the test looks at it.
async fn schedule_closed(app: &TestApp, token: &str, files: &[(&str, &str)]) -> Value {
    let now = Utc::now();
    let hhmm = |at: DateTime<Utc>| at.format("%H:%M").to_string();
    let mut body = Vec::new();
    for (id, title) in files {
        let path = upload(app, token, title).await;
        body.push(json!({ "id": id, "mp3Path": path, "title": title }));
    }
    let (status, scheduled) = app
        .post_json(
            "/api/transcription/schedule",
            &json!({
                "files": body, "model": "small",
                "startTime": hhmm(now - chrono::Duration::hours(2)),
                "endTime": hhmm(now - chrono::Duration::hours(1)),
                "timezone": "UTC",
            }),
            Some(token),
        )
        .await;
    assert_eq!(status, 200, "{scheduled}");
    scheduled
}

async fn queue(app: &TestApp, token: &str) -> Value {
    let (status, body) = app.get("/api/transcription/queue", Some(token)).await;
    assert_eq!(status, 200, "{body}");
    body["data"].clone()
}

fn titles(queue: &Value) -> Vec<&str> {
    queue["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|file| file["title"].as_str().unwrap())
        .collect()
}

/// Every field of a queued file, with its type.
fn assert_queued_file_shape(file: &Value) {
    for key in [
        "fileId",
        "jobId",
        "title",
        "status",
        "estimatedStartAt",
        "estimatedEndAt",
    ] {
        assert!(file[key].is_string(), "{key} in {file}");
    }
    assert!(file["position"].is_u64(), "{file}");
    assert!(file["etaSeconds"].is_u64(), "{file}");
    assert!(file["waitsForWindow"].is_boolean(), "{file}");
    let start: DateTime<Utc> = file["estimatedStartAt"].as_str().unwrap().parse().unwrap();
    let end: DateTime<Utc> = file["estimatedEndAt"].as_str().unwrap().parse().unwrap();
    assert!(start <= end, "{file}");
}

#[tokio::test]
async fn each_member_sees_only_their_own_queued_files_placed_in_the_whole_queue() {
    let (app, _models) = spawn_pipeline_app(&[]).await;
    let (alice, _) = app.sign_up("alice@example.com").await;
    let (bob, _) = app.sign_up("bob@example.com").await;
    let scheduled = schedule_closed(&app, &alice, &[("a1", "Alice's lecture")]).await;
    schedule_closed(
        &app,
        &bob,
        &[("b1", "Bob's podcast"), ("b2", "Bob's interview")],
    )
    .await;

    // The schedule's answer already places the file, with the fields of the queue.
    let answered = &scheduled["data"]["files"][0];
    assert_eq!(answered["position"], 1, "{answered}");
    assert_eq!(answered["waitsForWindow"], true);
    assert!(answered["etaSeconds"].is_u64() && answered["estimatedEndAt"].is_string());

    let alice_queue = queue(&app, &alice).await;
    assert_eq!(titles(&alice_queue), ["Alice's lecture"]);
    let file = &alice_queue["files"][0];
    assert_queued_file_shape(file);
    assert_eq!(file["status"], "scheduled");
    assert_eq!(file["fileId"], "a1");
    assert_eq!(file["position"], 1);
    assert_eq!(file["waitsForWindow"], true);
    let opens: DateTime<Utc> = file["estimatedStartAt"].as_str().unwrap().parse().unwrap();
    assert!(opens > Utc::now() + chrono::Duration::hours(21), "{file}");
    let basis = &alice_queue["basis"];
    assert_eq!(basis["measuredFiles"], 0, "{basis}");
    assert_eq!(basis["workers"], 1, "{basis}");
    assert!(basis["realTimeFactor"].is_f64(), "{basis}");

    // Bob's files stand behind Alice's (she queued first) and he sees his only, never hers.
    let bob_queue = queue(&app, &bob).await;
    assert_eq!(titles(&bob_queue), ["Bob's podcast", "Bob's interview"]);
    let positions: Vec<u64> = bob_queue["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|file| file["position"].as_u64().unwrap())
        .collect();
    assert_eq!(positions, [2, 3]);
    assert!(!bob_queue.to_string().contains("Alice"), "{bob_queue}");
    assert!(!alice_queue.to_string().contains("Bob"), "{alice_queue}");

    let (status, _) = app.get("/api/transcription/queue", None).await;
    assert_eq!(status, 401);
}

#[tokio::test]
async fn a_transcribed_file_moves_through_the_queue_on_the_socket_and_teaches_the_speed() {
    let (app, _models) = spawn_pipeline_app(&[]).await;
    let (token, user) = app.sign_up("listener@example.com").await;
    let mut socket = SocketClient::connect(&app.base, &user, &token).await;
    socket
        .wait_for(Duration::from_secs(10), |line| line["kind"] == "connect")
        .await;
    let path = upload(&app, &token, "Welcome").await;
    let (status, started) = app
        .post_json(
            "/api/transcription/start",
            &json!({ "files": [{ "id": "f1", "mp3Path": path, "title": "Welcome" }], "model": "small" }),
            Some(&token),
        )
        .await;
    assert_eq!(status, 200, "{started}");
    let answered = &started["data"]["files"][0];
    for key in [
        "position",
        "etaSeconds",
        "estimatedStartAt",
        "estimatedEndAt",
    ] {
        assert!(answered.get(key).is_some(), "{key} in {answered}");
    }

    let queue_update = |predicate: fn(&Value) -> bool| {
        move |line: &Value| {
            line["kind"] == "event" && line["name"] == "queueUpdate" && predicate(&line["data"])
        }
    };
    let running = socket
        .wait_for(
            Duration::from_secs(60),
            queue_update(|data| data["files"][0]["position"] == 0),
        )
        .await;
    assert_queued_file_shape(&running["data"]["files"][0]);
    assert_eq!(running["data"]["files"][0]["status"], "transcribing");
    let done = socket
        .wait_for(
            Duration::from_secs(300),
            queue_update(|data| data["files"].as_array().is_some_and(Vec::is_empty)),
        )
        .await;
    assert_eq!(done["data"]["basis"]["measuredFiles"], 1, "{done}");
    let factor = done["data"]["basis"]["realTimeFactor"].as_f64().unwrap();
    assert!(factor > 0.0 && factor < 100.0, "{factor}");
    // Every queueUpdate came from a change of the queue (queued, started, done), not from the
    // progress reports in between.
    let updates = socket.events("queueUpdate").len();
    let progress = socket.events("transcriptionProgress").len();
    assert!(
        updates <= 3,
        "{updates} queueUpdates for {progress} progress events"
    );
    assert!(
        queue(&app, &token).await["files"]
            .as_array()
            .unwrap()
            .is_empty()
    );
}
