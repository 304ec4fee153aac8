//! Queue transparency (issue 24 §3) through the service's gRPC API on a real database: every
//! waiting or running file has its place in the instance's queue and estimated times, a user
//! sees only their own files (other users' count for the places, never by name), the machine's
//! speed is learned from completed files, and `queueUpdate` events follow the queue's changes,
//! not progress reports.

use std::collections::HashMap;
use std::time::Duration;

use chrono::{DateTime, Utc};
use scribevault_blob::{BlobStore as _, body_from_bytes, owned_key};
use scribevault_bus::Event;
use scribevault_bus::contract::QueueUpdate;
use scribevault_proto::transcription::v1 as pb;

use crate::helpers::{MODEL, TestApp, as_user, file, spawn_app, spawn_app_on_postgres};

/// sample-01 plays 7.52 s, long-01 77.19 s (ffprobe).
const SHORT: &str = "sample-01-welcome.mp3";
const LONG: &str = "long-01-bread.mp3";

async fn upload_sample(app: &TestApp, user: &str, path: &str, sample: &str) {
    let bytes = std::fs::read(
        scribevault_test_support::shared_dir()
            .join("audio")
            .join(sample),
    )
    .expect("the shared audio samples");
    app.blobs
        .put(&owned_key(user, path).unwrap(), body_from_bytes(bytes))
        .await
        .unwrap();
}

/// Starts `user`'s files, each `(id, sample)`; returns the answer.
async fn start(
    app: &mut TestApp,
    user: &str,
    files: &[(&str, &str)],
) -> pb::StartTranscriptionResponse {
    let mut request = pb::StartTranscriptionRequest {
        model: MODEL.to_owned(),
        output_format: "markdown".to_owned(),
        ..Default::default()
    };
    for (id, sample) in files {
        let path = format!("uploads/{id}.mp3");
        upload_sample(app, user, &path, sample).await;
        request.files.push(file(id, &path));
    }
    app.client
        .start_transcription(as_user(user, request))
        .await
        .unwrap()
        .into_inner()
}

async fn queue_of(app: &mut TestApp, user: &str) -> pb::GetTranscriptionQueueResponse {
    app.client
        .get_transcription_queue(as_user(user, pb::GetTranscriptionQueueRequest {}))
        .await
        .unwrap()
        .into_inner()
}

/// `(file id, position, eta seconds)` of each file of the answer, in its order.
fn places(queue: &pb::GetTranscriptionQueueResponse) -> Vec<(String, u32, u64)> {
    queue
        .files
        .iter()
        .map(|file| {
            let estimate = file
                .queue
                .as_ref()
                .expect("every queued file has an estimate");
            (file.id.clone(), estimate.position, estimate.eta_seconds)
        })
        .collect()
}

fn ids(places: &[(String, u32, u64)]) -> Vec<(&str, u32)> {
    places
        .iter()
        .map(|(id, position, _)| (id.as_str(), *position))
        .collect()
}

/// The `queueUpdate` events published until none came for a moment, by user (the last of each
/// user's), plus how many there were.
async fn queue_updates(app: &mut TestApp) -> (HashMap<String, QueueUpdate>, usize) {
    let mut last = HashMap::new();
    let mut count = 0;
    while let Ok(Some(envelope)) =
        tokio::time::timeout(Duration::from_millis(500), app.events.next()).await
    {
        if let Some(Event::QueueUpdate(update)) = envelope.event() {
            last.insert(envelope.user_id.clone(), update);
            count += 1;
        }
    }
    (last, count)
}

fn update_ids(update: &QueueUpdate) -> Vec<(&str, u32)> {
    update
        .files
        .iter()
        .map(|file| (file.file_id.as_str(), file.position))
        .collect()
}

async fn places_every_users_files_and_answers_each_only_their_own(mut app: TestApp) {
    let alice_job = start(&mut app, "alice", &[("a1", SHORT), ("a2", SHORT)])
        .await
        .job_id;
    start(&mut app, "bob", &[("b1", LONG)]).await;

    // Nothing measured yet: a file takes as long as it plays. One slot: a1, then Bob's turn
    // (never served) before Alice's second, as the claims take turns.
    let alice = queue_of(&mut app, "alice").await;
    let bob = queue_of(&mut app, "bob").await;
    assert_eq!(ids(&places(&alice)), [("a1", 1), ("a2", 3)]);
    assert_eq!(ids(&places(&bob)), [("b1", 2)]);
    let etas: Vec<u64> = places(&alice).iter().map(|place| place.2).collect();
    assert!((7..=9).contains(&etas[0]), "7.5 s of audio at 1×: {etas:?}");
    assert!(
        (90..=94).contains(&etas[1]),
        "a1, b1 (77.2 s) and a2: {etas:?}"
    );
    let basis = alice.basis.unwrap();
    assert_eq!((basis.measured_files, basis.workers), (0, 1));
    assert!((basis.real_time_factor - 1.0).abs() < 1e-9);
    let (updates, _) = queue_updates(&mut app).await;
    assert_eq!(update_ids(&updates["alice"]), [("a1", 1), ("a2", 3)]);
    assert_eq!(
        update_ids(&updates["bob"]),
        [("b1", 2)],
        "Bob never sees Alice's files"
    );

    // A worker takes a1: it runs (position 0); a progress report moves nothing on the sockets.
    let claim = app.claim("alice", &alice_job, "a1").await;
    let (updates, _) = queue_updates(&mut app).await;
    assert_eq!(update_ids(&updates["alice"])[0], ("a1", 0));
    assert!(
        !app.report("alice", &alice_job, "a1", claim.claim_token, 50)
            .await
    );
    let (_, after_progress) = queue_updates(&mut app).await;
    assert_eq!(after_progress, 0, "no queueUpdate for progress");

    // It completes in half its length: the machine's factor is now 0.5, and Bob's file, next,
    // is estimated at half of its 77 s.
    app.client
        .complete_transcription_file(as_user(
            "alice",
            pb::CompleteTranscriptionFileRequest {
                job_id: alice_job.clone(),
                file_id: "a1".to_owned(),
                claim_token: claim.claim_token,
                processing_time_ms: 3_760,
                duration_seconds: 7.52,
                ..Default::default()
            },
        ))
        .await
        .unwrap();
    let bob = queue_of(&mut app, "bob").await;
    assert_eq!(ids(&places(&bob)), [("b1", 1)]);
    let eta = places(&bob)[0].2;
    assert!((38..=40).contains(&eta), "77.2 s × 0.5: {eta}");
    let basis = bob.basis.unwrap();
    assert_eq!(basis.measured_files, 1);
    assert!((basis.real_time_factor - 0.5).abs() < 0.01);
    let (updates, _) = queue_updates(&mut app).await;
    assert_eq!(update_ids(&updates["alice"]), [("a2", 2)]);
    assert_eq!(update_ids(&updates["bob"]), [("b1", 1)]);
    for update in updates.values() {
        for file in &update.files {
            let start: DateTime<Utc> = file.estimated_start_at.parse().unwrap();
            let end: DateTime<Utc> = file.estimated_end_at.parse().unwrap();
            assert!(start <= end, "{file:?}");
        }
    }

    // Cancelling Alice's last file leaves her an empty queue, and she is told so.
    app.cancel("alice", &alice_job, "a2").await.unwrap();
    let (updates, _) = queue_updates(&mut app).await;
    assert!(updates["alice"].files.is_empty(), "{updates:?}");
    assert!(queue_of(&mut app, "alice").await.files.is_empty());
}

#[tokio::test]
async fn every_users_files_are_placed_and_each_user_sees_only_their_own() {
    places_every_users_files_and_answers_each_only_their_own(spawn_app().await).await;
}

#[tokio::test]
async fn every_users_files_are_placed_and_each_user_sees_only_their_own_on_postgres() {
    let Some(app) = spawn_app_on_postgres(
        "every_users_files_are_placed_and_each_user_sees_only_their_own_on_postgres",
    )
    .await
    else {
        return;
    };
    places_every_users_files_and_answers_each_only_their_own(app).await;
}

#[tokio::test]
async fn a_scheduled_file_waits_for_its_window_and_its_answers_say_when_it_opens() {
    let mut app = spawn_app().await;
    // A window that opened an hour ago for one hour only: closed now, opening tomorrow.
    let now = Utc::now();
    let hhmm = |at: DateTime<Utc>| at.format("%H:%M").to_string();
    let path = "uploads/night.mp3";
    upload_sample(&app, "alice", path, SHORT).await;
    let scheduled = app
        .client
        .schedule_transcription(as_user(
            "alice",
            pb::ScheduleTranscriptionRequest {
                files: vec![file("night", path)],
                model: MODEL.to_owned(),
                output_format: "markdown".to_owned(),
                start_time: hhmm(now - chrono::Duration::hours(2)),
                end_time: hhmm(now - chrono::Duration::hours(1)),
                // No zone: UTC.
                ..Default::default()
            },
        ))
        .await
        .unwrap()
        .into_inner();
    let estimate = scheduled.files[0]
        .queue
        .clone()
        .expect("the answer places it");
    assert!(estimate.waits_for_window);
    assert_eq!(estimate.position, 1);
    let opens: DateTime<Utc> = estimate.estimated_start_at.parse().unwrap();
    let hours = (opens - now).num_minutes() as f64 / 60.0;
    assert!(
        (21.9..=22.1).contains(&hours),
        "opens in about 22 h: {hours}"
    );

    // A file started now goes first, although it was queued later.
    start(&mut app, "bob", &[("now", SHORT)]).await;
    let alice = queue_of(&mut app, "alice").await;
    assert_eq!(ids(&places(&alice)), [("night", 2)]);
    let job = app.job("alice", &scheduled.job_id).await.unwrap();
    assert_eq!(
        job.files[0].queue.as_ref().unwrap().position,
        2,
        "the job's answer too"
    );
}
