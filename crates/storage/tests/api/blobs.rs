//! Reading stored objects: only one's own, only by the paths storage hands out.

use tonic::Code;
use tonic_health::pb::HealthCheckRequest;
use tonic_health::pb::health_check_response::ServingStatus;
use tonic_health::pb::health_client::HealthClient;

use crate::helpers::{audio, metadata, spawn_app};

#[tokio::test]
async fn another_users_path_is_not_found() {
    let app = spawn_app().await;
    let stored = app
        .upload(
            "alice",
            metadata("vid-1", "Alice's"),
            &audio("sample-01-welcome.mp3"),
        )
        .await
        .unwrap();
    // Alice reads it, so the path itself is fine.
    assert!(app.stat("alice", &stored.mp3_path).await.is_ok());

    let refused = app.download("bob", &stored.mp3_path).await.unwrap_err();
    assert_eq!(refused.code(), Code::NotFound, "{refused:?}");
    let refused = app.stat("bob", &stored.mp3_path).await.unwrap_err();
    assert_eq!(refused.code(), Code::NotFound, "{refused:?}");

    // A well-formed path nobody has is just as absent.
    let refused = app
        .stat("alice", "uploads/00000000000000000000000000000000.mp3")
        .await
        .unwrap_err();
    assert_eq!(refused.code(), Code::NotFound, "{refused:?}");
}

#[tokio::test]
async fn a_range_sends_only_its_bytes_and_only_to_the_owner() {
    let app = spawn_app().await;
    let mp3 = audio("sample-01-welcome.mp3");
    let stored = app
        .upload("alice", metadata("vid-1", "Alice's"), &mp3)
        .await
        .unwrap();
    let whole = app.download("alice", &stored.mp3_path).await.unwrap();
    let size = whole.len() as u64;
    let stat = app.stat("alice", &stored.mp3_path).await.unwrap();
    assert_eq!(stat.size, size);
    assert!(stat.modified_unix.is_some());

    let middle = app
        .download_range("alice", &stored.mp3_path, Some(100), Some(1000))
        .await
        .unwrap();
    assert_eq!(middle, whole[100..1100]);
    let tail = app
        .download_range("alice", &stored.mp3_path, Some(size - 7), None)
        .await
        .unwrap();
    assert_eq!(tail, whole[whole.len() - 7..]);
    // A length past the end is clamped to it.
    let clamped = app
        .download_range("alice", &stored.mp3_path, Some(size - 2), Some(50))
        .await
        .unwrap();
    assert_eq!(clamped, whole[whole.len() - 2..]);
    let head = app
        .download_range("alice", &stored.mp3_path, None, Some(3))
        .await
        .unwrap();
    assert_eq!(head, whole[..3]);

    let refused = app
        .download_range("alice", &stored.mp3_path, Some(size), Some(1))
        .await
        .unwrap_err();
    assert_eq!(refused.code(), Code::InvalidArgument, "{refused:?}");
    let refused = app
        .download_range("bob", &stored.mp3_path, Some(0), Some(10))
        .await
        .unwrap_err();
    assert_eq!(refused.code(), Code::NotFound, "{refused:?}");
}

#[tokio::test]
async fn paths_that_could_leave_the_owners_folder_are_invalid() {
    let app = spawn_app().await;
    // Bob has a file, so a path that reached it would succeed.
    let bobs = app
        .upload(
            "bob",
            metadata("vid-1", "Bob's"),
            &audio("sample-01-welcome.mp3"),
        )
        .await
        .unwrap();
    let reaching_bob = format!("uploads/../../bob/{}", bobs.mp3_path);
    let absolute = app
        .blob_file_of("bob", &bobs.mp3_path)
        .to_string_lossy()
        .into_owned();
    for path in [
        "../x",
        "/etc/passwd",
        reaching_bob.as_str(),
        absolute.as_str(),
        "users/bob/uploads/x.mp3",
        "",
    ] {
        let refused = app.download("alice", path).await.unwrap_err();
        assert_eq!(
            refused.code(),
            Code::InvalidArgument,
            "download {path:?}: {refused:?}"
        );
        let refused = app.stat("alice", path).await.unwrap_err();
        assert_eq!(
            refused.code(),
            Code::InvalidArgument,
            "stat {path:?}: {refused:?}"
        );
    }
}

#[tokio::test]
async fn the_server_reports_serving_and_stops_when_asked() {
    let app = spawn_app().await;
    let status = HealthClient::new(app.channel())
        .check(HealthCheckRequest {
            service: "scribevault.storage.v1.StorageService".to_owned(),
        })
        .await
        .expect("health answers")
        .into_inner()
        .status;
    assert_eq!(status, ServingStatus::Serving as i32);

    app.stop().await.expect("the server stops cleanly");
}
