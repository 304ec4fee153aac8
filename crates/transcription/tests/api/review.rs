//! The quality guard's review on a completion: handed to the library with the transcript, and
//! again (read from the worker's `….review.json` beside the transcript) when the service hands
//! recent completions over again after a restart.

use scribevault_blob::{BlobStore as _, body_from_bytes, owned_key};
use scribevault_bus::contract::{ReviewRange, ReviewReason, TranscriptReview};
use scribevault_proto::library::v1 as library_pb;
use scribevault_proto::transcription::v1 as pb;

use crate::helpers::{TestApp, as_user, spawn_app};

fn looped() -> TranscriptReview {
    TranscriptReview {
        ranges: vec![ReviewRange {
            start_ms: 1_090,
            end_ms: 4_720,
            reason: ReviewReason::Repetition,
        }],
    }
}

/// Completes `file_id` as a worker does, with `review` (and its transcript stored).
async fn complete_reviewed(
    app: &mut TestApp,
    job_id: &str,
    file_id: &str,
    token: u32,
    review: Option<library_pb::TranscriptReview>,
) {
    for (extension, body) in [
        ("txt", "Be in the middle."),
        ("md", "# Looped\n\nBe in the middle."),
    ] {
        let path = format!("transcripts/{job_id}/{file_id}.{extension}");
        app.blobs
            .put(&owned_key("alice", &path).unwrap(), body_from_bytes(body))
            .await
            .unwrap();
    }
    app.client
        .complete_transcription_file(as_user(
            "alice",
            pb::CompleteTranscriptionFileRequest {
                job_id: job_id.to_owned(),
                file_id: file_id.to_owned(),
                claim_token: token,
                transcript_path: format!("transcripts/{job_id}/{file_id}.txt"),
                markdown_path: format!("transcripts/{job_id}/{file_id}.md"),
                segments_path: format!("transcripts/{job_id}/{file_id}.segments.json"),
                duration_seconds: 5.0,
                vault_content: "# Looped\n\nBe in the middle.".to_owned(),
                review,
                ..Default::default()
            },
        ))
        .await
        .unwrap();
}

#[tokio::test]
async fn a_review_goes_to_the_library_with_its_transcript_and_again_after_a_restart() {
    let mut app = spawn_app().await;
    let job = app.start("alice", &["looped", "clean"]).await.job_id;
    let looped_claim = app.claim("alice", &job, "looped").await;
    complete_reviewed(
        &mut app,
        &job,
        "looped",
        looped_claim.claim_token,
        Some(library_pb::TranscriptReview::from(&looped())),
    )
    .await;
    // The worker stores the review beside the transcript.
    app.blobs
        .put(
            &owned_key("alice", &format!("transcripts/{job}/looped.review.json")).unwrap(),
            body_from_bytes(serde_json::to_vec(&looped()).unwrap()),
        )
        .await
        .unwrap();
    let ingest = app.next_ingest().await;
    assert_eq!(ingest.review, Some(looped()));

    // A review of nothing (what an older worker could send) is no review.
    let clean_claim = app.claim("alice", &job, "clean").await;
    complete_reviewed(
        &mut app,
        &job,
        "clean",
        clean_claim.claim_token,
        Some(library_pb::TranscriptReview { ranges: Vec::new() }),
    )
    .await;
    assert_eq!(app.next_ingest().await.review, None);

    // A reason this build does not know is refused, not dropped.
    let refused = start_one(&mut app, "odd").await;
    let error = app
        .client
        .complete_transcription_file(as_user(
            "alice",
            pb::CompleteTranscriptionFileRequest {
                job_id: refused.0.clone(),
                file_id: "odd".to_owned(),
                claim_token: refused.1,
                transcript_path: format!("transcripts/{}/odd.txt", refused.0),
                review: Some(library_pb::TranscriptReview {
                    ranges: vec![library_pb::ReviewRange {
                        start_ms: 0,
                        end_ms: 1,
                        reason: 99,
                    }],
                }),
                ..Default::default()
            },
        ))
        .await
        .unwrap_err();
    assert_eq!(error.code(), tonic::Code::InvalidArgument);

    // After a restart the recent completions are handed over again, the review read back.
    let mut app = app.restarted().await;
    let mut again = vec![app.next_ingest().await, app.next_ingest().await];
    again.sort_by(|a, b| a.source_ref.cmp(&b.source_ref));
    let reviews: Vec<(String, Option<TranscriptReview>)> = again
        .into_iter()
        .map(|ingest| (ingest.content, ingest.review))
        .collect();
    assert!(reviews.contains(&("# Looped\n\nBe in the middle.".to_owned(), Some(looped()))));
    assert_eq!(
        reviews
            .iter()
            .filter(|(_, review)| review.is_none())
            .count(),
        1,
        "{reviews:?}"
    );
}

/// A started and claimed file of Alice's: its job id and claim token.
async fn start_one(app: &mut TestApp, id: &str) -> (String, u32) {
    let job = app.start("alice", &[id]).await.job_id;
    let claim = app.claim("alice", &job, id).await;
    (job, claim.claim_token)
}
