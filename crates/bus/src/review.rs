//! The quality guard's review of a transcript, as it travels from the transcription worker
//! (which finds it) through the transcription service's completion to the library (which keeps
//! it on the Vault item): where a person should listen again, and why. Part of
//! [`crate::contract`]; its protobuf twins are converted here and, for the reason enum, in
//! [`crate::wire`].

use scribevault_proto::library::v1 as library_pb;
use serde::{Deserialize, Serialize};

use crate::wire::WireEnumError;

/// Why a stretch of a transcript needs a listen: what the worker's quality guard found there
/// and decoding it again did not fix.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    Serialize,
    Deserialize,
    utoipa::ToSchema,
)]
#[serde(rename_all = "camelCase")]
pub enum ReviewReason {
    /// The same phrase over and over: a decoder loop.
    Repetition,
    /// Text that compresses too well (a zlib ratio over 2.4, faster-whisper's test for loops).
    Compression,
    /// The decoder's mean token log-probability was under −1.0 (faster-whisper's threshold).
    LowConfidence,
    /// Text where the audio has no speech to carry it: over silence, or more words than the
    /// time could hold.
    TextOverSilence,
}

impl ReviewReason {
    /// Every reason, for exhaustive tests and the SPA's labels.
    pub const ALL: [Self; 4] = [
        Self::Repetition,
        Self::Compression,
        Self::LowConfidence,
        Self::TextOverSilence,
    ];
}

/// One stretch of a transcript to check, on the recording's clock.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ReviewRange {
    pub start_ms: i64,
    pub end_ms: i64,
    pub reason: ReviewReason,
}

/// What the quality guard left for a person to check. No ranges: nothing, and the item is not
/// marked 'Needs review'.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TranscriptReview {
    /// In time order.
    pub ranges: Vec<ReviewRange>,
}

impl TranscriptReview {
    /// Whether anything needs checking.
    #[must_use]
    pub fn needs_review(&self) -> bool {
        !self.ranges.is_empty()
    }

    /// The reasons of the ranges, each once, in [`ReviewReason`]'s order.
    #[must_use]
    pub fn reasons(&self) -> Vec<ReviewReason> {
        let mut reasons: Vec<ReviewReason> = self.ranges.iter().map(|range| range.reason).collect();
        reasons.sort_unstable();
        reasons.dedup();
        reasons
    }

    /// `Some` when there is anything to check: what a completion and an ingest carry.
    #[must_use]
    pub fn if_needed(self) -> Option<Self> {
        self.needs_review().then_some(self)
    }
}

impl From<&TranscriptReview> for library_pb::TranscriptReview {
    fn from(review: &TranscriptReview) -> Self {
        Self {
            ranges: review
                .ranges
                .iter()
                .map(|range| library_pb::ReviewRange {
                    start_ms: range.start_ms,
                    end_ms: range.end_ms,
                    reason: library_pb::ReviewReason::from(range.reason) as i32,
                })
                .collect(),
        }
    }
}

impl TryFrom<library_pb::TranscriptReview> for TranscriptReview {
    type Error = WireEnumError;

    /// # Errors
    /// A range whose reason is unspecified or unknown to this build.
    fn try_from(review: library_pb::TranscriptReview) -> Result<Self, WireEnumError> {
        let ranges = review
            .ranges
            .into_iter()
            .map(|range| {
                Ok(ReviewRange {
                    start_ms: range.start_ms,
                    end_ms: range.end_ms,
                    reason: ReviewReason::try_from(range.reason)?,
                })
            })
            .collect::<Result<_, WireEnumError>>()?;
        Ok(Self { ranges })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn range(start_ms: i64, reason: ReviewReason) -> ReviewRange {
        ReviewRange {
            start_ms,
            end_ms: start_ms + 1_000,
            reason,
        }
    }

    #[test]
    fn reasons_are_listed_once_in_their_order() {
        let review = TranscriptReview {
            ranges: vec![
                range(0, ReviewReason::TextOverSilence),
                range(5_000, ReviewReason::Repetition),
                range(9_000, ReviewReason::TextOverSilence),
            ],
        };
        assert_eq!(
            review.reasons(),
            [ReviewReason::Repetition, ReviewReason::TextOverSilence]
        );
        assert!(review.needs_review());
        assert_eq!(TranscriptReview::default().if_needed(), None);
    }

    #[test]
    fn a_review_crosses_the_wire_and_its_json_is_camel_case() {
        let review = TranscriptReview {
            ranges: ReviewReason::ALL
                .into_iter()
                .zip(0..)
                .map(|(reason, index)| range(index * 2_000, reason))
                .collect(),
        };
        let wire = library_pb::TranscriptReview::from(&review);
        assert_eq!(TranscriptReview::try_from(wire), Ok(review.clone()));
        let json = serde_json::to_value(&review).unwrap();
        assert_eq!(json["ranges"][2]["reason"], "lowConfidence");
        assert_eq!(json["ranges"][3]["reason"], "textOverSilence");
        assert_eq!(json["ranges"][1]["startMs"], 2_000);
    }

    #[test]
    fn a_range_without_a_reason_is_refused() {
        let wire = library_pb::TranscriptReview {
            ranges: vec![library_pb::ReviewRange {
                start_ms: 0,
                end_ms: 1,
                reason: 0,
            }],
        };
        assert!(TranscriptReview::try_from(wire).is_err());
    }
}
