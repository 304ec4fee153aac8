//! What an administrator needs of one account (the gateway calls these on its behalf): how
//! many of its files still wait (`CountWaitingFiles`), and the deletion of everything
//! transcription keeps of it (`DeleteUserData`).

use std::time::Duration;

use chrono::{Timelike as _, Utc};
use scribevault_blob::{BlobStore as _, body_from_bytes, owned_key};
use scribevault_bus::contract::WorkerControl;
use scribevault_proto::transcription::v1 as pb;
use tonic::Code;

use crate::helpers::{
    MODEL, StatusName as _, TestApp, as_user, file, spawn_app, spawn_app_on_postgres,
};

async fn waiting(app: &mut TestApp, user: &str) -> u64 {
    app.client
        .count_waiting_files(as_user(user, pb::CountWaitingFilesRequest {}))
        .await
        .expect("CountWaitingFiles")
        .into_inner()
        .waiting
}

async fn delete_user_data(app: &mut TestApp, user: &str) -> pb::DeleteUserDataResponse {
    app.client
        .delete_user_data(as_user(user, pb::DeleteUserDataRequest {}))
        .await
        .expect("DeleteUserData")
        .into_inner()
}

/// A job of `user` over `ids` whose window opens in two hours: its files are `scheduled`.
async fn schedule_later(
    app: &mut TestApp,
    user: &str,
    ids: &[&str],
) -> pb::StartTranscriptionResponse {
    let hh_mm = |hours: i64| {
        let at = Utc::now() + chrono::Duration::hours(hours);
        format!("{:02}:{:02}", at.hour(), at.minute())
    };
    let mut files = Vec::new();
    for id in ids {
        let path = format!("uploads/{id}.mp3");
        app.upload(user, &path).await;
        files.push(file(id, &path));
    }
    let scheduled = app
        .client
        .schedule_transcription(as_user(
            user,
            pb::ScheduleTranscriptionRequest {
                files,
                model: MODEL.to_owned(),
                output_format: String::new(),
                start_time: hh_mm(2),
                end_time: hh_mm(3),
                timezone: "UTC".to_owned(),
                language: None,
            },
        ))
        .await
        .expect("ScheduleTranscription")
        .into_inner();
    assert!(
        scheduled
            .files
            .iter()
            .all(|f| f.status_name() == "scheduled")
    );
    scheduled
}

/// Stores what a worker stores for a completed file: its transcript, markdown and segments.
async fn store_transcript(app: &TestApp, user: &str, job_id: &str, file_id: &str) {
    for extension in ["txt", "md", "segments.json"] {
        let path = format!("transcripts/{job_id}/{file_id}.{extension}");
        app.blobs
            .put(&owned_key(user, &path).unwrap(), body_from_bytes("text"))
            .await
            .unwrap();
    }
}

/// Keys of every object under `users/<user>/`.
async fn objects_of(app: &TestApp, user: &str) -> Vec<String> {
    app.blobs
        .list(&format!("users/{user}/"))
        .await
        .unwrap()
        .into_iter()
        .map(|object| object.key)
        .collect()
}

/// A job as stored, without the queue estimates that its answer computes anew each time
/// (positions move up when another user's files leave; times follow the clock).
fn without_estimates(mut job: pb::TranscriptionJob) -> pb::TranscriptionJob {
    for file in &mut job.files {
        file.queue = None;
    }
    job
}

#[tokio::test]
async fn waiting_files_are_those_not_yet_finished() {
    let mut app = spawn_app().await;
    assert_eq!(waiting(&mut app, "alice").await, 0);
    let job = app.start("alice", &["a", "b", "c", "d"]).await.job_id;
    schedule_later(&mut app, "alice", &["s"]).await;
    app.start("bob", &["x"]).await;
    // Four pending, one scheduled; Bob's file is his.
    assert_eq!(waiting(&mut app, "alice").await, 5);
    assert_eq!(waiting(&mut app, "bob").await, 1);

    // Transcribing still waits for its transcript; completed does not.
    let a = app.claim("alice", &job, "a").await;
    assert_eq!(waiting(&mut app, "alice").await, 5);
    app.complete("alice", &job, "a", a.claim_token, "# a").await;
    assert_eq!(waiting(&mut app, "alice").await, 4);
    // Failed for good, and cancelled (an error), are finished.
    let b = app.claim("alice", &job, "b").await;
    app.fail("alice", &job, "b", b.claim_token, true).await;
    app.cancel("alice", &job, "c").await.unwrap();
    assert_eq!(waiting(&mut app, "alice").await, 2);
    // A retried file waits again.
    let retried = app.retry("alice", &job, "b").await.unwrap();
    assert_eq!(retried.status_name(), "retrying");
    assert_eq!(waiting(&mut app, "alice").await, 3);
    assert_eq!(waiting(&mut app, "bob").await, 1);
}

#[tokio::test]
async fn deleting_a_users_data_leaves_nothing_of_theirs_on_sqlite() {
    deletion_removes_the_caller_only(spawn_app().await).await;
}

#[tokio::test]
async fn deleting_a_users_data_leaves_nothing_of_theirs_on_postgresql() {
    let Some(app) = spawn_app_on_postgres("transcription_delete_user_data_on_postgresql").await
    else {
        return;
    };
    deletion_removes_the_caller_only(app).await;
}

/// Alice: her default language, a completed file with its transcript, one a worker holds,
/// one queued, and a scheduled job. Answers her job, the scheduled one, and the held file's
/// claim.
async fn alice_in_every_table(
    app: &mut TestApp,
) -> (
    String,
    pb::StartTranscriptionResponse,
    pb::ClaimTranscriptionFileResponse,
) {
    app.client
        .set_transcription_preferences(as_user(
            "alice",
            pb::SetTranscriptionPreferencesRequest {
                language: "de".to_owned(),
            },
        ))
        .await
        .expect("SetTranscriptionPreferences");
    let job = app
        .start("alice", &["done", "running", "queued"])
        .await
        .job_id;
    let scheduled = schedule_later(app, "alice", &["later"]).await;
    let done = app.claim("alice", &job, "done").await;
    app.complete("alice", &job, "done", done.claim_token, "# done")
        .await;
    store_transcript(app, "alice", &job, "done").await;
    let running = app.claim("alice", &job, "running").await;
    assert!(running.claimed);
    assert_eq!(waiting(app, "alice").await, 3);
    (job, scheduled, running)
}

/// The worker holding a file of hers is told to stop it, whatever run it is on.
async fn the_worker_holding_her_file_is_told_to_stop(app: &mut TestApp, job: &str) {
    let order = app.next_order().await;
    assert_eq!(order.user_id, "alice");
    assert_eq!(
        order.control(),
        Some(WorkerControl::StopTranscription {
            job_id: job.to_owned(),
            file_id: "running".to_owned(),
            claim_token: None,
        })
    );
    assert!(
        tokio::time::timeout(Duration::from_millis(300), app.orders.next())
            .await
            .is_err(),
        "only the held file is ordered to stop"
    );
}

/// A queued file is not transcribed: its claim is answered not found (the worker then drops
/// the message). The held one's reports and completion are refused the same way, so nothing
/// goes to the Vault.
async fn her_files_are_refused_and_nothing_reaches_the_vault(
    app: &mut TestApp,
    (job, scheduled): (&str, &pb::StartTranscriptionResponse),
    running: &pb::ClaimTranscriptionFileResponse,
) {
    let claim = app
        .client
        .claim_transcription_file(as_user(
            "alice",
            pb::ClaimTranscriptionFileRequest {
                job_id: job.to_owned(),
                file_id: "queued".to_owned(),
                take_turns: false,
            },
        ))
        .await
        .unwrap_err();
    assert_eq!(claim.code(), Code::NotFound);
    let claim = app
        .client
        .claim_transcription_file(as_user(
            "alice",
            pb::ClaimTranscriptionFileRequest {
                job_id: scheduled.job_id.clone(),
                file_id: "later".to_owned(),
                take_turns: false,
            },
        ))
        .await
        .unwrap_err();
    assert_eq!(claim.code(), Code::NotFound);
    let report = app
        .client
        .report_transcription_progress(as_user(
            "alice",
            pb::ReportTranscriptionProgressRequest {
                job_id: job.to_owned(),
                file_id: "running".to_owned(),
                claim_token: running.claim_token,
                progress: 50,
            },
        ))
        .await
        .unwrap_err();
    assert_eq!(report.code(), Code::NotFound);
    let completion = app
        .client
        .complete_transcription_file(as_user(
            "alice",
            pb::CompleteTranscriptionFileRequest {
                job_id: job.to_owned(),
                file_id: "running".to_owned(),
                claim_token: running.claim_token,
                transcript_path: format!("transcripts/{job}/running.txt"),
                ..pb::CompleteTranscriptionFileRequest::default()
            },
        ))
        .await
        .unwrap_err();
    assert_eq!(completion.code(), Code::NotFound);
    assert!(
        tokio::time::timeout(Duration::from_millis(300), app.ingests.next())
            .await
            .is_err(),
        "nothing is handed to the Vault"
    );
}

async fn deletion_removes_the_caller_only(mut app: TestApp) {
    // Bob: one file completed (with its transcript stored), one waiting.
    let bob_job = app.start("bob", &["b1", "b2"]).await.job_id;
    let b1 = app.claim("bob", &bob_job, "b1").await;
    app.complete("bob", &bob_job, "b1", b1.claim_token, "# b1")
        .await;
    store_transcript(&app, "bob", &bob_job, "b1").await;
    let only_bob = app.db.table_counts().await.unwrap();
    let bob_objects = objects_of(&app, "bob").await;
    let bob_job_before = without_estimates(app.job("bob", &bob_job).await.unwrap());

    let (job, scheduled, running) = alice_in_every_table(&mut app).await;
    let with_alice = app.db.table_counts().await.unwrap();
    // Every table holds some of Alice's rows, so the comparison below covers every table.
    for (table, count) in &with_alice {
        assert!(
            *count > only_bob[table],
            "{table} holds none of alice's rows: the test would not see them kept"
        );
    }
    let alice_rows: i64 = with_alice
        .iter()
        .map(|(table, count)| count - only_bob[table])
        .sum();
    // The hand-offs of the two completed files were queued then.
    assert_eq!(app.next_ingest().await.title, "Title of b1");
    assert_eq!(app.next_ingest().await.title, "Title of done");

    let deleted = delete_user_data(&mut app, "alice").await;
    assert_eq!(deleted.rows_deleted, u64::try_from(alice_rows).unwrap());
    assert_eq!(
        deleted.blobs_deleted, 3,
        "the completed file's three outputs"
    );

    the_worker_holding_her_file_is_told_to_stop(&mut app, &job).await;

    // Every table is back to Bob's rows alone; of Alice's objects, only the uploads stay
    // (storage owns `uploads/`).
    assert_eq!(app.db.table_counts().await.unwrap(), only_bob);
    assert_eq!(
        objects_of(&app, "alice").await,
        [
            "users/alice/uploads/done.mp3",
            "users/alice/uploads/later.mp3",
            "users/alice/uploads/queued.mp3",
            "users/alice/uploads/running.mp3",
        ]
    );
    assert_eq!(objects_of(&app, "bob").await, bob_objects);

    her_files_are_refused_and_nothing_reaches_the_vault(&mut app, (&job, &scheduled), &running)
        .await;

    // Alice finds nothing; Bob keeps everything and can go on.
    assert_eq!(waiting(&mut app, "alice").await, 0);
    assert_eq!(
        app.job("alice", &job).await.unwrap_err().code(),
        Code::NotFound
    );
    assert_eq!(
        without_estimates(app.job("bob", &bob_job).await.unwrap()),
        bob_job_before
    );
    assert_eq!(waiting(&mut app, "bob").await, 1);
    assert!(app.claim("bob", &bob_job, "b2").await.claimed);

    // A second call finds nothing and succeeds.
    let again = delete_user_data(&mut app, "alice").await;
    assert_eq!((again.rows_deleted, again.blobs_deleted), (0, 0));
    assert!(
        tokio::time::timeout(Duration::from_millis(300), app.orders.next())
            .await
            .is_err(),
        "nothing more to stop"
    );
}
