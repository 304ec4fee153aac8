//! The sweeps: automatic retries after their back-off, scheduled windows, silent workers.

use std::time::Duration;

use chrono::{Timelike as _, Utc};
use scribevault_proto::transcription::v1 as pb;

use crate::helpers::{MODEL, StatusName as _, as_user, config, file, spawn_app_with};

#[tokio::test]
async fn a_failed_attempt_is_retried_after_its_back_off_until_retries_run_out() {
    let mut app = spawn_app_with(scribevault_transcription::TranscriptionConfig {
        max_retries: 2,
        retry_base_delay: Duration::ZERO,
        ..config()
    })
    .await;
    let started = app.start("alice", &["a"]).await;
    let job = started.job_id.clone();
    app.next_work().await;
    let claim = app.claim("alice", &job, "a").await;
    app.fail("alice", &job, "a", claim.claim_token, false).await;
    let error = app.next_event("transcriptionError").await;
    assert_eq!(
        (&error.data["status"], &error.data["retryCount"]),
        (&"error".into(), &1.into())
    );

    // The sweep finds the due retry: a retrying event and a new work message.
    let retrying = app.next_event("transcriptionProgress").await;
    assert_eq!(retrying.data["status"], "retrying");
    assert_eq!(app.next_work().await.file_id, "a");

    let claim = app.claim("alice", &job, "a").await;
    assert!(claim.claimed);
    app.fail("alice", &job, "a", claim.claim_token, false).await;
    let failed = app.file_state("alice", &job, "a").await;
    assert_eq!(
        (failed.status_name().as_str(), failed.retry_count),
        ("failed", 2)
    );
    assert!(
        !app.work_arrives_within(Duration::from_millis(500)).await,
        "no retry once retries run out"
    );
}

#[tokio::test]
async fn a_silent_workers_file_is_handed_to_another_worker() {
    let mut app = spawn_app_with(scribevault_transcription::TranscriptionConfig {
        stale_after: Duration::from_secs(1),
        ..config()
    })
    .await;
    let started = app.start("alice", &["a"]).await;
    let job = started.job_id.clone();
    app.next_work().await;
    let first = app.claim("alice", &job, "a").await;
    // The worker goes silent: no report. The sweep takes the file back and queues it again,
    // and orders the silent worker to stop should it come back.
    assert_eq!(app.next_work().await.file_id, "a");
    let order = app.next_order().await;
    assert_eq!(order.data["fileId"], "a");
    assert_eq!(
        order.data["claimToken"], first.claim_token,
        "only the silent claim is stopped, not the next one"
    );
    assert!(
        app.report("alice", &job, "a", first.claim_token, 30).await,
        "the silent worker's claim is void"
    );
    let second = app.claim("alice", &job, "a").await;
    assert!(second.claimed);
    assert!(second.claim_token > first.claim_token);
    assert!(!app.report("alice", &job, "a", second.claim_token, 30).await);
}

#[tokio::test]
async fn a_file_whose_worker_goes_silent_three_times_fails_for_good_and_is_not_queued_again() {
    let mut app = spawn_app_with(scribevault_transcription::TranscriptionConfig {
        stale_after: Duration::from_secs(1),
        max_take_backs: 3,
        ..config()
    })
    .await;
    let started = app.start("alice", &["a"]).await;
    let job = started.job_id.clone();
    app.next_work().await;
    // Every worker that claims the file dies (out of memory) and never reports again.
    let mut last_claim = app.claim("alice", &job, "a").await;
    for _ in 1..3 {
        assert_eq!(app.next_work().await.file_id, "a", "taken back and queued");
        last_claim = app.claim("alice", &job, "a").await;
        assert!(last_claim.claimed);
    }
    let error = app.next_event("transcriptionError").await;
    let message = "The worker stopped 3 times while transcribing this file (out of memory or a crash); it was not retried again.";
    assert_eq!(
        (
            &error.data["fileId"],
            &error.data["status"],
            &error.data["error"]
        ),
        (&"a".into(), &"failed".into(), &message.into())
    );
    let failed = app.file_state("alice", &job, "a").await;
    assert_eq!(
        (
            failed.status_name().as_str(),
            failed.error_message.as_deref()
        ),
        ("failed", Some(message))
    );
    assert!(
        !app.work_arrives_within(Duration::from_secs(3)).await,
        "a file given up is not queued again"
    );
    assert!(
        app.report("alice", &job, "a", last_claim.claim_token, 30)
            .await,
        "the last silent worker's claim is void"
    );
    // The user may still ask for another attempt, with a fresh count.
    app.retry("alice", &job, "a").await.unwrap();
    assert_eq!(app.next_work().await.file_id, "a");
}

fn hh_mm(hours_from_now: i64) -> String {
    let at = Utc::now() + chrono::Duration::hours(hours_from_now);
    format!("{:02}:{:02}", at.hour(), at.minute())
}

#[tokio::test]
async fn a_scheduled_job_waits_for_its_window_and_starts_when_it_is_open() {
    let mut app = spawn_app_with(config()).await;
    app.upload("alice", "uploads/a.mp3").await;
    let schedule = |start: String, end: String| {
        as_user(
            "alice",
            pb::ScheduleTranscriptionRequest {
                files: vec![file("a", "uploads/a.mp3")],
                model: MODEL.to_owned(),
                output_format: String::new(),
                start_time: start,
                end_time: end,
                timezone: "UTC".to_owned(),
                language: None,
            },
        )
    };
    let later = app
        .client
        .schedule_transcription(schedule(hh_mm(2), hh_mm(3)))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(later.files[0].status_name(), "scheduled");
    let refused = app.claim("alice", &later.job_id, "a").await;
    assert_eq!(
        (refused.claimed, refused.reason.as_str()),
        (false, "outside_window")
    );
    assert!(
        !app.work_arrives_within(Duration::from_millis(500)).await,
        "nothing is queued before the window opens"
    );
    assert_eq!(
        app.file_state("alice", &later.job_id, "a")
            .await
            .status_name(),
        "scheduled"
    );

    let now = app
        .client
        .schedule_transcription(schedule(hh_mm(-1), hh_mm(1)))
        .await
        .unwrap()
        .into_inner();
    let work = app.next_work().await;
    assert_eq!(
        work.job_id, now.job_id,
        "the open window's job is queued by the sweep"
    );
    assert_eq!(
        app.file_state("alice", &now.job_id, "a")
            .await
            .status_name(),
        "pending"
    );

    let bad = app
        .client
        .schedule_transcription(schedule("25:00".into(), "06:00".into()))
        .await
        .unwrap_err();
    assert_eq!(bad.code(), tonic::Code::InvalidArgument);
}

#[tokio::test]
async fn a_file_taken_over_by_claims_before_any_sweep_counts_its_take_backs_too() {
    // The sweep never runs in this test: only claims of a stale file (a duplicate message
    // reaching another worker) take it over.
    let mut app = spawn_app_with(scribevault_transcription::TranscriptionConfig {
        stale_after: Duration::from_millis(300),
        housekeeping_interval: Duration::from_secs(3600),
        max_take_backs: 3,
        ..config()
    })
    .await;
    let job = app.start("alice", &["a"]).await.job_id;
    app.next_work().await;
    let first = app.claim("alice", &job, "a").await;
    assert!(first.claimed);
    for _ in 0..2 {
        tokio::time::sleep(Duration::from_millis(400)).await;
        assert!(
            app.claim("alice", &job, "a").await.claimed,
            "a stale claim is taken over"
        );
    }
    tokio::time::sleep(Duration::from_millis(400)).await;
    let refused = app.claim("alice", &job, "a").await;
    assert!(!refused.claimed);
    let failed = app.file_state("alice", &job, "a").await;
    assert_eq!(failed.status_name(), "failed");
    assert!(
        failed
            .error_message
            .unwrap()
            .starts_with("The worker stopped 3 times"),
    );
}
