//! User settings through the REST API: merged over the spec's defaults, every field checked,
//! reset, and handed to the services that act on them, on SQLite and on PostgreSQL.

use reqwest::Method;
use serde_json::{Value, json};

use crate::helpers::TestApp;

/// A new user's settings: the spec's defaults.
fn default_settings() -> Value {
    json!({
        "theme": "system", "defaultView": "list", "transcriptsPerPage": 20, "autoDownload": false,
        "useCaptions": false,
        "notifications": {"downloadComplete": true, "scheduledSync": true, "errors": true},
        "privacy": {"allowAnalytics": true, "shareUsageData": false},
        "storage": {"maxStorageGB": 10, "autoCleanup": false, "cleanupAfterDays": 30},
        "transcriptionLanguage": "auto"
    })
}

/// Every field a change can get wrong, with the message that names it.
fn refused_changes() -> [(Value, &'static str); 7] {
    [
        (
            json!({"theme": "neon"}),
            "theme must be one of light, dark, system",
        ),
        (
            json!({"transcriptsPerPage": 30}),
            "transcriptsPerPage must be one of 10, 20, 50, 100",
        ),
        (
            json!({"storage": {"maxStorageGB": "ten"}}),
            "storage.maxStorageGB must be a whole number from 1 to 1000",
        ),
        (
            json!({"storage": {"cleanupAfterDays": 0}}),
            "storage.cleanupAfterDays must be a whole number from 1 to 365",
        ),
        (
            json!({"notifications": {"downloadComplete": "no"}}),
            "notifications.downloadComplete must be true or false",
        ),
        (json!({"telemetry": true}), "Unknown setting: telemetry"),
        (
            json!({"transcriptionLanguage": "german"}),
            "transcriptionLanguage must be auto or a Whisper language code such as en or de",
        ),
    ]
}

/// Each refused change answers 400 with its message.
async fn assert_each_bad_field_is_named(app: &TestApp, alice: &str) {
    for (patch, message) in refused_changes() {
        let (status, body) = app
            .send(
                Method::PATCH,
                "/api/user/settings",
                Some(alice),
                Some(&patch),
            )
            .await;
        assert_eq!(
            (status, body["error"]["message"].as_str()),
            (400, Some(message)),
            "{patch}"
        );
    }
}

/// A body that is not JSON is a 400, a caller without a token a 401.
async fn assert_a_malformed_body_and_no_token_are_refused(app: &TestApp, alice: &str) {
    let response = app
        .http
        .patch(app.url("/api/user/settings"))
        .bearer_auth(alice)
        .header("content-type", "application/json")
        .body("{\"theme\": ")
        .send()
        .await
        .unwrap();
    assert_eq!(response.status().as_u16(), 400);
    let (status, _) = app.get("/api/user/settings", None).await;
    assert_eq!(status, 401);
}

#[tokio::test]
async fn settings_merge_over_defaults_validate_every_field_and_reset() {
    let app = TestApp::spawn().await;
    let (alice, _) = app.sign_up("alice@example.com").await;
    let (bob, _) = app.sign_up("bob@example.com").await;
    let defaults = default_settings();
    let (status, body) = app.get("/api/user/settings", Some(&alice)).await;
    assert_eq!((status, &body["data"]), (200, &defaults));

    let mut changed = defaults.clone();
    changed["theme"] = json!("dark");
    changed["defaultView"] = json!("grid");
    changed["transcriptsPerPage"] = json!(50);
    changed["storage"]["autoCleanup"] = json!(true);
    changed["storage"]["cleanupAfterDays"] = json!(7);
    let (status, body) = app
        .send(
            Method::PATCH,
            "/api/user/settings",
            Some(&alice),
            Some(&changed),
        )
        .await;
    assert_eq!((status, &body["data"]), (200, &changed), "{body}");
    let (_, body) = app.get("/api/user/settings", Some(&alice)).await;
    assert_eq!(body["data"], changed);
    // Another user's settings are their own.
    let (_, body) = app.get("/api/user/settings", Some(&bob)).await;
    assert_eq!(body["data"], defaults);

    assert_each_bad_field_is_named(&app, &alice).await;
    // Nothing of a refused change was stored.
    let (_, body) = app.get("/api/user/settings", Some(&alice)).await;
    assert_eq!(body["data"], changed);
    assert_a_malformed_body_and_no_token_are_refused(&app, &alice).await;

    let (status, body) = app
        .post_json("/api/user/settings/reset", &json!({}), Some(&alice))
        .await;
    assert_eq!((status, &body["data"]), (200, &defaults));
    let (_, body) = app.get("/api/user/settings", Some(&alice)).await;
    assert_eq!(body["data"], defaults);
}

#[tokio::test]
async fn settings_and_the_quota_work_on_postgresql() {
    let Some(admin) = scribevault_test_support::real_server(
        scribevault_test_support::POSTGRES_URL_ENV,
        "settings_and_the_quota_work_on_postgresql",
    ) else {
        return;
    };
    let database = scribevault_db::TestDatabase::postgres(&admin)
        .await
        .expect("create a test database");
    let app = TestApp::spawn_all_with(&[("SCRIBEVAULT_DATABASE_URL", database.url.as_str())]).await;
    let (alice, _) = app.sign_up("alice@example.com").await;
    let patch = json!({"autoDownload": true, "storage": {"maxStorageGB": 1, "autoCleanup": true, "cleanupAfterDays": 3}});
    let (status, body) = app
        .send(
            Method::PATCH,
            "/api/user/settings",
            Some(&alice),
            Some(&patch),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["data"]["storage"]["maxStorageGB"], 1);
    let (_, body) = app.get("/api/user/settings", Some(&alice)).await;
    assert_eq!(body["data"]["autoDownload"], true);
    // An upload reads the user's usage and quota from storage's tables.
    let (status, body) = app
        .upload(
            &alice,
            &crate::helpers::audio("sample-01-welcome.mp3"),
            Some("Welcome"),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let (status, body) = app
        .post_json("/api/user/settings/reset", &json!({}), Some(&alice))
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["data"]["autoDownload"], false);
}
