//! The review's G2: only a session's refresh cookie mints access tokens, never an access token;
//! the cookie is swapped on every use and a spent one ends its session; sessions end by an
//! absolute lifetime; a password change leaves nothing of the old session working.

use std::time::Duration;

use serde_json::json;

use super::{
    BrowserSession, PASSWORD, browser_sign_in, execute_sql, post_for_cookie, refresh_with,
};
use crate::helpers::TestApp;

const PROTECTED: &str = "/api/library/transcripts";

async fn works(app: &TestApp, session: &BrowserSession) -> bool {
    app.get(PROTECTED, Some(&session.token)).await.0 == 200
}

#[tokio::test]
async fn a_copied_expired_access_token_mints_nothing_and_the_cookie_renews_once() {
    let app = TestApp::spawn_all_with(&[("SCRIBEVAULT_TOKEN_TTL_SECONDS", "5")]).await;
    app.sign_up("ada@example.org").await;
    let laptop = browser_sign_in(&app, "ada@example.org", PASSWORD).await;
    // Past its 5 s and the 5 s leeway for clock skew.
    tokio::time::sleep(Duration::from_secs(11)).await;
    assert_eq!(
        app.get(PROTECTED, Some(&laptop.token)).await.0,
        401,
        "expired"
    );

    // The expired token, as a thief would copy it from a log or a HAR file: refused.
    let (status, body, _) = refresh_with(&app, None, Some(&laptop.token)).await;
    assert_eq!(
        status, 401,
        "an access token is no refresh credential: {body}"
    );

    // The cookie renews, and is swapped for a new one.
    let (status, body, renewed) = refresh_with(&app, Some(&laptop.refresh), None).await;
    assert_eq!(status, 200, "{body}");
    let renewed = renewed.unwrap();
    assert_ne!(renewed.refresh, laptop.refresh, "rotated on use");
    assert!(works(&app, &renewed).await);

    // Spent, and presented again at once: a second tab of the same browser racing the first.
    // Nothing is minted, the browser's (new) cookie is left alone, and the session goes on.
    let (status, body, cookie) = refresh_with(&app, Some(&laptop.refresh), None).await;
    assert_eq!(status, 409, "{body}");
    assert!(cookie.is_none(), "the newer cookie stays in the browser");
    assert!(works(&app, &renewed).await);

    // Presented later (a copy of the cookie): refused, and the session ends, so neither the
    // copy nor what the owner got from it works any more.
    execute_sql(
        &app,
        "UPDATE auth_sessions SET rotated_at = '2020-01-01T00:00:00+00:00'",
    )
    .await;
    let (status, body, _) = refresh_with(&app, Some(&laptop.refresh), None).await;
    assert_eq!(status, 401, "{body}");
    assert!(!works(&app, &renewed).await, "the reuse ended the session");
    let (status, _, _) = refresh_with(&app, Some(&renewed.refresh), None).await;
    assert_eq!(status, 401);

    // A made-up credential for nobody's session is a plain 401 too.
    let (status, _, _) = refresh_with(&app, Some("not-a-session.not-a-secret"), None).await;
    assert_eq!(status, 401);
}

#[tokio::test]
async fn the_refresh_cookie_is_http_only_strict_scoped_and_secure_behind_tls() {
    let app = TestApp::spawn_all_with(&[("SCRIBEVAULT_TRUSTED_PROXIES", "127.0.0.1/32")]).await;
    app.sign_up("ada@example.org").await;
    let sign_in = |proto: &'static str| {
        let request = app
            .http
            .post(app.url("/api/auth/login"))
            .header("X-Forwarded-Proto", proto)
            .json(&json!({ "email": "ada@example.org", "password": PASSWORD }));
        post_for_cookie(request)
    };
    let (status, body, cookie) = sign_in("http").await;
    assert_eq!(status, 200, "{body}");
    let (_, header) = cookie.unwrap();
    for attribute in [
        "HttpOnly",
        "SameSite=Strict",
        "Path=/api/auth/refresh",
        "Max-Age=",
    ] {
        assert!(header.contains(attribute), "{attribute} in {header}");
    }
    assert!(!header.contains("Secure"), "plain http: {header}");
    assert!(
        !body
            .to_string()
            .contains(header.split(['=', ';']).nth(1).unwrap()),
        "the body never carries the refresh secret"
    );
    let (_, _, cookie) = sign_in("https").await;
    assert!(cookie.unwrap().1.contains("Secure"), "behind a TLS proxy");
}

#[tokio::test]
async fn parallel_renewals_with_one_cookie_mint_one_token_and_keep_the_session() {
    let app = TestApp::spawn().await;
    app.sign_up("ada@example.org").await;
    let session = browser_sign_in(&app, "ada@example.org", PASSWORD).await;
    let attempts = (0..8).map(|_| refresh_with(&app, Some(&session.refresh), None));
    let answers = futures::future::join_all(attempts).await;
    let statuses: Vec<u16> = answers.iter().map(|answer| answer.0).collect();
    let minted = statuses.iter().filter(|status| **status == 200).count();
    assert_eq!(minted, 1, "one secret, one renewal: {statuses:?}");
    assert!(
        statuses.iter().all(|status| [200, 409].contains(status)),
        "the others are told another tab renewed, and the session lives: {statuses:?}"
    );
    let winner = answers
        .into_iter()
        .find_map(|(status, _, renewed)| (status == 200).then_some(renewed))
        .flatten()
        .unwrap();
    assert!(works(&app, &winner).await);
}

#[tokio::test]
async fn a_password_change_starts_a_new_session_and_ends_every_other() {
    let app = TestApp::spawn().await;
    app.sign_up("ada@example.org").await;
    let laptop = browser_sign_in(&app, "ada@example.org", PASSWORD).await;
    let thief = browser_sign_in(&app, "ada@example.org", PASSWORD).await;
    let request = app
        .http
        .post(app.url("/api/auth/password"))
        .bearer_auth(&laptop.token)
        .json(&json!({ "currentPassword": PASSWORD, "newPassword": "a new password" }));
    let (status, body, cookie) = post_for_cookie(request).await;
    assert_eq!(status, 200, "{body}");
    let fresh = BrowserSession {
        token: body["data"]["token"].as_str().unwrap().to_owned(),
        refresh: cookie.expect("a new refresh cookie").0,
    };
    assert!(works(&app, &fresh).await);
    for old in [&laptop, &thief] {
        assert!(!works(&app, old).await, "the old session's token is dead");
        let (status, _, _) = refresh_with(&app, Some(&old.refresh), Some(&old.token)).await;
        assert_eq!(status, 401, "and mints nothing");
    }
    let (status, _, renewed) = refresh_with(&app, Some(&fresh.refresh), None).await;
    assert_eq!(status, 200);
    assert!(works(&app, &renewed.unwrap()).await);
}

#[tokio::test]
async fn a_session_ends_at_its_absolute_lifetime_however_often_it_renews() {
    let app = TestApp::spawn_all_with(&[
        ("SCRIBEVAULT_TOKEN_TTL_SECONDS", "5"),
        ("SCRIBEVAULT_SESSION_LIFETIME_SECONDS", "15"),
    ])
    .await;
    app.sign_up("ada@example.org").await;
    // Measured from before the sign-in, so a slow machine cannot make the renewals miss the
    // lifetime nor the last attempt come too early.
    let signed_in = std::time::Instant::now();
    let mut session = browser_sign_in(&app, "ada@example.org", PASSWORD).await;
    for _ in 0..2 {
        tokio::time::sleep(Duration::from_secs(1)).await;
        let (status, body, renewed) = refresh_with(&app, Some(&session.refresh), None).await;
        assert_eq!(status, 200, "{body}");
        session = renewed.unwrap();
    }
    assert!(
        signed_in.elapsed() < Duration::from_secs(15),
        "the renewals came within the lifetime"
    );
    tokio::time::sleep(Duration::from_secs(16).saturating_sub(signed_in.elapsed())).await;
    let request = app.http.post(app.url("/api/auth/refresh")).header(
        reqwest::header::COOKIE,
        format!("scribevault_refresh={}", session.refresh),
    );
    let (status, _, cookie) = post_for_cookie(request).await;
    assert_eq!(status, 401, "past the absolute lifetime");
    assert_eq!(
        cookie.unwrap().0,
        "",
        "and the browser is told to drop the cookie"
    );
    assert!(!works(&app, &session).await);
}
