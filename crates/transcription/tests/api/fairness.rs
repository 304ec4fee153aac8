//! Round-robin between users: one user's long queue does not starve another user's file, and
//! every message still ends in exactly one claim.

use std::time::Duration;

use crate::helpers::{StatusName as _, TestApp, spawn_app};

/// Plays one worker: takes messages in queue order, claims, and completes what it was given
/// (as the owner the service names). Returns `(user, file)` in the order they were completed.
async fn work_through(app: &mut TestApp, files: usize) -> Vec<(String, String)> {
    let mut done = Vec::new();
    while done.len() < files {
        let work = app.next_work().await;
        let claim = app
            .claim_taking_turns(&work.user_id, &work.job_id, &work.file_id, true)
            .await;
        if !claim.claimed {
            assert_eq!(claim.reason, "finished", "{work:?}");
            continue;
        }
        let file = claim.file.unwrap();
        assert!(!claim.user_id.is_empty());
        app.complete(
            &claim.user_id,
            &file.job_id,
            &file.id,
            claim.claim_token,
            "text",
        )
        .await;
        done.push((claim.user_id, file.id));
    }
    done
}

#[tokio::test]
async fn a_user_with_one_file_goes_next_even_behind_another_users_long_queue() {
    let mut app = spawn_app().await;
    let alice_files = ["a1", "a2", "a3", "a4", "a5"];
    let alice_job = app.start("alice", &alice_files).await.job_id;
    let bob_job = app.start("bob", &["b1"]).await.job_id;

    let done = work_through(&mut app, 6).await;
    let order: Vec<&str> = done.iter().map(|(_, file)| file.as_str()).collect();
    // Alice's first file started before Bob queued; Bob's is next although four of Alice's
    // messages stand before it.
    assert_eq!(&order[..2], ["a1", "b1"], "{order:?}");
    let mut alice_done: Vec<&str> = order
        .iter()
        .copied()
        .filter(|id| id.starts_with('a'))
        .collect();
    alice_done.sort_unstable();
    assert_eq!(alice_done, alice_files, "every file once: {order:?}");
    assert_eq!(done[1].0, "bob");

    // Every file ended completed, and the leftover message (Bob's own, his file long done) is
    // dropped as finished rather than claiming anything twice.
    for id in alice_files {
        assert_eq!(
            app.file_state("alice", &alice_job, id).await.status_name(),
            "completed"
        );
    }
    assert_eq!(
        app.file_state("bob", &bob_job, "b1").await.status_name(),
        "completed"
    );
    while app.work_arrives_within(Duration::from_millis(300)).await {}
}

#[tokio::test]
async fn a_claim_without_taking_turns_is_of_the_named_file_only() {
    let mut app = spawn_app().await;
    let alice_job = app.start("alice", &["a1", "a2"]).await.job_id;
    app.start("bob", &["b1"]).await;
    let first = app.claim("alice", &alice_job, "a1").await;
    app.complete("alice", &alice_job, "a1", first.claim_token, "text")
        .await;
    let second = app.claim("alice", &alice_job, "a2").await;
    assert!(second.claimed);
    assert_eq!(
        (second.user_id.as_str(), second.file.unwrap().id.as_str()),
        ("alice", "a2")
    );
}

#[tokio::test]
async fn two_users_queued_at_once_take_turns() {
    let mut app = spawn_app().await;
    app.start("alice", &["a1", "a2", "a3"]).await;
    app.start("bob", &["b1", "b2", "b3"]).await;
    let done = work_through(&mut app, 6).await;
    let owners: Vec<&str> = done.iter().map(|(user, _)| user.as_str()).collect();
    assert_eq!(
        owners,
        ["alice", "bob", "alice", "bob", "alice", "bob"],
        "{done:?}"
    );
}
