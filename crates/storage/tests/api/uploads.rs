//! MP3 uploads that are accepted: where they go, what is reported, de-duplication.

use crate::helpers::{audio, metadata, published_sha256, spawn_app, upload_parts};

#[tokio::test]
async fn an_uploaded_mp3_is_stored_under_its_owner_and_reported_for_its_video() {
    let app = spawn_app().await;
    let file = audio("sample-01-welcome.mp3");

    let stored = app
        .upload("alice", metadata("vid-welcome", "  Welcome  "), &file)
        .await
        .expect("a real MP3 is accepted");

    assert_eq!(stored.video_id, "vid-welcome");
    assert_eq!(stored.title, "Welcome", "the title is trimmed");
    assert_eq!(stored.size, file.len() as u64);
    assert_eq!(
        stored.content_sha256,
        published_sha256("sample-01-welcome.mp3")
    );
    assert!(!stored.deduplicated, "the first copy is not a duplicate");
    assert!(
        stored.mp3_path.starts_with("uploads/") && stored.mp3_path.ends_with(".mp3"),
        "a client path is relative and opaque: {}",
        stored.mp3_path
    );
    assert!(
        !stored.mp3_path.contains("alice"),
        "the owner is not part of the client path: {}",
        stored.mp3_path
    );

    // On disk the object lives under its owner, byte for byte, and nothing else is there.
    let on_disk = app.blob_file_of("alice", &stored.mp3_path);
    assert_eq!(std::fs::read(&on_disk).expect("the blob exists"), file);
    assert_eq!(app.blob_files().len(), 1, "{:?}", app.blob_files());

    let statuses = app.mp3_status("alice", &["vid-welcome", "vid-other"]).await;
    let status = &statuses["vid-welcome"];
    assert!(status.has_mp3);
    assert_eq!(
        status.mp3_file_path.as_deref(),
        Some(stored.mp3_path.as_str())
    );
    assert!(!statuses["vid-other"].has_mp3);
    assert_eq!(statuses["vid-other"].mp3_file_path, None);

    // The owner reads it back; nobody else sees it.
    assert_eq!(app.download("alice", &stored.mp3_path).await.unwrap(), file);
    let stat = app.stat("alice", &stored.mp3_path).await.unwrap();
    assert_eq!(stat.size, file.len() as u64);
    assert_eq!(stat.content_type, "audio/mpeg");
    assert!(!app.mp3_status("bob", &["vid-welcome"]).await["vid-welcome"].has_mp3);
}

#[tokio::test]
async fn mp3s_are_accepted_whatever_their_layout_and_chunking() {
    let app = spawn_app().await;
    // A tagged VBR file split into small chunks (its ID3 tag spans many of them), a mono CBR
    // file in one chunk, and a file cut mid-frame that still decodes.
    for (n, (name, chunk_bytes)) in [
        ("sample-03-meeting.mp3", 333),
        ("sample-02-subscribe.mp3", 1 << 20),
        ("truncated-partial.mp3", 4096),
    ]
    .into_iter()
    .enumerate()
    {
        let file = audio(name);
        let stored = app
            .upload_parts(
                "alice",
                upload_parts(metadata(&format!("vid-{n}"), name), &file, chunk_bytes),
            )
            .await
            .unwrap_or_else(|status| panic!("{name} is refused: {status:?}"));
        assert_eq!(stored.content_sha256, published_sha256(name), "{name}");
        assert_eq!(
            std::fs::read(app.blob_file_of("alice", &stored.mp3_path)).unwrap(),
            file,
            "{name} is stored byte for byte"
        );
    }
    assert_eq!(app.blob_files().len(), 3, "{:?}", app.blob_files());
}

#[tokio::test]
async fn the_same_audio_is_stored_once_per_user_even_for_another_video() {
    let app = spawn_app().await;
    let file = audio("sample-01-welcome.mp3");

    let first = app
        .upload("alice", metadata("vid-a", "First"), &file)
        .await
        .unwrap();
    let again = app
        .upload("alice", metadata("vid-a", "First again"), &file)
        .await
        .unwrap();
    let other_video = app
        .upload("alice", metadata("vid-b", "Second"), &file)
        .await
        .unwrap();

    assert!(!first.deduplicated);
    assert!(again.deduplicated, "the same audio twice is a duplicate");
    assert!(
        other_video.deduplicated,
        "the same audio under a new video id is a duplicate"
    );
    assert_eq!(again.mp3_path, first.mp3_path);
    assert_eq!(other_video.mp3_path, first.mp3_path);
    assert_eq!(other_video.video_id, "vid-b");
    assert_eq!(
        app.blob_files().len(),
        1,
        "one copy on disk: {:?}",
        app.blob_files()
    );
    let statuses = app.mp3_status("alice", &["vid-a", "vid-b"]).await;
    for id in ["vid-a", "vid-b"] {
        assert_eq!(
            statuses[id].mp3_file_path.as_deref(),
            Some(first.mp3_path.as_str()),
            "{id} points at the one stored copy"
        );
    }

    // Another user's identical audio is theirs, not a duplicate of alice's.
    let bobs = app
        .upload("bob", metadata("vid-a", "Bob's"), &file)
        .await
        .unwrap();
    assert!(!bobs.deduplicated);
    assert!(app.blob_file_of("bob", &bobs.mp3_path).is_file());
    assert_eq!(app.blob_files().len(), 2, "{:?}", app.blob_files());
}

#[tokio::test]
async fn manual_uploads_are_listed_newest_first_and_only_to_their_owner() {
    let app = spawn_app().await;
    let mut stored = Vec::new();
    for (name, title) in [
        ("sample-01-welcome.mp3", "oldest"),
        ("sample-02-subscribe.mp3", "middle"),
        ("sample-03-meeting.mp3", "newest"),
    ] {
        stored.push(
            app.upload("alice", metadata("", title), &audio(name))
                .await
                .unwrap(),
        );
    }
    // An upload for a YouTube video is not a manual upload.
    app.upload(
        "alice",
        metadata("vid-youtube", "from YouTube"),
        &audio("sample-04-noisy.mp3"),
    )
    .await
    .unwrap();
    // A manual upload without a title gets one.
    let untitled = app
        .upload("bob", metadata("", "   "), &audio("sample-01-welcome.mp3"))
        .await
        .unwrap();

    let listed = app.manual_uploads("alice").await;
    let titles: Vec<&str> = listed.iter().map(|upload| upload.title.as_str()).collect();
    assert_eq!(titles, ["newest", "middle", "oldest"]);
    for upload in &listed {
        let original = stored
            .iter()
            .find(|stored| stored.title == upload.title)
            .unwrap();
        assert!(
            upload.youtube_video_id.starts_with("manual-"),
            "{}",
            upload.youtube_video_id
        );
        assert_eq!(upload.youtube_video_id, original.video_id);
        assert_eq!(upload.mp3_file_path, original.mp3_path);
        assert_eq!(upload.size, original.size);
        chrono::DateTime::parse_from_rfc3339(&upload.uploaded_at).expect("RFC 3339 time");
    }
    let stamps: Vec<_> = listed
        .iter()
        .map(|upload| chrono::DateTime::parse_from_rfc3339(&upload.uploaded_at).unwrap())
        .collect();
    assert!(
        stamps.windows(2).all(|pair| pair[0] >= pair[1]),
        "{stamps:?}"
    );

    let bobs = app.manual_uploads("bob").await;
    assert_eq!(bobs.len(), 1);
    assert_eq!(bobs[0].title, "Untitled");
    assert_eq!(untitled.title, "Untitled");
    assert!(app.manual_uploads("carol").await.is_empty());
}
