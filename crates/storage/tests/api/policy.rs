//! The user's quota and the clean-up of old MP3s (settings `storage.*`, handed over by the
//! gateway with `SetStoragePolicy`).

use chrono::{Duration, Utc};
use scribevault_proto::storage::v1 as pb;
use tonic::Code;

use crate::helpers::{TestApp, as_user, audio, metadata, spawn_app};

async fn set_policy(
    app: &TestApp,
    user: &str,
    max_bytes: u64,
    cleanup_after_days: Option<u32>,
) -> u64 {
    app.client
        .clone()
        .set_storage_policy(as_user(
            user,
            pb::SetStoragePolicyRequest {
                max_bytes,
                cleanup_after_days,
            },
        ))
        .await
        .unwrap()
        .into_inner()
        .used_bytes
}

fn error_code(status: &tonic::Status) -> &str {
    status
        .metadata()
        .get("x-scribevault-error-code")
        .and_then(|value| value.to_str().ok())
        .unwrap_or_default()
}

#[tokio::test]
async fn an_upload_past_the_quota_is_refused_naming_the_limit_and_the_usage() {
    let app = spawn_app().await;
    let first = audio("sample-01-welcome.mp3");
    let second = audio("sample-02-subscribe.mp3");
    // Room for the first file and half of the second.
    let quota = first.len() as u64 + second.len() as u64 / 2;
    assert_eq!(set_policy(&app, "alice", quota, None).await, 0);
    app.upload("alice", metadata("v1", "One"), &first)
        .await
        .unwrap();
    let refused = app
        .upload("alice", metadata("v2", "Two"), &second)
        .await
        .unwrap_err();
    assert_eq!(refused.code(), Code::ResourceExhausted, "{refused:?}");
    assert_eq!(error_code(&refused), "INSUFFICIENT_STORAGE");
    assert!(
        refused.message().starts_with("Storage limit reached: ")
            && refused.message().contains(" allowed, "),
        "{refused:?}"
    );
    // Nothing of the refused file was kept; the first one is still there.
    assert_eq!(app.blob_files().len(), 1, "{:?}", app.blob_files());
    assert!(!app.mp3_status("alice", &["v2"]).await["v2"].has_mp3);
    // Usage is what was kept; another user's quota is their own.
    assert_eq!(
        set_policy(&app, "alice", quota, None).await,
        first.len() as u64
    );
    app.upload("bob", metadata("v2", "Two"), &second)
        .await
        .unwrap();
}

#[tokio::test]
async fn a_full_quota_refuses_before_reading_and_a_raised_one_accepts() {
    let app = spawn_app().await;
    let file = audio("sample-01-welcome.mp3");
    set_policy(&app, "alice", file.len() as u64, None).await;
    app.upload("alice", metadata("v1", "One"), &file)
        .await
        .unwrap();
    let refused = app
        .upload(
            "alice",
            metadata("v2", "Again"),
            &audio("sample-02-subscribe.mp3"),
        )
        .await
        .unwrap_err();
    assert_eq!(error_code(&refused), "INSUFFICIENT_STORAGE");
    set_policy(&app, "alice", 10 * 1024 * 1024 * 1024, None).await;
    app.upload(
        "alice",
        metadata("v2", "Again"),
        &audio("sample-02-subscribe.mp3"),
    )
    .await
    .unwrap();
}

#[tokio::test]
async fn the_sweep_removes_only_old_mp3s_of_users_with_cleanup_on() {
    let app = spawn_app().await;
    let file = audio("sample-01-welcome.mp3");
    let alice = app
        .upload("alice", metadata("v1", "One"), &file)
        .await
        .unwrap();
    let bob = app
        .upload("bob", metadata("v1", "One"), &file)
        .await
        .unwrap();
    set_policy(&app, "alice", 10 << 30, Some(30)).await;
    set_policy(&app, "bob", 10 << 30, None).await;

    // 29 days on: nothing is old enough.
    assert_eq!(
        app.cleanup
            .run_at(Utc::now() + Duration::days(29))
            .await
            .unwrap(),
        0
    );
    assert!(app.mp3_status("alice", &["v1"]).await["v1"].has_mp3);

    // 31 days on: Alice's MP3 goes (registry and blob), Bob's stays (clean-up off).
    assert_eq!(
        app.cleanup
            .run_at(Utc::now() + Duration::days(31))
            .await
            .unwrap(),
        1
    );
    assert!(!app.mp3_status("alice", &["v1"]).await["v1"].has_mp3);
    assert!(!app.blob_file_of("alice", &alice.mp3_path).exists());
    assert!(app.mp3_status("bob", &["v1"]).await["v1"].has_mp3);
    assert!(app.blob_file_of("bob", &bob.mp3_path).exists());
    let gone = app.download("alice", &alice.mp3_path).await.unwrap_err();
    assert_eq!(gone.code(), Code::NotFound);
    // Her usage is back to zero.
    assert_eq!(set_policy(&app, "alice", 10 << 30, Some(30)).await, 0);
}

#[tokio::test]
async fn a_zero_quota_is_refused() {
    let app = spawn_app().await;
    let refused = app
        .client
        .clone()
        .set_storage_policy(as_user(
            "alice",
            pb::SetStoragePolicyRequest {
                max_bytes: 0,
                cleanup_after_days: None,
            },
        ))
        .await
        .unwrap_err();
    assert_eq!(refused.code(), Code::InvalidArgument);
}
