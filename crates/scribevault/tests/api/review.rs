//! 'Mark as reviewed' through the real binary: an item the quality guard flagged (ingested
//! through the library's gRPC API with a review, as transcription hands one over) loses its
//! 'Needs review' on `DELETE /api/library/transcripts/{id}/review`, for its owner alone.

use reqwest::Method;
use scribevault_proto::library::v1 as library_pb;
use serde_json::{Value, json};

use crate::helpers::TestApp;

/// Ingests an item for `user` whose transcript the quality guard flagged; returns its id.
async fn ingest_flagged(app: &TestApp, user: &str, title: &str) -> String {
    app.ingest_request(
        user,
        library_pb::IngestTranscriptRequest {
            source_ref: format!("transcription:{title}"),
            title: title.to_owned(),
            source_type: library_pb::SourceType::Audio.into(),
            content: "Please be in the middle of the year on full time.".to_owned(),
            duration_seconds: Some(5.0),
            review: Some(library_pb::TranscriptReview {
                ranges: vec![library_pb::ReviewRange {
                    start_ms: 1_090,
                    end_ms: 4_720,
                    reason: library_pb::ReviewReason::Repetition.into(),
                }],
            }),
            ..Default::default()
        },
    )
    .await
}

async fn mark_reviewed(app: &TestApp, id: &str, token: Option<&str>) -> (u16, Value) {
    app.send(
        Method::DELETE,
        &format!("/api/library/transcripts/{id}/review"),
        token,
        None,
    )
    .await
}

async fn flagged_titles(app: &TestApp, token: &str) -> Vec<String> {
    let (status, page) = app
        .get("/api/library/transcripts?needsReview=true", Some(token))
        .await;
    assert_eq!(status, 200, "{page}");
    page["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|item| item["title"].as_str().unwrap().to_owned())
        .collect()
}

#[tokio::test]
async fn the_owner_marks_a_flagged_item_reviewed_and_nobody_else_can() {
    let app = TestApp::spawn().await;
    let (alice, alice_id) = app.sign_up("alice-review@example.com").await;
    let (bob, _) = app.sign_up("bob-review@example.com").await;
    let id = ingest_flagged(&app, &alice_id, "Looped talk").await;
    let (status, item) = app
        .get(&format!("/api/library/transcripts/{id}"), Some(&alice))
        .await;
    assert_eq!(status, 200, "{item}");
    assert_eq!(item["data"]["needsReview"], true);
    assert_eq!(item["data"]["review"]["reasons"], json!(["repetition"]));

    assert_eq!(mark_reviewed(&app, &id, None).await.0, 401);
    let (status, body) = mark_reviewed(&app, &id, Some(&bob)).await;
    assert_eq!(status, 404, "another user's item: {body}");
    let (status, body) = mark_reviewed(&app, "no-such-item", Some(&alice)).await;
    assert_eq!(status, 404, "an unknown id: {body}");
    assert_eq!(flagged_titles(&app, &alice).await, ["Looped talk"]);

    let (status, reviewed) = mark_reviewed(&app, &id, Some(&alice)).await;
    assert_eq!(status, 200, "{reviewed}");
    assert_eq!(reviewed["data"]["id"], id.as_str());
    assert_eq!(reviewed["data"]["title"], "Looped talk");
    assert_eq!(reviewed["data"]["needsReview"], false);
    assert_eq!(reviewed["data"]["review"], Value::Null);
    assert!(flagged_titles(&app, &alice).await.is_empty());
    let (_, item) = app
        .get(&format!("/api/library/transcripts/{id}"), Some(&alice))
        .await;
    assert_eq!(item["data"]["needsReview"], false);

    // Idempotent: the same answer again.
    let (status, again) = mark_reviewed(&app, &id, Some(&alice)).await;
    assert_eq!(status, 200, "{again}");
    assert_eq!(again["data"]["needsReview"], false);
}
