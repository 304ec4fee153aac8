//! Uploads that are refused: with which code, and without leaving anything behind.

use scribevault_storage::StorageConfig;
use tonic::Code;

use crate::helpers::{
    DEFAULT_MAX_UPLOAD_BYTES, audio, chunk_part, metadata, metadata_part, spawn_app,
    spawn_app_with, upload_parts,
};

/// What the SPA shows for a file that is not MP3 (docs/product-spec.md §5).
const NOT_MP3: &str = "Please select MP3 files only";

#[tokio::test]
async fn files_that_are_not_mp3_are_refused_and_leave_no_blob() {
    let app = spawn_app().await;
    let cases: Vec<(&str, Vec<u8>)> = vec![
        ("broken-empty.mp3", audio("broken-empty.mp3")),
        ("broken-not-audio.mp3", audio("broken-not-audio.mp3")),
        ("broken-truncated.mp3", audio("broken-truncated.mp3")),
        // Long enough to be judged while it streams, not only at its end.
        ("64 KiB of zeros", vec![0u8; 64 * 1024]),
        (
            "text longer than the sniffed prefix",
            "not audio at all\n".repeat(4096).into_bytes(),
        ),
    ];
    for (n, (name, file)) in cases.into_iter().enumerate() {
        let video_id = format!("vid-{n}");
        let refused = app
            .upload("alice", metadata(&video_id, name), &file)
            .await
            .expect_err(name);
        assert_eq!(refused.code(), Code::InvalidArgument, "{name}: {refused:?}");
        assert_eq!(refused.message(), NOT_MP3, "{name}");
        assert_eq!(
            app.blob_files(),
            Vec::<std::path::PathBuf>::new(),
            "{name} left a file behind"
        );
        assert!(
            !app.mp3_status("alice", &[&video_id]).await[&video_id].has_mp3,
            "{name} is not registered"
        );
    }
    assert!(app.manual_uploads("alice").await.is_empty());
}

#[tokio::test]
async fn an_upload_over_the_limit_is_refused_and_leaves_nothing() {
    let file = audio("sample-01-welcome.mp3");
    let app = spawn_app_with(StorageConfig {
        max_upload_bytes: file.len() as u64 - 1,
        cleanup_interval: std::time::Duration::from_secs(86_400),
        max_audio_seconds: 12 * 3600,
    })
    .await;

    let refused = app
        .upload("alice", metadata("vid-big", "Too big"), &file)
        .await
        .expect_err("one byte over the limit");

    // `StorageError::TooLarge` is PayloadTooLarge, which gRPC carries as OUT_OF_RANGE
    // (crates/core/src/error_code.rs) and the gateway turns back into 413.
    assert_eq!(refused.code(), Code::OutOfRange, "{refused:?}");
    assert!(
        refused.message().starts_with("File is too large"),
        "{}",
        refused.message()
    );
    assert!(app.blob_files().is_empty(), "{:?}", app.blob_files());
    assert!(!app.mp3_status("alice", &["vid-big"]).await["vid-big"].has_mp3);
}

#[tokio::test]
async fn audio_longer_than_the_limit_is_refused_and_leaves_nothing() {
    // long-01-bread plays 77 s; the limit is a minute.
    let file = audio("long-01-bread.mp3");
    let app = spawn_app_with(StorageConfig {
        max_upload_bytes: DEFAULT_MAX_UPLOAD_BYTES,
        cleanup_interval: std::time::Duration::from_secs(86_400),
        max_audio_seconds: 60,
    })
    .await;

    let refused = app
        .upload("alice", metadata("vid-long", "Too long"), &file)
        .await
        .expect_err("77 s of audio over a 60 s limit");
    assert_eq!(refused.code(), Code::OutOfRange, "{refused:?}");
    assert_eq!(
        refused.message(),
        "The audio is longer than the limit of 1 min"
    );
    assert!(app.blob_files().is_empty(), "{:?}", app.blob_files());
    assert!(!app.mp3_status("alice", &["vid-long"]).await["vid-long"].has_mp3);

    // Under the limit, the same file goes through, its length measured on the way.
    let app = spawn_app_with(StorageConfig {
        max_upload_bytes: DEFAULT_MAX_UPLOAD_BYTES,
        cleanup_interval: std::time::Duration::from_secs(86_400),
        max_audio_seconds: 78,
    })
    .await;
    app.upload("alice", metadata("vid-fits", "Fits"), &file)
        .await
        .expect("77 s fits in 78 s");
}

#[tokio::test]
async fn an_upload_of_exactly_the_limit_is_accepted() {
    let file = audio("sample-01-welcome.mp3");
    let app = spawn_app_with(StorageConfig {
        max_upload_bytes: file.len() as u64,
        cleanup_interval: std::time::Duration::from_secs(86_400),
        max_audio_seconds: 12 * 3600,
    })
    .await;

    let stored = app
        .upload("alice", metadata("vid-fits", "Fits"), &file)
        .await
        .expect("a file of exactly the limit fits");
    assert_eq!(stored.size, file.len() as u64);
}

#[tokio::test]
async fn an_upload_must_start_with_its_metadata() {
    let app = spawn_app().await;
    let file = audio("sample-01-welcome.mp3");

    // Chunks first.
    let mut parts: Vec<_> = file.chunks(16 * 1024).map(chunk_part).collect();
    parts.push(metadata_part(metadata("vid-late", "Late metadata")));
    let refused = app.upload_parts("alice", parts).await.unwrap_err();
    assert_eq!(refused.code(), Code::InvalidArgument, "{refused:?}");
    assert_eq!(refused.message(), "an upload starts with its metadata");

    // Nothing at all.
    let refused = app.upload_parts("alice", Vec::new()).await.unwrap_err();
    assert_eq!(refused.code(), Code::InvalidArgument, "{refused:?}");

    // Metadata again in the middle of the file.
    let mut parts = upload_parts(metadata("vid-twice", "Twice"), &file, 16 * 1024);
    parts.insert(3, metadata_part(metadata("vid-twice", "Twice")));
    let refused = app.upload_parts("alice", parts).await.unwrap_err();
    assert_eq!(refused.code(), Code::InvalidArgument, "{refused:?}");
    assert_eq!(refused.message(), "metadata may only come first");

    assert!(app.blob_files().is_empty(), "{:?}", app.blob_files());
    let statuses = app.mp3_status("alice", &["vid-late", "vid-twice"]).await;
    assert!(!statuses["vid-late"].has_mp3);
    assert!(!statuses["vid-twice"].has_mp3);
}

#[tokio::test]
async fn calls_without_a_caller_are_unauthenticated() {
    let app = spawn_app().await;
    let file = audio("sample-01-welcome.mp3");

    let refused = app
        .client
        .clone()
        .upload_mp3(tokio_stream::iter(upload_parts(
            metadata("vid-anon", "Anonymous"),
            &file,
            16 * 1024,
        )))
        .await
        .unwrap_err();
    assert_eq!(refused.code(), Code::Unauthenticated, "{refused:?}");

    let refused = app
        .client
        .clone()
        .list_manual_uploads(scribevault_proto::storage::v1::ListManualUploadsRequest {})
        .await
        .unwrap_err();
    assert_eq!(refused.code(), Code::Unauthenticated, "{refused:?}");
    assert!(app.blob_files().is_empty(), "{:?}", app.blob_files());
}
