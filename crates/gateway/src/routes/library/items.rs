//! The Vault's items: the list and search, one item, its edits, and saves into the Vault.

use actix_web::{HttpRequest, HttpResponse, web};
use scribevault_bus::contract::{Distributions, ExportStats, LibraryStats, MeaningIndex};
use scribevault_proto::library::v1 as pb;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, OpenApi, ToSchema};

use super::{TranscriptView, list_query, present};
use crate::clients::UserClients;
use crate::error::{ApiError, Envelope, data};
use crate::routes::table::{Access, RouteList};

/// The list's query, read by `list_query` into the library's typed request (unknown keys and
/// malformed values are refused there, naming the key). Array filters repeat their key
/// (`tags=a&tags=b`).
#[derive(IntoParams)]
#[into_params(parameter_in = Query)]
#[allow(dead_code)] // read from the raw query string; this documents it
pub struct ListQuery {
    /// 1-based (default 1).
    page: Option<u32>,
    /// 1–100 (default 20).
    limit: Option<u32>,
    /// `createdAt` (default), `title`, `rating`, `lastExported`, or `relevance` with `q`.
    #[param(rename = "sortBy")]
    sort_by: Option<String>,
    /// `desc` (default) or `asc`.
    #[param(rename = "sortOrder")]
    sort_order: Option<String>,
    /// Full-text search: words, `"a phrase"`, `-excluded`, `prefix*`.
    q: Option<String>,
    /// How `q` finds items: `keyword` (the words as typed), `semantic` (by meaning, in any
    /// language; 503 when the server has no embedding model) or `hybrid` (default: both
    /// rankings fused; keyword alone while meaning is off or an item has no vectors yet).
    #[param(rename = "searchMode")]
    search_mode: Option<String>,
    /// Items carrying every one of these tags.
    tags: Option<Vec<String>>,
    /// `AUDIO`, `PDF`, `PDF_SOURCE`, `WEBSITE`, `WEBSITE_CONTENT`, `IMAGE` or `TEXT`; repeat for any of several.
    #[param(rename = "sourceType")]
    source_type: Option<Vec<String>>,
    #[param(rename = "isStarred")]
    is_starred: Option<bool>,
    /// Any of these ratings (1–5).
    rating: Option<Vec<i32>>,
    #[param(rename = "minRating")]
    min_rating: Option<i32>,
    /// Any of these gwth levels (1–5).
    #[param(rename = "gwthLevel")]
    gwth_level: Option<Vec<i32>>,
    exported: Option<bool>,
    /// RFC 3339.
    #[param(rename = "createdAfter")]
    created_after: Option<String>,
    /// RFC 3339.
    #[param(rename = "createdBefore")]
    created_before: Option<String>,
    /// A section's id, or `none` for items in no section.
    #[param(rename = "sectionId")]
    section_id: Option<String>,
    /// The item saved from this path.
    path: Option<String>,
    /// `true`: only the AUDIO items the quality guard marked 'Needs review'; `false`: only
    /// the others.
    #[param(rename = "needsReview")]
    needs_review: Option<bool>,
}

/// A page of the list.
#[derive(Serialize, ToSchema)]
pub struct TranscriptPage {
    data: Vec<TranscriptView>,
    meta: ListMeta,
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ListMeta {
    page: u32,
    limit: u32,
    total: u64,
    has_more: bool,
    /// Present (true) only when a search matched more items than it lists (the newest
    /// 1,000): `total` is then a lower bound.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    total_capped: bool,
}

/// The caller's Vault items, a page at a time, filtered, sorted or searched.
#[utoipa::path(
    get,
    path = "/api/library/transcripts",
    tag = "library",
    params(ListQuery),
    responses((status = 200, body = TranscriptPage))
)]
pub async fn list_transcripts(
    request: HttpRequest,
    services: UserClients,
) -> Result<HttpResponse, ApiError> {
    let query = list_query::list_request(request.query_string())?;
    let searching = query
        .search
        .as_deref()
        .is_some_and(|search| !search.is_empty());
    let page = services
        .library()
        .list_transcripts(query)
        .await?
        .into_inner();
    let meta = page.meta.unwrap_or_default();
    let data = page
        .transcripts
        .into_iter()
        .map(|item| {
            if searching {
                TranscriptView::hit(item)
            } else {
                TranscriptView::try_from(item)
            }
        })
        .collect::<Result<_, _>>()?;
    Ok(HttpResponse::Ok().json(TranscriptPage {
        data,
        meta: ListMeta {
            page: meta.page,
            limit: meta.limit,
            total: meta.total,
            has_more: meta.has_more,
            total_capped: meta.total_capped,
        },
    }))
}

/// Figures for the Vault's stats cards (the same shape as the `statsUpdate` event).
#[utoipa::path(get, path = "/api/library/stats", tag = "library", responses((status = 200, body = Envelope<LibraryStats>)))]
pub async fn stats(services: UserClients) -> Result<HttpResponse, ApiError> {
    let stats = services
        .library()
        .get_library_stats(pb::GetLibraryStatsRequest {})
        .await?
        .into_inner();
    let counts = |counts: Vec<pb::CountByKey>| {
        counts
            .into_iter()
            .map(|count| (count.key, count.count))
            .collect()
    };
    Ok(data(LibraryStats {
        total_transcripts: stats.total_transcripts,
        total_duration: stats.total_duration,
        storage_used: stats.storage_used,
        avg_rating: stats.avg_rating,
        this_month: stats.this_month,
        export: ExportStats {
            total_exported: stats.total_exported,
            top_rated_count: stats.top_rated_count,
            by_gwth_level: counts(stats.by_gwth_level),
            by_source_type: counts(stats.by_source_type),
        },
        distributions: Distributions {
            rating: counts(stats.rating_distribution),
            gwth_level: counts(stats.gwth_level_distribution),
            source_type: counts(stats.source_type_distribution),
        },
        meaning: stats.meaning.map(|meaning| MeaningIndex {
            enabled: meaning.enabled,
            embedded_items: meaning.embedded_items,
            total_items: meaning.total_items,
        }),
    }))
}

/// One of the caller's items.
#[utoipa::path(get, path = "/api/library/transcripts/{id}", tag = "library", params(("id" = String, Path)), responses((status = 200, body = Envelope<TranscriptView>)))]
pub async fn get(services: UserClients, id: web::Path<String>) -> Result<HttpResponse, ApiError> {
    let request = pb::GetTranscriptRequest {
        id: id.into_inner(),
    };
    let item = services.library().get_transcript(request).await?;
    Ok(data(TranscriptView::try_from(item.into_inner())?))
}

/// An item's text.
#[derive(Serialize, ToSchema)]
pub struct ContentView {
    /// Markdown (or the transcript's text).
    content: String,
}

/// An item's whole text.
#[utoipa::path(get, path = "/api/library/transcripts/{id}/content", tag = "library", params(("id" = String, Path)), responses((status = 200, body = Envelope<ContentView>)))]
pub async fn content(
    services: UserClients,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let request = pb::GetTranscriptContentRequest {
        id: id.into_inner(),
    };
    let content = services
        .library()
        .get_transcript_content(request)
        .await?
        .into_inner();
    Ok(data(ContentView {
        content: content.content,
    }))
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RatingUpdate {
    /// 1–5.
    rating: i32,
}

/// Rates an item.
#[utoipa::path(patch, path = "/api/library/transcripts/{id}", tag = "library", params(("id" = String, Path)), request_body = RatingUpdate, responses((status = 200, body = Envelope<TranscriptView>)))]
pub async fn rate(
    services: UserClients,
    id: web::Path<String>,
    body: web::Json<RatingUpdate>,
) -> Result<HttpResponse, ApiError> {
    let request = pb::UpdateTranscriptRatingRequest {
        id: id.into_inner(),
        rating: body.rating,
    };
    let item = services
        .library()
        .update_transcript_rating(request)
        .await?
        .into_inner();
    Ok(data(TranscriptView::try_from(item)?))
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ContentUpdate {
    content: String,
}

/// Replaces an item's text (the Vault's editor).
#[utoipa::path(put, path = "/api/library/transcripts/{id}/content", tag = "library", params(("id" = String, Path)), request_body = ContentUpdate, responses((status = 200, body = Envelope<TranscriptView>)))]
pub async fn update_content(
    services: UserClients,
    id: web::Path<String>,
    body: web::Json<ContentUpdate>,
) -> Result<HttpResponse, ApiError> {
    let request = pb::UpdateTranscriptContentRequest {
        id: id.into_inner(),
        content: body.into_inner().content,
    };
    let item = services
        .library()
        .update_transcript_content(request)
        .await?
        .into_inner();
    Ok(data(TranscriptView::try_from(item)?))
}

/// What a delete answers.
#[derive(Serialize, ToSchema)]
pub struct DeletedView {
    id: String,
    /// Always true.
    deleted: bool,
}

impl DeletedView {
    pub(super) fn of(id: String) -> Self {
        Self { id, deleted: true }
    }
}

/// Deletes an item.
#[utoipa::path(delete, path = "/api/library/transcripts/{id}", tag = "library", params(("id" = String, Path)), responses((status = 200, body = Envelope<DeletedView>)))]
pub async fn delete(
    services: UserClients,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let id = id.into_inner();
    services
        .library()
        .delete_transcript(pb::DeleteTranscriptRequest { id: id.clone() })
        .await?;
    Ok(data(DeletedView::of(id)))
}

/// The fields to change; absent ones are kept, `null` clears a score or the section.
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct MetadataUpdate {
    title: Option<String>,
    author: Option<String>,
    is_starred: Option<bool>,
    /// 1–5, or null to clear.
    #[serde(default, deserialize_with = "present")]
    gwth_level: Option<Option<i32>>,
    /// 1–5, or null to clear.
    #[serde(default, deserialize_with = "present")]
    rating: Option<Option<i32>>,
    /// Replaces the item's tags.
    tags: Option<Vec<String>>,
    /// A section's id, or null for none.
    #[serde(default, deserialize_with = "present")]
    section_id: Option<Option<String>>,
}

/// A 1–5 score for the wire: `0` asks the library to clear it, so a real 0 is refused here.
fn score(field: &str, value: Option<Option<i32>>) -> Result<Option<i32>, ApiError> {
    match value {
        None => Ok(None),
        Some(None) => Ok(Some(0)),
        Some(Some(score)) if (1..=5).contains(&score) => Ok(Some(score)),
        Some(Some(_)) => Err(ApiError::bad_request(format!(
            "{field} must be between 1 and 5"
        ))),
    }
}

/// Edits an item's title, author, star, scores, tags or section.
#[utoipa::path(put, path = "/api/library/transcripts/{id}/metadata", tag = "library", params(("id" = String, Path)), request_body = MetadataUpdate, responses((status = 200, body = Envelope<TranscriptView>)))]
pub async fn update_metadata(
    services: UserClients,
    id: web::Path<String>,
    body: web::Json<MetadataUpdate>,
) -> Result<HttpResponse, ApiError> {
    let body = body.into_inner();
    let section_id = match body.section_id {
        None => None,
        Some(None) => Some(String::new()),
        Some(Some(id)) if id.trim().is_empty() => {
            return Err(ApiError::bad_request("sectionId must not be empty"));
        }
        Some(Some(id)) => Some(id),
    };
    let request = pb::UpdateTranscriptMetadataRequest {
        id: id.into_inner(),
        title: body.title,
        author: body.author,
        is_starred: body.is_starred,
        gwth_level: score("gwthLevel", body.gwth_level)?,
        rating: score("rating", body.rating)?,
        replace_tags: body.tags.is_some(),
        tags: body.tags.unwrap_or_default(),
        section_id,
    };
    let item = services
        .library()
        .update_transcript_metadata(request)
        .await?;
    Ok(data(TranscriptView::try_from(item.into_inner())?))
}

/// Tags and a rating the library suggests for an item.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SuggestionsView {
    suggested_tags: Vec<String>,
    /// 1–5.
    suggested_rating: i32,
}

/// Tags and a rating suggested from the item's text.
#[utoipa::path(get, path = "/api/library/transcripts/{id}/suggestions", tag = "library", params(("id" = String, Path)), responses((status = 200, body = Envelope<SuggestionsView>)))]
pub async fn suggestions(
    services: UserClients,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let request = pb::GetTranscriptSuggestionsRequest {
        id: id.into_inner(),
    };
    let suggestions = services
        .library()
        .get_transcript_suggestions(request)
        .await?
        .into_inner();
    Ok(data(SuggestionsView {
        suggested_tags: suggestions.suggested_tags,
        suggested_rating: suggestions.suggested_rating,
    }))
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SavedFile {
    #[serde(default)]
    title: String,
    content: String,
    /// Where the file came from (`converted/…`); saving the same path again updates the item.
    #[serde(default)]
    path: String,
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct VaultSave {
    files: Vec<SavedFile>,
}

/// Saves markdown files into the Vault as items (again for the same path: updated).
#[utoipa::path(post, path = "/api/vault/save", tag = "library", request_body = VaultSave, responses((status = 200, body = Envelope<Vec<TranscriptView>>)))]
pub async fn save_to_vault(
    services: UserClients,
    body: web::Json<VaultSave>,
) -> Result<HttpResponse, ApiError> {
    let files = body
        .into_inner()
        .files
        .into_iter()
        .map(|file| pb::VaultFile {
            title: file.title,
            content: file.content,
            path: file.path,
        })
        .collect();
    let saved = services
        .library()
        .save_to_vault(pb::SaveToVaultRequest { files })
        .await?
        .into_inner()
        .saved;
    Ok(data(
        saved
            .into_iter()
            .map(TranscriptView::try_from)
            .collect::<Result<Vec<_>, _>>()?,
    ))
}

#[derive(OpenApi)]
#[openapi(paths(
    list_transcripts,
    stats,
    get,
    content,
    rate,
    update_content,
    delete,
    update_metadata,
    suggestions,
    save_to_vault
))]
pub(super) struct Docs;

pub(super) fn routes() -> RouteList {
    use Access::SignedIn;
    RouteList::default()
        .add::<__path_list_transcripts>(SignedIn, || web::to(list_transcripts))
        .add::<__path_stats>(SignedIn, || web::to(stats))
        .add::<__path_get>(SignedIn, || web::to(get))
        .add::<__path_rate>(SignedIn, || web::to(rate))
        .add::<__path_delete>(SignedIn, || web::to(delete))
        .add::<__path_update_metadata>(SignedIn, || web::to(update_metadata))
        .add::<__path_suggestions>(SignedIn, || web::to(suggestions))
        .add::<__path_content>(SignedIn, || web::to(content))
        .add::<__path_update_content>(SignedIn, || web::to(update_content))
        .with_document_body()
        .add::<__path_save_to_vault>(SignedIn, || web::to(save_to_vault))
        .with_document_body()
}
