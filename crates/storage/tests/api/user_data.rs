//! What an administrator needs to see and delete an account: the caller's storage usage, and
//! the deletion of everything storage keeps of the caller (`GetStorageUsage`,
//! `DeleteUserData`; the gateway calls both on behalf of the account shown or deleted).

use scribevault_blob::{BlobStore as _, LocalBlobStore, body_from_bytes, owned_key};
use scribevault_proto::storage::v1 as pb;
use tonic::Code;

use crate::helpers::{TestApp, as_user, audio, metadata, spawn_app, spawn_app_on_postgres};

async fn usage(app: &TestApp, user: &str) -> u64 {
    app.client
        .clone()
        .get_storage_usage(as_user(user, pb::GetStorageUsageRequest {}))
        .await
        .expect("GetStorageUsage")
        .into_inner()
        .used_bytes
}

async fn delete_user_data(app: &TestApp, user: &str) -> pb::DeleteUserDataResponse {
    app.client
        .clone()
        .delete_user_data(as_user(user, pb::DeleteUserDataRequest {}))
        .await
        .expect("DeleteUserData")
        .into_inner()
}

async fn set_policy(app: &TestApp, user: &str, cleanup_after_days: Option<u32>) {
    app.client
        .clone()
        .set_storage_policy(as_user(
            user,
            pb::SetStoragePolicyRequest {
                max_bytes: 10 << 30,
                cleanup_after_days,
            },
        ))
        .await
        .expect("SetStoragePolicy");
}

#[tokio::test]
async fn usage_counts_the_callers_audio_once() {
    let app = spawn_app().await;
    assert_eq!(usage(&app, "alice").await, 0, "nothing stored yet");
    let first = audio("sample-01-welcome.mp3");
    let second = audio("sample-02-subscribe.mp3");
    app.upload("alice", metadata("v1", "One"), &first)
        .await
        .unwrap();
    assert_eq!(usage(&app, "alice").await, first.len() as u64);
    // The same audio again is stored once, so it counts once.
    app.upload("alice", metadata("v1-again", "One again"), &first)
        .await
        .unwrap();
    app.upload("alice", metadata("", "Manual"), &second)
        .await
        .unwrap();
    let alice = (first.len() + second.len()) as u64;
    assert_eq!(usage(&app, "alice").await, alice);
    // Another user's audio is theirs alone.
    app.upload("bob", metadata("v1", "One"), &second)
        .await
        .unwrap();
    assert_eq!(usage(&app, "bob").await, second.len() as u64);
    assert_eq!(usage(&app, "alice").await, alice);
    // The same figure SetStoragePolicy answers.
    let from_policy = app
        .client
        .clone()
        .set_storage_policy(as_user(
            "alice",
            pb::SetStoragePolicyRequest {
                max_bytes: 10 << 30,
                cleanup_after_days: None,
            },
        ))
        .await
        .unwrap()
        .into_inner()
        .used_bytes;
    assert_eq!(from_policy, alice);
}

#[tokio::test]
async fn usage_and_deletion_need_a_caller() {
    let app = spawn_app().await;
    let refused = app
        .client
        .clone()
        .get_storage_usage(pb::GetStorageUsageRequest {})
        .await
        .unwrap_err();
    assert_eq!(refused.code(), Code::Unauthenticated, "{refused:?}");
    let refused = app
        .client
        .clone()
        .delete_user_data(pb::DeleteUserDataRequest {})
        .await
        .unwrap_err();
    assert_eq!(refused.code(), Code::Unauthenticated, "{refused:?}");
}

#[tokio::test]
async fn deleting_a_users_data_leaves_nothing_of_theirs_on_sqlite() {
    deletion_removes_the_caller_only(spawn_app().await).await;
}

#[tokio::test]
async fn deleting_a_users_data_leaves_nothing_of_theirs_on_postgresql() {
    let Some(app) = spawn_app_on_postgres("storage_delete_user_data_on_postgresql").await else {
        return;
    };
    deletion_removes_the_caller_only(app).await;
}

async fn deletion_removes_the_caller_only(app: TestApp) {
    let first = audio("sample-01-welcome.mp3");
    let second = audio("sample-02-subscribe.mp3");
    // Bob's data: a video's MP3, a manual upload, a policy.
    let bob_video = app
        .upload("bob", metadata("v1", "One"), &first)
        .await
        .unwrap();
    let bob_manual = app
        .upload("bob", metadata("", "Manual"), &second)
        .await
        .unwrap();
    set_policy(&app, "bob", Some(30)).await;
    let bob_usage = usage(&app, "bob").await;
    let only_bob = app.db.table_counts().await.unwrap();
    let bob_files = app.blob_files();

    // Alice's: the same audio as Bob's (stored for her, apart from his), registered twice,
    // a manual upload, a policy.
    app.upload("alice", metadata("v1", "One"), &first)
        .await
        .unwrap();
    app.upload("alice", metadata("v2", "One again"), &first)
        .await
        .unwrap();
    let alice_manual = app
        .upload("alice", metadata("", "Manual"), &second)
        .await
        .unwrap();
    set_policy(&app, "alice", None).await;
    let with_alice = app.db.table_counts().await.unwrap();
    // Every table holds some of Alice's rows, so the comparison below covers every table.
    for (table, count) in &with_alice {
        assert!(
            *count > only_bob[table],
            "{table} holds none of alice's rows: the test would not see it kept"
        );
    }
    let alice_rows: i64 = with_alice
        .iter()
        .map(|(table, count)| count - only_bob[table])
        .sum();

    let deleted = delete_user_data(&app, "alice").await;
    assert_eq!(deleted.rows_deleted, u64::try_from(alice_rows).unwrap());
    assert_eq!(deleted.blobs_deleted, 2, "her two stored MP3s");

    // Every table is back to Bob's rows alone; on disk, only Bob's files, and no folder of
    // Alice's uploads.
    assert_eq!(app.db.table_counts().await.unwrap(), only_bob);
    assert_eq!(app.blob_files(), bob_files);
    assert!(
        !app.blob_dir.path().join("users/alice/uploads").exists(),
        "her uploads folder is gone"
    );

    // Alice finds nothing of hers.
    assert_eq!(usage(&app, "alice").await, 0);
    let statuses = app.mp3_status("alice", &["v1", "v2"]).await;
    assert!(!statuses["v1"].has_mp3 && !statuses["v2"].has_mp3);
    assert!(app.manual_uploads("alice").await.is_empty());
    let gone = app
        .download("alice", &alice_manual.mp3_path)
        .await
        .unwrap_err();
    assert_eq!(gone.code(), Code::NotFound);

    // Bob keeps everything.
    assert_eq!(usage(&app, "bob").await, bob_usage);
    assert!(app.mp3_status("bob", &["v1"]).await["v1"].has_mp3);
    assert_eq!(app.manual_uploads("bob").await.len(), 1);
    assert_eq!(
        app.download("bob", &bob_video.mp3_path).await.unwrap(),
        first
    );
    assert_eq!(
        app.download("bob", &bob_manual.mp3_path).await.unwrap(),
        second
    );

    // A second call finds nothing and succeeds.
    let again = delete_user_data(&app, "alice").await;
    assert_eq!((again.rows_deleted, again.blobs_deleted), (0, 0));
    assert_eq!(app.db.table_counts().await.unwrap(), only_bob);

    // Alice can start over (with the default policy).
    app.upload("alice", metadata("v1", "One"), &first)
        .await
        .unwrap();
    assert_eq!(usage(&app, "alice").await, first.len() as u64);
}

#[tokio::test]
async fn converted_files_count_against_the_quota_and_a_conversion_past_it_is_refused() {
    let app = spawn_app().await;
    let first = audio("sample-01-welcome.mp3");
    app.upload("alice", metadata("v1", "One"), &first)
        .await
        .unwrap();
    // What the conversion service keeps of a PDF: its original and its markdown.
    let converted = LocalBlobStore::new(app.blob_dir.path()).unwrap();
    for (path, size) in [
        ("converted/pdfs/a.pdf", 300_000),
        ("converted/pdfs/a.md", 2_000),
    ] {
        converted
            .put(
                &owned_key("alice", path).unwrap(),
                body_from_bytes(vec![b'x'; size]),
            )
            .await
            .unwrap();
    }
    assert_eq!(usage(&app, "alice").await, first.len() as u64 + 302_000);
    assert_eq!(
        usage(&app, "bob").await,
        0,
        "another user's files are theirs"
    );

    // A quota just above what is kept: room for 1,000 bytes more, not 10,000.
    let used = first.len() as u64 + 302_000;
    app.client
        .clone()
        .set_storage_policy(as_user(
            "alice",
            pb::SetStoragePolicyRequest {
                max_bytes: used + 1_000,
                cleanup_after_days: None,
            },
        ))
        .await
        .unwrap();
    let room = |bytes| {
        let mut client = app.client.clone();
        async move {
            client
                .check_storage_room(as_user("alice", pb::CheckStorageRoomRequest { bytes }))
                .await
        }
    };
    let left = room(500).await.unwrap().into_inner().room_bytes;
    assert_eq!(left, 500, "1,000 bytes were free before these 500");
    let refused = room(10_000).await.unwrap_err();
    assert_eq!(refused.code(), Code::ResourceExhausted, "{refused:?}");
    assert_eq!(
        scribevault_core::ErrorCode::of_status(&refused).http_status(),
        507
    );
    // An MP3 upload now finds no room either: the converted files took it.
    let second = audio("sample-02-subscribe.mp3");
    assert!(
        app.upload("alice", metadata("v2", "Two"), &second)
            .await
            .is_err()
    );
}
