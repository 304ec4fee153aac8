//! The figures of the Vault's stats cards.

use crate::helpers::{ingest_request, spawn_app};

#[tokio::test]
async fn stats_count_sum_and_average_the_callers_items() {
    let app = spawn_app().await;
    let mut talk = ingest_request("src:1", "Talk", "héllo");
    talk.duration_seconds = Some(10.5);
    let talk = app.ingest_item("alice", talk).await;
    let mut lecture = ingest_request("src:2", "Lecture", "abc");
    lecture.duration_seconds = Some(20.0);
    let lecture = app.ingest_item("alice", lecture).await;
    // No duration, no rating, created long ago.
    let mut old = ingest_request("src:3", "Old notes", "😀");
    old.created_at = Some("2020-01-01T00:00:00Z".to_owned());
    app.ingest_item("alice", old).await;
    app.rate("alice", &talk, 5).await.unwrap();
    app.rate("alice", &lecture, 2).await.unwrap();
    // Bob's item counts for Bob only.
    let mut bobs = ingest_request("src:1", "Bob's", "a much longer text of bob's");
    bobs.duration_seconds = Some(99.0);
    let bobs = app.ingest_item("bob", bobs).await;
    app.rate("bob", &bobs, 1).await.unwrap();

    let stats = app.stats("alice").await;
    assert_eq!(stats.total_transcripts, 3);
    assert!(
        (stats.total_duration - 30.5).abs() < 1e-9,
        "{}",
        stats.total_duration
    );
    assert!(
        (stats.avg_rating - 3.5).abs() < 1e-9,
        "unrated items are left out: {}",
        stats.avg_rating
    );
    assert_eq!(
        stats.storage_used,
        6 + 3 + 4,
        "UTF-8 bytes of the content: \"héllo\" is 6, \"abc\" 3, \"😀\" 4"
    );
    assert_eq!(stats.this_month, 2, "the 2020 item is not this month's");
    assert_eq!(stats.top_rated_count, 1, "ratings of 4 and up");
    assert_eq!(stats.total_exported, 0);

    // Replacing the content changes the bytes counted.
    app.update_content("alice", &lecture, "abcdefghij")
        .await
        .unwrap();
    assert_eq!(app.stats("alice").await.storage_used, 6 + 10 + 4);

    let empty = app.stats("carol").await;
    assert_eq!(empty.total_transcripts, 0);
    assert_eq!(empty.storage_used, 0);
    assert!(empty.avg_rating.abs() < f64::EPSILON);
    assert!(empty.total_duration.abs() < f64::EPSILON);
}
