//! A file's life after intake, played as a worker would: claim, report, complete or fail; and
//! as a user would: cancel and retry.

use crate::helpers::{StatusName as _, spawn_app};

#[tokio::test]
async fn a_claimed_file_is_held_by_one_worker_and_completes_into_the_vault_queue() {
    let mut app = spawn_app().await;
    let started = app.start("alice", &["a"]).await;
    let job = started.job_id.clone();
    let claim = app.claim("alice", &job, "a").await;
    assert!(claim.claimed);
    assert_eq!(claim.file.as_ref().unwrap().mp3_path, "uploads/a.mp3");
    let second = app.claim("alice", &job, "a").await;
    assert_eq!((second.claimed, second.reason.as_str()), (false, "busy"));
    let claimed_event = app.next_event("transcriptionProgress").await;
    assert_eq!(claimed_event.data["status"], "transcribing");

    assert!(!app.report("alice", &job, "a", claim.claim_token, 40).await);
    let progress = app.next_event("transcriptionProgress").await;
    assert_eq!(
        (progress.user_id.as_str(), &progress.data["progress"]),
        ("alice", &40.into())
    );
    assert!(
        app.report("alice", &job, "a", claim.claim_token + 1, 50)
            .await,
        "a report with a stale token is told to stop"
    );

    app.complete(
        "alice",
        &job,
        "a",
        claim.claim_token,
        "# Title of a\n\nHello",
    )
    .await;
    let done = app.file_state("alice", &job, "a").await;
    assert_eq!(
        (done.status_name().as_str(), done.progress),
        ("completed", 100)
    );
    assert_eq!(
        done.markdown_path.as_deref(),
        Some(format!("transcripts/{job}/a.md").as_str())
    );
    let ingest = app.next_ingest().await;
    assert_eq!(
        (
            ingest.user_id.as_str(),
            ingest.title.as_str(),
            ingest.content.as_str(),
            ingest.source_type.as_str()
        ),
        ("alice", "Title of a", "# Title of a\n\nHello", "AUDIO")
    );
    assert_eq!(ingest.duration_seconds, Some(3.5));
    let complete = app.next_event("transcriptionComplete").await;
    assert_eq!(complete.data["processingTime"], 1234);
    assert_eq!(
        app.job("alice", &job).await.unwrap().status_name(),
        "finished"
    );
    let finished = app.claim("alice", &job, "a").await;
    assert_eq!(
        (finished.claimed, finished.reason.as_str()),
        (false, "finished")
    );
}

#[tokio::test]
async fn a_file_for_its_caller_only_completes_without_a_vault_item() {
    let mut app = spawn_app().await;
    let private = app.start_skipping_vault("alice", &["a"]).await;
    let claim = app.claim("alice", &private.job_id, "a").await;
    app.complete("alice", &private.job_id, "a", claim.claim_token, "Private")
        .await;
    let done = app.file_state("alice", &private.job_id, "a").await;
    assert_eq!(done.status_name(), "completed");
    app.next_event("transcriptionComplete").await;

    // The next hand-off to the library is the ordinary file's: the first made none.
    let ordinary = app.start("alice", &["b"]).await;
    let claim = app.claim("alice", &ordinary.job_id, "b").await;
    app.complete("alice", &ordinary.job_id, "b", claim.claim_token, "Kept")
        .await;
    assert_eq!(app.next_ingest().await.content, "Kept");
}

#[tokio::test]
async fn a_cancelled_running_file_gets_a_stop_order_and_its_late_completion_is_ignored() {
    let mut app = spawn_app().await;
    let started = app.start("alice", &["a"]).await;
    let job = started.job_id.clone();
    let claim = app.claim("alice", &job, "a").await;

    let cancelled = app.cancel("alice", &job, "a").await.unwrap();
    assert_eq!(
        (
            cancelled.status_name().as_str(),
            cancelled.error_message.as_deref()
        ),
        ("error", Some("Cancelled by user"))
    );
    let order = app.next_order().await;
    assert_eq!(order.event_type, "stopTranscription");
    assert!(
        order.data.get("claimToken").is_none(),
        "a cancel stops whichever run holds the file"
    );
    assert_eq!(
        (&order.data["jobId"], &order.data["fileId"]),
        (&job.clone().into(), &"a".into())
    );
    let error = app.next_event("transcriptionError").await;
    assert_eq!(error.data["errorMessage"], "Cancelled by user");

    assert!(app.report("alice", &job, "a", claim.claim_token, 60).await);
    app.complete("alice", &job, "a", claim.claim_token, "too late")
        .await;
    assert_eq!(
        app.file_state("alice", &job, "a").await.status_name(),
        "error"
    );
    assert_eq!(
        app.cancel("alice", &job, "a").await.unwrap().status_name(),
        "error",
        "cancelling an errored file again is allowed"
    );

    let retried = app.retry("alice", &job, "a").await.unwrap();
    assert_eq!(
        (retried.status_name().as_str(), retried.error_message),
        ("retrying", None)
    );
    assert_eq!(app.next_work().await.file_id, "a", "the initial message");
    assert_eq!(app.next_work().await.file_id, "a", "the retry's message");
    let reclaimed = app.claim("alice", &job, "a").await;
    assert!(reclaimed.claimed);
    assert!(reclaimed.claim_token > claim.claim_token);
}

#[tokio::test]
async fn only_files_in_error_are_retried_and_finished_files_are_not_cancelled() {
    let mut app = spawn_app().await;
    let started = app.start("alice", &["a"]).await;
    let job = started.job_id.clone();
    let refused = app.retry("alice", &job, "a").await.unwrap_err();
    // Conflict, which the gateway answers with 409.
    assert_eq!(refused.code(), tonic::Code::AlreadyExists);
    assert!(
        refused
            .message()
            .contains("Only files in error can be retried; this one is pending"),
        "{}",
        refused.message()
    );
    let claim = app.claim("alice", &job, "a").await;
    app.complete("alice", &job, "a", claim.claim_token, "text")
        .await;
    let refused = app.cancel("alice", &job, "a").await.unwrap_err();
    assert!(
        refused.message().contains("The file is already completed"),
        "{}",
        refused.message()
    );
}

#[tokio::test]
async fn a_permanent_failure_is_failed_at_once_with_its_reason() {
    let mut app = spawn_app().await;
    let started = app.start("alice", &["a"]).await;
    let job = started.job_id.clone();
    let claim = app.claim("alice", &job, "a").await;
    app.fail("alice", &job, "a", claim.claim_token, true).await;
    let failed = app.file_state("alice", &job, "a").await;
    assert_eq!(
        (
            failed.status_name().as_str(),
            failed.retry_count,
            failed.error_message.as_deref()
        ),
        ("failed", 1, Some("The MP3 could not be read"))
    );
    let event = app.next_event("transcriptionError").await;
    assert_eq!(
        (&event.data["status"], &event.data["retryCount"]),
        (&"failed".into(), &1.into())
    );
}

#[tokio::test]
async fn a_file_started_to_replace_an_items_transcript_names_the_item_in_its_hand_off() {
    use scribevault_bus::contract::TranscriptSource;
    use scribevault_proto::transcription::v1 as pb;

    use crate::helpers::{MODEL, as_user, file};

    let mut app = spawn_app().await;
    app.upload("alice", "uploads/c.mp3").await;
    let started = app
        .client
        .start_transcription(as_user(
            "alice",
            pb::StartTranscriptionRequest {
                files: vec![pb::FileToTranscribe {
                    replaces_item: Some("item-7".into()),
                    ..file("c", "uploads/c.mp3")
                }],
                model: MODEL.to_owned(),
                output_format: "markdown".to_owned(),
                skip_vault: false,
                language: None,
            },
        ))
        .await
        .unwrap()
        .into_inner();
    let claim = app.claim("alice", &started.job_id, "c").await;
    app.complete(
        "alice",
        &started.job_id,
        "c",
        claim.claim_token,
        "Whisper's words",
    )
    .await;
    let ingest = app.next_ingest().await;
    assert_eq!(ingest.replaces_item.as_deref(), Some("item-7"));
    assert_eq!(ingest.transcript_source, Some(TranscriptSource::Whisper));
    assert_eq!(ingest.content, "Whisper's words");

    // An ordinary file makes a new item, Whisper's.
    let ordinary = app.start("alice", &["d"]).await;
    let claim = app.claim("alice", &ordinary.job_id, "d").await;
    app.complete("alice", &ordinary.job_id, "d", claim.claim_token, "New")
        .await;
    let ingest = app.next_ingest().await;
    assert_eq!(ingest.replaces_item, None);
    assert_eq!(ingest.transcript_source, Some(TranscriptSource::Whisper));
}
