//! Sessions that end: sign-out, sign-out everywhere and a password change; open sockets closing
//! with their session or token; login limits an attacker behind the owner's proxy cannot turn
//! against the owner.

use std::time::Duration;

use serde_json::json;

use super::{PASSWORD, log_in, token_of};
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
    let laptop = session(()).await;
    let (status, renewed) = app
        .post_json("/api/auth/refresh", &json!({}), Some(&laptop))
        .await;
    assert_eq!(status, 200, "{renewed}");
    let renewed = token_of(&renewed);
    assert_eq!(app.get(protected, Some(&renewed)).await.0, 200);

    // Sign out ends this session only.
    let phone = session(()).await;
    let (status, _) = app
        .post_json("/api/auth/logout", &json!({}), Some(&laptop))
        .await;
    assert_eq!(status, 204);
    assert_eq!(app.get(protected, Some(&laptop)).await.0, 401);
    assert_eq!(app.get(protected, Some(&renewed)).await.0, 401);
    let (status, _) = app
        .post_json("/api/auth/refresh", &json!({}), Some(&laptop))
        .await;
    assert_eq!(status, 401, "an ended session cannot be renewed");
    let (status, _) = app.post_json("/api/auth/refresh", &json!({}), None).await;
    assert_eq!(status, 401);
    assert_eq!(app.get(protected, Some(&phone)).await.0, 200);

    // A password change ends every other session, keeps this one.
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
    let (token, user) = app.sign_up("ada@example.org").await;
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
    // ...while the session it belongs to renews it, and the renewed token connects.
    let (status, renewed) = app
        .post_json("/api/auth/refresh", &json!({}), Some(&token))
        .await;
    assert_eq!(
        status, 200,
        "an expired token of a live session renews: {renewed}"
    );
    let mut again = SocketClient::connect(&app.base, &user, &token_of(&renewed)).await;
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
