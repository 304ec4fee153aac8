//! A cancel stops a running transcription: at once through the stop order on the
//! worker-control topic, and, should that order be lost, through the answer to the worker's
//! next report. Either way the worker says nothing more about the file and takes the next.

use std::time::Duration;

use scribevault_bus::contract::Event;
use scribevault_bus::{EventBus as _, EventEnvelope, Topic, WorkerControl};
use scribevault_transcription_worker::FakeWhisper;

use crate::helpers::{Setup, TestApp, USER, audio, spawn_app_with, status_of};

/// A worker whose whisper runs until it is stopped.
async fn busy_worker(stop_orders: bool) -> TestApp {
    spawn_app_with(Setup {
        stop_orders,
        ..Setup::with(FakeWhisper::saying("unheard").until_stopped())
    })
    .await
}

/// Starts a file and waits until whisper is transcribing it (a stop before then ends the run
/// before whisper is called).
async fn transcribing(app: &mut TestApp, file_id: &str) -> String {
    let before = app.whisper.calls().begun;
    let job = app
        .start(file_id, audio("sample-01-welcome.mp3"), "markdown")
        .await;
    app.whisper_until("hears the file", |calls| calls.begun > before)
        .await;
    job
}

#[tokio::test]
async fn a_cancel_stops_the_running_transcription_and_the_worker_takes_the_next_file() {
    let mut app = busy_worker(true).await;
    let job = transcribing(&mut app, "first").await;

    let cancelled = app.cancel(&job, "first").await;
    assert_eq!(
        cancelled.error_message.as_deref(),
        Some("Cancelled by user")
    );
    app.whisper_until("stops", |calls| calls.stopped == 1).await;

    // Its one slot is free again: the next file starts.
    let next = transcribing(&mut app, "second").await;
    assert_eq!(app.whisper.calls().files, 2);
    // Nothing the stopped run did afterwards overwrote the cancel.
    let first = app.file(&job, "first").await;
    assert_eq!(status_of(&first), "error");
    assert_eq!(first.error_message.as_deref(), Some("Cancelled by user"));
    assert_eq!(status_of(&app.file(&next, "second").await), "transcribing");
    app.cancel(&next, "second").await;
    app.whisper_until("stops again", |calls| calls.stopped == 2)
        .await;
}

#[tokio::test]
async fn a_stop_order_alone_stops_the_run_although_its_reports_are_still_welcome() {
    let mut app = busy_worker(true).await;
    let job = transcribing(&mut app, "first").await;

    // The order as the service sends it, without the cancel behind it: only the order can
    // stop this run, since the service still answers its reports with "go on".
    let order = WorkerControl::StopTranscription {
        job_id: job.clone(),
        file_id: "first".to_owned(),
        claim_token: None,
    };
    app.bus
        .publish_on(
            Topic::WorkerControl,
            &EventEnvelope::for_control(&order, USER, None),
        )
        .await
        .unwrap();
    app.whisper_until("stops", |calls| calls.stopped == 1).await;
    // The worker said nothing about it: the file is still the (now silent) worker's.
    assert_eq!(status_of(&app.file(&job, "first").await), "transcribing");
}

#[tokio::test]
async fn without_its_stop_order_a_cancel_reaches_the_run_as_the_answer_to_a_report() {
    let mut app = busy_worker(false).await;
    let job = transcribing(&mut app, "first").await;

    app.cancel(&job, "first").await;
    // Reports go out at least every half second.
    app.whisper_until("stops", |calls| calls.stopped == 1).await;
    // No error of the worker's own follows the cancel's.
    let Event::TranscriptionError(cancel) = next_final_word(&mut app).await else {
        panic!("the cancel is announced");
    };
    assert_eq!(cancel.error_message.as_deref(), Some("Cancelled by user"));
    let more = tokio::time::timeout(Duration::from_secs(1), next_final_word(&mut app)).await;
    assert!(more.is_err(), "{more:?}");
}

async fn next_final_word(app: &mut TestApp) -> Event {
    app.progress_until_done().await.1
}
