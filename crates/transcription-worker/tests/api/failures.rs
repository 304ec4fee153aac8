//! Files that cannot be transcribed fail for good at once; an attempt that failed for a
//! passing reason is tried again.

use std::time::Duration;

use scribevault_bus::contract::Event;
use scribevault_transcription_worker::FakeWhisper;

use crate::helpers::{Setup, TestApp, audio, spawn_app, spawn_app_with, status_of};

/// The status the file's failure left it in, and the failure's message.
async fn failure(app: &mut TestApp, job_id: &str, file_id: &str) -> (String, String) {
    let (_, done) = app.progress_until_done().await;
    let Event::TranscriptionError(error) = done else {
        panic!("a failure, not {done:?}");
    };
    let file = app.file(job_id, file_id).await;
    (status_of(&file), error.error_message.unwrap_or_default())
}

/// Long enough for the service to have queued a retry (200 ms back-off, 100 ms sweeps) and
/// the worker to have started it.
const A_RETRY_WOULD_HAVE_STARTED: Duration = Duration::from_secs(2);

#[tokio::test]
async fn undecodable_audio_fails_for_good_and_is_not_tried_again() {
    let mut app = spawn_app().await;
    let job = app
        .start("noise", audio("broken-not-audio.mp3"), "markdown")
        .await;

    let (status, message) = failure(&mut app, &job, "noise").await;
    assert_eq!(status, "failed");
    assert!(message.contains("could not be decoded"), "{message}");
    tokio::time::sleep(A_RETRY_WOULD_HAVE_STARTED).await;
    let file = app.file(&job, "noise").await;
    assert_eq!((status_of(&file).as_str(), file.retry_count), ("failed", 1));
    assert_eq!(app.whisper.calls().files, 1, "one attempt only");
    assert_eq!(app.whisper.calls().windows, 0);
}

#[tokio::test]
async fn audio_longer_than_the_limit_fails_for_good_before_whisper_hears_it() {
    let mut app = spawn_app_with(Setup {
        max_audio_seconds: 5,
        ..Setup::with(FakeWhisper::saying("too long"))
    })
    .await;
    let job = app
        .start("long", audio("sample-01-welcome.mp3"), "markdown")
        .await;

    let (status, message) = failure(&mut app, &job, "long").await;
    assert_eq!(status, "failed");
    assert!(message.contains("longer than the limit"), "{message}");
    tokio::time::sleep(A_RETRY_WOULD_HAVE_STARTED).await;
    assert_eq!(status_of(&app.file(&job, "long").await), "failed");
    assert_eq!(app.whisper.calls().files, 1, "one attempt only");
    assert_eq!(app.whisper.calls().windows, 0);
}

#[tokio::test]
async fn a_whisper_failure_is_tried_again_and_the_file_completes() {
    let mut app = spawn_app_with(Setup::with(
        FakeWhisper::saying("Second time lucky.").failing_first(1),
    ))
    .await;
    let job = app
        .start("welcome", audio("sample-01-welcome.mp3"), "txt")
        .await;

    let (status, message) = failure(&mut app, &job, "welcome").await;
    assert_eq!(status, "error", "a retry is planned");
    assert!(message.contains("the fake engine failed"), "{message}");
    let (_, done) = app.progress_until_done().await;
    assert!(matches!(done, Event::TranscriptionComplete(_)), "{done:?}");
    assert_eq!(app.next_ingest().await.content, "Second time lucky.");
    let file = app.file(&job, "welcome").await;
    assert_eq!(
        (status_of(&file).as_str(), file.retry_count),
        ("completed", 1)
    );
    assert_eq!(app.whisper.calls().files, 2);
}
