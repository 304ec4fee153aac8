//! The quality review on a Vault item's view: where the transcription worker's quality guard
//! found text Whisper may have invented or looped, and a re-decode did not fix it. Times are in
//! seconds, as the item's segments and search matches give them, so the SPA seeks the player
//! to a range the way it seeks to a segment. 'Mark as reviewed' (`DELETE …/review`) is how the
//! owner says they checked it: the review is the resource, so dismissing it deletes it.

use actix_web::{HttpResponse, web};
use scribevault_bus::contract::{ReviewReason, TranscriptReview};
use scribevault_proto::library::v1 as pb;
use serde::Serialize;
use utoipa::{OpenApi, ToSchema};

use super::TranscriptView;
use crate::clients::UserClients;
use crate::error::{ApiError, Envelope};
use crate::routes::openapi::ErrorBody;
use crate::routes::table::{Access, RouteList};

/// What to check on an item marked 'Needs review'.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ReviewView {
    /// Each reason of the ranges, once: `repetition` (the same phrase over and over),
    /// `compression` (text that compresses too well, a loop), `lowConfidence` (Whisper's mean
    /// token log-probability under −1), `textOverSilence` (text where the audio has no speech
    /// to carry it).
    reasons: Vec<ReviewReason>,
    /// The stretches to listen to again, in time order.
    ranges: Vec<ReviewRangeView>,
}

/// One stretch to check, in seconds of the recording.
#[derive(Debug, Serialize, ToSchema)]
pub struct ReviewRangeView {
    start: f64,
    end: f64,
    reason: ReviewReason,
}

impl ReviewView {
    /// The item's review, or `None` when nothing is left to check.
    ///
    /// # Errors
    /// A range whose reason this build does not know (a newer library's).
    pub(super) fn from_proto(
        review: Option<pb::TranscriptReview>,
    ) -> Result<Option<Self>, ApiError> {
        let Some(review) = review
            .map(TranscriptReview::try_from)
            .transpose()?
            .and_then(TranscriptReview::if_needed)
        else {
            return Ok(None);
        };
        #[allow(clippy::cast_precision_loss)]
        let seconds = |ms: i64| ms as f64 / 1000.0;
        Ok(Some(Self {
            reasons: review.reasons(),
            ranges: review
                .ranges
                .iter()
                .map(|range| ReviewRangeView {
                    start: seconds(range.start_ms),
                    end: seconds(range.end_ms),
                    reason: range.reason,
                })
                .collect(),
        }))
    }
}

/// 'Mark as reviewed': forgets what the quality guard left to check on one of the caller's
/// items, so it no longer needs review (its badge and the `needsReview` filter follow).
/// Idempotent: an item with nothing to check answers as it is.
#[utoipa::path(
    delete,
    path = "/api/library/transcripts/{id}/review",
    tag = "library",
    params(("id" = String, Path)),
    responses(
        (status = 200, description = "The item, with `needsReview` false", body = Envelope<TranscriptView>),
        (status = 404, description = "Not the caller's item", body = ErrorBody),
    )
)]
pub async fn mark_reviewed(
    services: UserClients,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let item = services
        .library()
        .clear_transcript_review(pb::ClearTranscriptReviewRequest {
            id: id.into_inner(),
        })
        .await?
        .into_inner();
    Ok(HttpResponse::Ok().json(Envelope {
        data: TranscriptView::try_from(item)?,
    }))
}

#[derive(OpenApi)]
#[openapi(paths(mark_reviewed))]
pub(crate) struct Docs;

pub(super) fn routes() -> RouteList {
    RouteList::default().add::<__path_mark_reviewed>(Access::SignedIn, || web::to(mark_reviewed))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_review_shows_its_reasons_once_and_its_ranges_in_seconds() {
        let range = |start_ms, reason: ReviewReason| pb::ReviewRange {
            start_ms,
            end_ms: start_ms + 2_500,
            reason: pb::ReviewReason::from(reason).into(),
        };
        let view = ReviewView::from_proto(Some(pb::TranscriptReview {
            ranges: vec![
                range(1_000, ReviewReason::Repetition),
                range(30_000, ReviewReason::LowConfidence),
                range(61_000, ReviewReason::Repetition),
            ],
        }))
        .unwrap()
        .unwrap();
        let json = serde_json::to_value(&view).unwrap();
        assert_eq!(
            json["reasons"],
            serde_json::json!(["repetition", "lowConfidence"])
        );
        assert_eq!(json["ranges"][1]["start"], 30.0);
        assert_eq!(json["ranges"][1]["end"], 32.5);
        assert_eq!(json["ranges"][2]["reason"], "repetition");
        assert!(ReviewView::from_proto(None).unwrap().is_none());
        assert!(
            ReviewView::from_proto(Some(pb::TranscriptReview { ranges: vec![] }))
                .unwrap()
                .is_none()
        );
    }
}
