//! Claim → progress → complete: the path every file should take.

use std::time::Duration;

use scribevault_blob::{BlobStore as _, collect_body, owned_key};
use scribevault_bus::contract::{Event, TranscriptSegment};
use scribevault_transcription_worker::FakeWhisper;

use crate::helpers::{Setup, USER, audio, spawn_app, spawn_app_with, status_of};

#[tokio::test]
async fn a_queued_file_is_claimed_reported_on_and_completed_with_its_transcript() {
    let mut app = spawn_app_with(Setup::with(
        FakeWhisper::saying("Welcome to the show.").taking(Duration::from_millis(1500)),
    ))
    .await;
    let job = app
        .start("welcome", audio("sample-01-welcome.mp3"), "markdown")
        .await;

    let (progress, done) = app.progress_until_done().await;
    let Event::TranscriptionComplete(complete) = done else {
        panic!("{done:?}");
    };
    // The claim announces 0; the reports while whisper works move it on, never back, and
    // never to 100 before the transcript is there.
    assert_eq!(progress.first(), Some(&0), "{progress:?}");
    assert!(
        progress.iter().filter(|p| (1..100).contains(*p)).count() >= 2,
        "{progress:?}"
    );
    assert!(progress.is_sorted(), "{progress:?}");

    // The service has the transcript, and the library is handed the markdown.
    let file = app.file(&job, "welcome").await;
    assert_eq!(status_of(&file), "completed");
    assert_eq!(file.progress, 100);
    assert_eq!(
        complete.markdown_path,
        format!("transcripts/{job}/welcome.md")
    );
    let ingest = app.next_ingest().await;
    assert_eq!(ingest.user_id, USER);
    assert_eq!(
        ingest.content,
        "# Title of welcome\n\nWelcome to the show.\n"
    );
    let seconds = ingest.duration_seconds.unwrap();
    assert!((7.0..8.0).contains(&seconds), "{seconds}");

    // The segments are stored on the file's clock, where the library reads them.
    let segments = collect_body(
        app.blobs
            .get(&owned_key(USER, &ingest.segments_path.unwrap()).unwrap())
            .await
            .unwrap(),
    )
    .await
    .unwrap();
    let segments: Vec<TranscriptSegment> = serde_json::from_slice(&segments).unwrap();
    assert_eq!(segments.len(), 1);
    assert_eq!(segments[0].text, "Welcome to the show.");
    assert!((7000..8000).contains(&segments[0].end_ms), "{segments:?}");
    assert_eq!(app.whisper.calls().windows, 1);
}

#[tokio::test]
async fn a_txt_job_hands_the_library_the_plain_text() {
    let mut app = spawn_app().await;
    app.start("welcome", audio("sample-01-welcome.mp3"), "txt")
        .await;
    assert_eq!(app.next_ingest().await.content, "Welcome to the show.");
}
