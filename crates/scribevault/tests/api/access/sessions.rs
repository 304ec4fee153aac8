//! Sessions that end: sign-out, sign-out everywhere and a password change; open sockets closing
//! with their session or token; login limits an attacker behind the owner's proxy cannot turn
//! against the owner.

use std::time::Duration;

use serde_json::json;

use super::{PASSWORD, browser_sign_in, log_in, refresh_with, token_of};
use crate::helpers::{SocketClient, TestApp};

#[tokio::test]
async fn sessions_end_by_sign_out_sign_out_everywhere_and_a_password_change() {
    let app = TestApp::spawn().await;
    app.sign_up("ada@example.org").await;
    let session = |_: ()| async {
        let (status, body) = log_in(&app, "ada@example.org", PASSWORD).await;
        assert_eq!(status, 200, "{body}");
        token_of(&body)
    };
    let protected = "/api/library/transcripts";

    // Renewal gives a new token for the same session.
    let laptop_browser = browser_sign_in(&app, "ada@example.org", PASSWORD).await;
    let laptop = laptop_browser.token.clone();
    let (status, body, renewed) = refresh_with(&app, Some(&laptop_browser.refresh), None).await;
    assert_eq!(status, 200, "{body}");
    let renewed = renewed.unwrap();
    assert_eq!(app.get(protected, Some(&renewed.token)).await.0, 200);

    // Sign out ends this session only.
    let phone = session(()).await;
    let (status, _) = app
        .post_json("/api/auth/logout", &json!({}), Some(&laptop))
        .await;
    assert_eq!(status, 204);
    assert_eq!(app.get(protected, Some(&laptop)).await.0, 401);
    assert_eq!(app.get(protected, Some(&renewed.token)).await.0, 401);
    let (status, _, _) = refresh_with(&app, Some(&renewed.refresh), None).await;
    assert_eq!(status, 401, "an ended session cannot be renewed");
    let (status, _, _) = refresh_with(&app, None, None).await;
    assert_eq!(status, 401);
    assert_eq!(app.get(protected, Some(&phone)).await.0, 200);

    // A password change ends every session and starts a new one for the caller.
    let tablet = session(()).await;
    let (status, body) = app
        .post_json(
            "/api/auth/password",
            &json!({ "currentPassword": "not it at all", "newPassword": "a new password" }),
            Some(&tablet),
        )
        .await;
    assert_eq!(status, 400, "{body}");
    let (status, body) = app
        .post_json(
            "/api/auth/password",
            &json!({ "currentPassword": PASSWORD, "newPassword": "a new password" }),
            Some(&tablet),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(app.get(protected, Some(&phone)).await.0, 401);
    assert_eq!(app.get(protected, Some(&tablet)).await.0, 401);
    let tablet = token_of(&body);
    assert_eq!(app.get(protected, Some(&tablet)).await.0, 200);
    assert_eq!(log_in(&app, "ada@example.org", PASSWORD).await.0, 401);
    let (status, desk) = log_in(&app, "ada@example.org", "a new password").await;
    assert_eq!(status, 200);

    // Sign out everywhere ends all of them.
    let (status, _) = app
        .post_json("/api/auth/logout-all", &json!({}), Some(&tablet))
        .await;
    assert_eq!(status, 204);
    assert_eq!(app.get(protected, Some(&tablet)).await.0, 401);
    assert_eq!(app.get(protected, Some(&token_of(&desk))).await.0, 401);
}

#[tokio::test]
async fn an_open_socket_closes_when_its_session_ends() {
    let app = TestApp::spawn().await;
    let (token, user) = app.sign_up("ada@example.org").await;
    let mut socket = SocketClient::connect(&app.base, &user, &token).await;
    socket
        .wait_for(Duration::from_secs(10), |line| line["kind"] == "connect")
        .await;
    let (status, _) = app
        .post_json("/api/auth/logout", &json!({}), Some(&token))
        .await;
    assert_eq!(status, 204);
    socket
        .wait_for(Duration::from_secs(10), |line| line["kind"] == "disconnect")
        .await;
    // The client reconnects on its own, with the ended token: refused.
    socket
        .wait_for(Duration::from_secs(15), |line| {
            line["kind"] == "connect_error"
        })
        .await;
}

#[tokio::test]
async fn an_open_socket_closes_when_its_token_expires_and_a_renewed_token_reconnects() {
    let app = TestApp::spawn_all_with(&[("SCRIBEVAULT_TOKEN_TTL_SECONDS", "5")]).await;
    let (_, user) = app.sign_up("ada@example.org").await;
    let browser = browser_sign_in(&app, "ada@example.org", PASSWORD).await;
    let token = browser.token.clone();
    let mut socket = SocketClient::connect(&app.base, &user, &token).await;
    socket
        .wait_for(Duration::from_secs(10), |line| line["kind"] == "connect")
        .await;
    let closed = socket
        .wait_for(Duration::from_secs(15), |line| line["kind"] == "disconnect")
        .await;
    assert_eq!(closed["reason"], "transport close", "{closed}");
    // The same, expired token is refused on the client's own reconnect...
    socket
        .wait_for(Duration::from_secs(15), |line| {
            line["kind"] == "connect_error"
        })
        .await;
    // ...while the session's refresh cookie renews it, and the renewed token connects.
    let (status, body, renewed) = refresh_with(&app, Some(&browser.refresh), None).await;
    assert_eq!(status, 200, "a live session renews: {body}");
    let mut again = SocketClient::connect(&app.base, &user, &renewed.unwrap().token).await;
    again
        .wait_for(Duration::from_secs(10), |line| line["kind"] == "connect")
        .await;
}

#[tokio::test]
async fn an_attacker_behind_the_same_proxy_cannot_lock_the_owner_out() {
    let app = TestApp::spawn_all_with(&[
        ("SCRIBEVAULT_LOGIN_ATTEMPTS_PER_MINUTE", "3"),
        ("SCRIBEVAULT_TRUSTED_PROXIES", "127.0.0.1/32"),
    ])
    .await;
    app.sign_up("owner@example.org").await;
    let attempt = |from: &'static str, password: &'static str| {
        let request = app
            .http
            .post(app.url("/api/auth/login"))
            .header("X-Forwarded-For", from)
            .json(&json!({ "email": "owner@example.org", "password": password }));
        async move { request.send().await.unwrap().status().as_u16() }
    };
    for _ in 0..3 {
        assert_eq!(attempt("203.0.113.66", "guess guess").await, 401);
    }
    assert_eq!(
        attempt("203.0.113.66", PASSWORD).await,
        429,
        "the guessing pair waits, even with the right password"
    );
    assert_eq!(
        attempt("198.51.100.7", PASSWORD).await,
        200,
        "the owner, from their own address, signs in"
    );
    // A forged X-Forwarded-For from an untrusted peer is not believed: without the trusted
    // proxy the peer (127.0.0.1) is the client, so the limit follows it, not the header.
    let direct = TestApp::spawn_all_with(&[("SCRIBEVAULT_LOGIN_ATTEMPTS_PER_MINUTE", "3")]).await;
    direct.sign_up("owner@example.org").await;
    for forged in ["10.0.0.1", "10.0.0.2", "10.0.0.3"] {
        let status = direct
            .http
            .post(direct.url("/api/auth/login"))
            .header("X-Forwarded-For", forged)
            .json(&json!({ "email": "owner@example.org", "password": "guess guess" }))
            .send()
            .await
            .unwrap()
            .status()
            .as_u16();
        assert_eq!(status, 401);
    }
    let status = direct
        .http
        .post(direct.url("/api/auth/login"))
        .header("X-Forwarded-For", "10.0.0.4")
        .json(&json!({ "email": "owner@example.org", "password": PASSWORD }))
        .send()
        .await
        .unwrap()
        .status()
        .as_u16();
    assert_eq!(
        status, 429,
        "rotating a forged header does not reset the count"
    );
}

/// The review's G13: player and export links were checked for their signature and expiry
/// only, so they outlived sign-out-everywhere and a disabled account.
#[tokio::test]
async fn links_stop_when_their_owner_signs_out_everywhere_or_is_disabled() {
    use scribevault_proto::library::v1 as library_pb;
    let app = TestApp::spawn_all_with(&[("SCRIBEVAULT_SIGNUP", "open")]).await;
    let (admin, _) = app.sign_up("admin@example.org").await;
    let links_of = |token: String, user: String| {
        let app = &app;
        async move {
            let id = app
                .ingest_request(
                    &user,
                    library_pb::IngestTranscriptRequest {
                        source_ref: format!("upload:{user}"),
                        title: "Soil notes".into(),
                        source_type: library_pb::SourceType::Audio.into(),
                        content: "Cover crops protect the soil.".into(),
                        duration_seconds: Some(3.0),
                        audio_path: Some("uploads/soil.mp3".into()),
                        ..Default::default()
                    },
                )
                .await;
            let (status, export) = app
                .post_json(
                    &format!("/api/library/transcripts/{id}/export"),
                    &json!({ "format": "markdown" }),
                    Some(&token),
                )
                .await;
            assert_eq!(status, 200, "{export}");
            let (status, audio) = app
                .get(
                    &format!("/api/library/transcripts/{id}/audio-link"),
                    Some(&token),
                )
                .await;
            assert_eq!(status, 200, "{audio}");
            [
                export["data"]["downloadUrl"].as_str().unwrap().to_owned(),
                audio["data"]["url"].as_str().unwrap().to_owned(),
            ]
        }
    };
    // 403 is what a link that no longer works answers; the recording itself was never stored,
    // so a working player link gets as far as storage's 404.
    let status_of = |path: String| {
        let app = &app;
        async move { app.get(&path, None).await.0 }
    };

    let (ada, ada_id) = app.sign_up("ada@example.org").await;
    let [export, player] = links_of(ada.clone(), ada_id).await;
    assert_eq!(status_of(export.clone()).await, 200);
    assert_eq!(status_of(player.clone()).await, 404);
    // Signed in again elsewhere, then out everywhere: the links made before stop.
    let (status, _) = app
        .post_json("/api/auth/logout-all", &json!({}), Some(&ada))
        .await;
    assert_eq!(status, 204);
    assert_eq!(status_of(export).await, 403);
    assert_eq!(status_of(player).await, 403);
    // Links made after signing in again work: the cut-off is the sign-out, not the member
    // (links carry whole seconds; one made in the sign-out's second counts as before it).
    tokio::time::sleep(Duration::from_millis(1100)).await;
    let (status, body) = log_in(&app, "ada@example.org", PASSWORD).await;
    assert_eq!(status, 200, "{body}");
    let ada_id = body["data"]["user"]["id"].as_str().unwrap().to_owned();
    let [export, _] = links_of(token_of(&body), ada_id).await;
    assert_eq!(status_of(export).await, 200);

    // An admin disables a member: their links stop.
    let (bob, bob_id) = app.sign_up("bob@example.org").await;
    let [export, player] = links_of(bob, bob_id.clone()).await;
    assert_eq!(status_of(export.clone()).await, 200);
    let (status, body) = app
        .send(
            reqwest::Method::PATCH,
            &format!("/api/admin/users/{bob_id}"),
            Some(&admin),
            Some(&json!({ "disabled": true })),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(status_of(export).await, 403);
    assert_eq!(status_of(player).await, 403);
}
