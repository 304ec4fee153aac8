//! `/api/library/*` and `/api/vault/save`: the Vault, served by the library service. The
//! handlers are split as the library's own use cases are: items, exports, organising.

mod audio;
mod exports;
mod items;
mod list_query;
mod organise;
mod related;
mod review;
mod whisper;

use scribevault_bus::contract::{SourceType, TranscriptSource};
use scribevault_proto::library::v1 as pb;
use serde::{Deserialize, Serialize};
use utoipa::{OpenApi, ToSchema};

use crate::context::Context;
use crate::error::ApiError;
use crate::routes::table::RouteList;

/// A signed link (player, export) is the library's to check; whether its owner may still use it
/// is the gateway's: a member disabled, deleted or signed out everywhere since it was made ends
/// it (review G13), as it ends their tokens.
async fn link_still_works(context: &Context, owner: &str, issued_at: i64) -> Result<(), ApiError> {
    if context
        .access
        .members
        .link_still_works(owner, issued_at)
        .await
        .map_err(crate::auth::internal)?
    {
        Ok(())
    } else {
        Err(ApiError::new(
            scribevault_core::ErrorCode::Forbidden,
            "This link no longer works: its owner signed out everywhere or was disabled since",
        ))
    }
}

/// A Vault item as the SPA expects it (docs/product-spec.md §3, 'Library transcript').
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TranscriptView {
    id: String,
    title: String,
    author: String,
    created_at: String,
    last_exported: Option<String>,
    is_starred: bool,
    gwth_level: Option<i32>,
    source_type: SourceType,
    rating: Option<i32>,
    tags: Vec<String>,
    duration: Option<f64>,
    section_id: Option<String>,
    file_name: Option<String>,
    source_url: Option<String>,
    /// AUDIO items: the language the transcript is in, a Whisper code such as `de` (the one
    /// Whisper detected, or the one the file was transcribed as); absent when not known.
    language: Option<String>,
    /// AUDIO items: where the transcript came from, Whisper or YouTube's captions (the
    /// uploader's, or YouTube's speech recognition).
    transcript_source: Option<TranscriptSource>,
    /// The Whisper transcription started to replace a captions transcript, while it runs
    /// (its progress: `GET /api/transcription/jobs/{jobId}`).
    whisper_job_id: Option<String>,
    /// AUDIO items the transcription worker's quality guard marked 'Needs review': Whisper
    /// may have invented text or looped somewhere, and decoding it again did not fix it.
    needs_review: bool,
    /// Where and why, when `needsReview`.
    review: Option<review::ReviewView>,
    /// Search hits only: the matching passages, `<mark>`ed.
    #[serde(skip_serializing_if = "Option::is_none")]
    highlights: Option<Vec<String>>,
    /// Search hits on AUDIO items only: the matching segments; for a hit found by meaning,
    /// the stretch nearest the query, so the player starts where it is said.
    #[serde(skip_serializing_if = "Option::is_none")]
    matches: Option<Vec<SegmentMatchView>>,
    /// Search hits only: `keyword`, `meaning` (found by meaning alone: none of its words
    /// matched) or `both`.
    #[serde(skip_serializing_if = "Option::is_none")]
    found_by: Option<FoundByView>,
}

/// Which ranking found a search hit.
#[derive(Serialize, ToSchema, Clone, Copy, PartialEq, Eq, Debug)]
#[serde(rename_all = "camelCase")]
pub enum FoundByView {
    Keyword,
    Meaning,
    Both,
}

/// Where in a recording a search hit was said (seconds).
#[derive(Serialize, ToSchema)]
pub struct SegmentMatchView {
    start: f64,
    end: f64,
    text: String,
}

impl TranscriptView {
    /// A search hit: the item with its highlights and, for audio, its matching segments.
    pub(super) fn hit(item: pb::Transcript) -> Result<Self, ApiError> {
        let highlights = item.highlights.clone();
        let found_by = match item.found_by() {
            pb::FoundBy::Meaning => FoundByView::Meaning,
            pb::FoundBy::Both => FoundByView::Both,
            pb::FoundBy::Keyword | pb::FoundBy::Unspecified => FoundByView::Keyword,
        };
        let matches = item
            .matches
            .iter()
            .map(|segment| SegmentMatchView {
                start: segment.start,
                end: segment.end,
                text: segment.text.clone(),
            })
            .collect();
        let mut view = Self::try_from(item)?;
        view.highlights = Some(highlights);
        view.matches = (view.source_type == SourceType::Audio).then_some(matches);
        view.found_by = Some(found_by);
        Ok(view)
    }
}

impl TryFrom<pb::Transcript> for TranscriptView {
    type Error = ApiError;

    fn try_from(item: pb::Transcript) -> Result<Self, ApiError> {
        let review = review::ReviewView::from_proto(item.review)?;
        Ok(Self {
            needs_review: review.is_some(),
            review,
            source_type: SourceType::try_from(item.source_type)?,
            id: item.id,
            title: item.title,
            author: item.author,
            created_at: item.created_at,
            last_exported: item.last_exported,
            is_starred: item.is_starred,
            gwth_level: item.gwth_level,
            rating: item.rating,
            tags: item.tags,
            duration: item.duration_seconds,
            section_id: item.section_id,
            file_name: item.file_name,
            source_url: item.source_url,
            language: item.language,
            transcript_source: item
                .transcript_source
                .map(TranscriptSource::try_from)
                .transpose()?,
            whisper_job_id: item.whisper_job_id,
            highlights: None,
            matches: None,
            found_by: None,
        })
    }
}

/// A field that may be absent (keep), `null` (clear) or a value (set).
pub(super) fn present<'de, T, D>(deserializer: D) -> Result<Option<Option<T>>, D::Error>
where
    T: Deserialize<'de>,
    D: serde::Deserializer<'de>,
{
    Option::<T>::deserialize(deserializer).map(Some)
}

/// Every library route in the OpenAPI document.
pub(crate) struct Docs;

impl OpenApi for Docs {
    fn openapi() -> utoipa::openapi::OpenApi {
        let mut document = items::Docs::openapi();
        document.merge(exports::Docs::openapi());
        document.merge(organise::Docs::openapi());
        document.merge(audio::Docs::openapi());
        document.merge(whisper::Docs::openapi());
        document.merge(review::Docs::openapi());
        document.merge(related::Docs::openapi());
        document
    }
}

pub(super) fn routes() -> RouteList {
    items::routes()
        .merge(exports::routes())
        .merge(organise::routes())
        .merge(audio::routes())
        .merge(whisper::routes())
        .merge(review::routes())
        .merge(related::routes())
}
