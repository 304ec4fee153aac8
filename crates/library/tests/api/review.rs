//! 'Needs review': the quality guard's review arrives with a transcript (on the ingest queue
//! and through the RPC), stays on the item, comes back on it, and the `needsReview` filter
//! finds it, until its owner marks it reviewed; on SQLite and PostgreSQL.

use scribevault_bus::contract::{ItemChange, ReviewRange, ReviewReason, TranscriptReview};
use scribevault_proto::library::v1 as pb;
use tonic::Code;

use crate::helpers::{
    TestApp, as_user, ingest_message, ingest_request, next_library_update, spawn_app,
    spawn_app_on_postgres,
};

const ALICE: &str = "alice";

fn looped() -> TranscriptReview {
    TranscriptReview {
        ranges: vec![
            ReviewRange {
                start_ms: 1_090,
                end_ms: 4_720,
                reason: ReviewReason::Repetition,
            },
            ReviewRange {
                start_ms: 62_000,
                end_ms: 75_500,
                reason: ReviewReason::LowConfidence,
            },
        ],
    }
}

#[tokio::test]
async fn a_review_stays_on_its_item_and_the_filter_finds_it() {
    reviews_are_kept_and_filtered(spawn_app().await).await;
}

#[tokio::test]
async fn a_review_stays_on_its_item_and_the_filter_finds_it_on_postgresql() {
    let Some(app) =
        spawn_app_on_postgres("a_review_stays_on_its_item_and_the_filter_finds_it_on_postgresql")
            .await
    else {
        return;
    };
    reviews_are_kept_and_filtered(app).await;
}

async fn reviews_are_kept_and_filtered(app: TestApp) {
    let mut events = app.subscribe().await;
    // On the queue, as the transcription service hands a finished file over.
    let mut flagged = ingest_message(
        ALICE,
        "transcription:looped",
        "Looped talk",
        "Be in the middle.",
    );
    flagged.review = Some(looped());
    app.enqueue(&flagged).await;
    let update = next_library_update(&mut events, ALICE).await;
    assert_eq!(update.transcript.title, "Looped talk");
    app.enqueue(&ingest_message(
        ALICE,
        "transcription:clean",
        "Clean talk",
        "Welcome back.",
    ))
    .await;
    next_library_update(&mut events, ALICE).await;
    // Through the RPC, with a review of nothing (an older worker's empty one): no review.
    let mut empty = ingest_request("rpc-clean", "Empty review", "text");
    empty.review = Some(pb::TranscriptReview { ranges: Vec::new() });
    let answer = app.ingest(ALICE, empty).await.unwrap();
    assert_eq!(answer.transcript.unwrap().review, None);
    // Through the RPC, flagged.
    let mut rpc = ingest_request("rpc-flagged", "Noisy talk", "An imaging test.");
    rpc.review = Some(pb::TranscriptReview::from(&TranscriptReview {
        ranges: vec![ReviewRange {
            start_ms: 0,
            end_ms: 9_200,
            reason: ReviewReason::LowConfidence,
        }],
    }));
    let noisy = app.ingest(ALICE, rpc).await.unwrap().transcript.unwrap();
    assert!(noisy.review.is_some());

    let items = app.all_items(ALICE).await;
    let looped_item = items
        .iter()
        .find(|item| item.title == "Looped talk")
        .unwrap();
    let stored = TranscriptReview::try_from(looped_item.review.clone().unwrap()).unwrap();
    assert_eq!(stored, looped());
    let clean = items
        .iter()
        .find(|item| item.title == "Clean talk")
        .unwrap();
    assert_eq!(clean.review, None);

    let mut needing = app.titles(ALICE, &[("needsReview", "true")]).await;
    needing.sort();
    assert_eq!(needing, ["Looped talk", "Noisy talk"]);
    let mut others = app.titles(ALICE, &[("needsReview", "false")]).await;
    others.sort();
    assert_eq!(others, ["Clean talk", "Empty review"]);
    assert_eq!(
        app.titles(ALICE, &[("needsReview", "true"), ("q", "middle")])
            .await,
        ["Looped talk"]
    );
    assert!(
        app.titles("bob", &[("needsReview", "true")])
            .await
            .is_empty()
    );
}

async fn mark_reviewed(
    app: &TestApp,
    user: &str,
    id: &str,
) -> Result<pb::Transcript, tonic::Status> {
    app.client
        .clone()
        .clear_transcript_review(as_user(
            user,
            pb::ClearTranscriptReviewRequest { id: id.into() },
        ))
        .await
        .map(tonic::Response::into_inner)
}

#[tokio::test]
async fn marking_an_item_reviewed_clears_it_once_and_only_for_its_owner() {
    marks_reviewed(spawn_app().await).await;
}

#[tokio::test]
async fn marking_an_item_reviewed_clears_it_once_and_only_for_its_owner_on_postgresql() {
    let Some(app) = spawn_app_on_postgres(
        "marking_an_item_reviewed_clears_it_once_and_only_for_its_owner_on_postgresql",
    )
    .await
    else {
        return;
    };
    marks_reviewed(app).await;
}

async fn marks_reviewed(app: TestApp) {
    let mut flagged = ingest_request("rpc-looped", "Looped talk", "Be in the middle.");
    flagged.review = Some(pb::TranscriptReview::from(&looped()));
    let item = app
        .ingest(ALICE, flagged)
        .await
        .unwrap()
        .transcript
        .unwrap();
    app.ingest(
        ALICE,
        ingest_request("rpc-clean", "Clean talk", "Welcome back."),
    )
    .await
    .unwrap();

    // Another user's call, or an id nobody has: not found, and the review stays.
    for (user, id) in [("bob", item.id.as_str()), (ALICE, "no-such-item")] {
        let refused = mark_reviewed(&app, user, id).await.unwrap_err();
        assert_eq!(refused.code(), Code::NotFound, "{user} {id}");
    }
    assert_eq!(
        app.titles(ALICE, &[("needsReview", "true")]).await,
        ["Looped talk"]
    );

    let mut events = app.subscribe().await;
    let reviewed = mark_reviewed(&app, ALICE, &item.id).await.unwrap();
    assert_eq!(reviewed.id, item.id);
    assert_eq!(reviewed.review, None);
    assert_eq!(
        reviewed.title, "Looped talk",
        "the rest of the item is kept"
    );
    let update = next_library_update(&mut events, ALICE).await;
    assert_eq!(update.change, ItemChange::Updated);
    assert_eq!(update.transcript.id, item.id);

    // Stored: read back, and the filter no longer finds it.
    let stored = app.all_items(ALICE).await;
    let stored = stored.iter().find(|stored| stored.id == item.id).unwrap();
    assert_eq!(stored.review, None);
    assert!(
        app.titles(ALICE, &[("needsReview", "true")])
            .await
            .is_empty()
    );
    let mut others = app.titles(ALICE, &[("needsReview", "false")]).await;
    others.sort();
    assert_eq!(others, ["Clean talk", "Looped talk"]);

    // Again: the same answer, nothing changed.
    let again = mark_reviewed(&app, ALICE, &item.id).await.unwrap();
    assert_eq!(again.review, None);
    assert_eq!(again.id, item.id);
}
