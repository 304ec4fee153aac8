//! Socket.IO over HTTP long-polling (Engine.IO v4 `transport=polling`) with real clients: the
//! stock npm `socket.io-client` forced to `['polling']`, python-socketio with `['polling']`,
//! and clients that start on polling and upgrade to WebSocket. Each connects with
//! `{userId, token}`, receives an event the platform publishes for its user (and not for
//! anyone else), and is refused with another user's token.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde_json::{Value, json};

use crate::helpers::{SocketClient, TestApp, audio};
use crate::pipeline::spawn_pipeline_app;

/// What the server answers a CONNECT with another user's token.
const NOT_YOURS: &str = "The token does not belong to this user";

/// The npm client the SPA uses, with `transports` set to `transports`.
fn node_client(app: &TestApp, user: &str, token: &str, transports: &str) -> SocketClient {
    let script = scribevault_test_support::workspace_root()
        .join("crates/scribevault/tests/support/socket-client.cjs");
    let mut command = tokio::process::Command::new("node");
    command
        .arg(script)
        .args([app.base.as_str(), user, token, ""])
        .env("SOCKET_IO_TRANSPORTS", transports);
    SocketClient::from_command(command)
}

/// python-socketio, with `transports` set to `transports`.
fn python_client(app: &TestApp, user: &str, token: &str, transports: &str) -> SocketClient {
    let script = scribevault_test_support::workspace_root()
        .join("crates/scribevault/tests/support/socket_listener.py");
    let mut command = tokio::process::Command::new("python3");
    command
        .arg(script)
        .args([app.base.as_str(), user, token, transports]);
    SocketClient::from_command(command)
}

/// Whether node and the frontend's `socket.io-client` are installed (a failure under CI).
fn node_installed(test_name: &str) -> bool {
    let client =
        scribevault_test_support::workspace_root().join("frontend/node_modules/socket.io-client");
    let found = std::process::Command::new("node")
        .arg("-e")
        .arg(format!("require({:?})", client.display().to_string()))
        .output()
        .is_ok_and(|output| output.status.success());
    scribevault_test_support::required_tool(
        found,
        "node with the frontend's socket.io-client (`cd frontend && npm ci`)",
        test_name,
    )
}

/// Whether python-socketio with its polling and WebSocket clients is installed (a failure
/// under CI).
fn python_installed(test_name: &str) -> bool {
    let found = std::process::Command::new("python3")
        .args(["-c", "import socketio, requests, websocket"])
        .output()
        .is_ok_and(|output| output.status.success());
    scribevault_test_support::required_tool(
        found,
        "python-socketio[client] (`scripts/install-test-tools.sh`)",
        test_name,
    )
}

async fn connected(client: &mut SocketClient) -> Value {
    let line = client
        .wait_for(Duration::from_secs(15), |line| {
            line["kind"] == "connect" || line["kind"] == "connect_error"
        })
        .await;
    assert_eq!(line["kind"], "connect", "{line}");
    line
}

async fn refused(client: &mut SocketClient) -> Value {
    let line = client
        .wait_for(Duration::from_secs(15), |line| {
            line["kind"] == "connect_error" || line["kind"] == "connect"
        })
        .await;
    assert_eq!(line["kind"], "connect_error", "{line}");
    line
}

/// Emits `testMessage` with an acknowledgement and waits for both the echo and the ack.
async fn round_trip(client: &mut SocketClient, message: &str) {
    client
        .emit("testMessage", json!({ "message": message }), true)
        .await;
    client
        .seen_or_wait_for(Duration::from_secs(10), |line| {
            line["kind"] == "event"
                && line["name"] == "testMessage"
                && line["data"]["message"] == message
        })
        .await;
    let ack = client
        .seen_or_wait_for(Duration::from_secs(10), |line| line["kind"] == "ack")
        .await;
    assert_eq!(ack["data"]["received"], true, "{ack}");
}

/// Has the platform publish an event for the owner of `token`: a file scheduled for a window
/// hours away is cancelled, and the transcription service announces `transcriptionError`
/// over the bus (no audio is transcribed). Returns the file id the event names.
async fn publish_an_event_for(app: &TestApp, token: &str, file_id: &str) -> String {
    let (status, uploaded) = app
        .upload(token, &audio("sample-01-welcome.mp3"), Some(file_id))
        .await;
    assert_eq!(status, 200, "{uploaded}");
    let hour = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_secs()
        / 3600
        % 24;
    let (status, scheduled) = app
        .post_json(
            "/api/transcription/schedule",
            &json!({
                "files": [{ "id": file_id, "mp3Path": uploaded["data"]["mp3Path"], "title": file_id }],
                "startTime": format!("{:02}:00", (hour + 2) % 24),
                "endTime": format!("{:02}:00", (hour + 3) % 24),
                "timezone": "UTC",
            }),
            Some(token),
        )
        .await;
    assert_eq!(status, 200, "{scheduled}");
    let job = scheduled["data"]["jobId"].as_str().unwrap();
    let (status, cancelled) = app
        .post_json(
            "/api/transcription/cancel",
            &json!({ "jobId": job, "fileId": file_id }),
            Some(token),
        )
        .await;
    assert_eq!(status, 200, "{cancelled}");
    file_id.to_owned()
}

async fn receives_event_for(client: &mut SocketClient, file_id: &str) {
    let event = client
        .seen_or_wait_for(Duration::from_secs(20), |line| {
            line["kind"] == "event"
                && line["name"] == "transcriptionError"
                && line["data"]["fileId"] == file_id
        })
        .await;
    assert_eq!(
        event["data"]["errorMessage"], "Cancelled by user",
        "{event}"
    );
}

#[tokio::test]
async fn realtime_node_client_over_polling_gets_its_users_events_and_is_refused_other_tokens() {
    let test_name = "realtime_node_client_over_polling";
    if !node_installed(test_name) {
        return;
    }
    let (app, _models) = spawn_pipeline_app(&[]).await;
    let (token, user) = app.sign_up("poll-node@example.com").await;
    let (other_token, other) = app.sign_up("poll-node-other@example.com").await;

    let mut socket = node_client(&app, &user, &token, "polling");
    assert_eq!(connected(&mut socket).await["transport"], "polling");
    let mut bystander = node_client(&app, &other, &other_token, "polling");
    connected(&mut bystander).await;

    // Client events go up in POSTs; the echo and the ack come back in long-polls.
    round_trip(&mut socket, "over polling").await;

    // An event published for the user reaches its long-poll, and only its.
    let file_id = publish_an_event_for(&app, &token, "poll-node-file").await;
    receives_event_for(&mut socket, &file_id).await;
    round_trip(&mut bystander, "still here").await;
    assert!(
        bystander.events("transcriptionError").is_empty(),
        "another user's event leaked: {:?}",
        bystander.seen
    );
    assert!(
        !socket.seen.iter().any(|line| line["kind"] == "upgrade"),
        "['polling'] never upgrades: {:?}",
        socket.seen
    );

    // Another user's token, or none, is refused with CONNECT_ERROR.
    let mut intruder = node_client(&app, &user, &other_token, "polling");
    assert_eq!(refused(&mut intruder).await["message"], NOT_YOURS);
    let mut anonymous = node_client(&app, &user, "", "polling");
    refused(&mut anonymous).await;
}

#[tokio::test]
async fn realtime_python_client_over_polling_gets_its_users_events_and_is_refused_other_tokens() {
    let test_name = "realtime_python_client_over_polling";
    if !python_installed(test_name) {
        return;
    }
    let (app, _models) = spawn_pipeline_app(&[]).await;
    let (token, user) = app.sign_up("poll-python@example.com").await;
    let (other_token, other) = app.sign_up("poll-python-other@example.com").await;

    let mut socket = python_client(&app, &user, &token, "polling");
    assert_eq!(connected(&mut socket).await["transport"], "polling");
    let mut bystander = python_client(&app, &other, &other_token, "polling");
    connected(&mut bystander).await;

    round_trip(&mut socket, "from python over polling").await;

    let file_id = publish_an_event_for(&app, &token, "poll-python-file").await;
    receives_event_for(&mut socket, &file_id).await;
    round_trip(&mut bystander, "still here").await;
    assert!(
        bystander.events("transcriptionError").is_empty(),
        "another user's event leaked: {:?}",
        bystander.seen
    );

    let mut intruder = python_client(&app, &user, &other_token, "polling");
    assert_eq!(refused(&mut intruder).await["message"], NOT_YOURS);
}

#[tokio::test]
async fn realtime_polling_clients_upgrade_to_websocket_and_keep_receiving_events() {
    let test_name = "realtime_polling_clients_upgrade_to_websocket";
    if !node_installed(test_name) {
        return;
    }
    let (app, _models) = spawn_pipeline_app(&[]).await;
    let (token, user) = app.sign_up("upgrade@example.com").await;

    // socket.io-client's default transports: polling first, then the upgrade.
    let mut socket = node_client(&app, &user, &token, "polling,websocket");
    connected(&mut socket).await;
    socket
        .seen_or_wait_for(Duration::from_secs(15), |line| {
            line["kind"] == "upgrade" && line["transport"] == "websocket"
        })
        .await;
    round_trip(&mut socket, "after the upgrade").await;
    let file_id = publish_an_event_for(&app, &token, "upgrade-file").await;
    receives_event_for(&mut socket, &file_id).await;
    assert!(
        !socket
            .seen
            .iter()
            .any(|line| line["kind"] == "disconnect" || line["kind"] == "connect_error"),
        "the upgrade kept the connection: {:?}",
        socket.seen
    );

    // python-socketio upgrades during its handshake.
    if python_installed(test_name) {
        let mut python = python_client(&app, &user, &token, "polling,websocket");
        assert_eq!(connected(&mut python).await["transport"], "websocket");
        let file_id = publish_an_event_for(&app, &token, "upgrade-python-file").await;
        receives_event_for(&mut python, &file_id).await;
        receives_event_for(&mut socket, &file_id).await;
    }
}

#[tokio::test]
async fn realtime_upgrade_follows_the_engine_io_protocol_packet_by_packet() {
    let test_name = "realtime_upgrade_follows_the_engine_io_protocol";
    if !node_installed(test_name) {
        return;
    }
    let app = TestApp::spawn().await;
    let (token, user) = app.sign_up("raw-upgrade@example.com").await;
    let script = scribevault_test_support::workspace_root()
        .join("crates/scribevault/tests/support/engine-io-upgrade.cjs");
    let run = tokio::process::Command::new("node")
        .arg(script)
        .args([app.base.as_str(), &user, &token])
        .output();
    let output = tokio::time::timeout(Duration::from_secs(30), run)
        .await
        .expect("the protocol checks finish")
        .expect("node runs");
    assert!(
        output.status.success(),
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
}
