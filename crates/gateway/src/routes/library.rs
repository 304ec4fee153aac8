//! `/api/library/*`: the Vault, served by the library service.

use actix_web::{HttpRequest, HttpResponse, web};
use scribevault_proto::library::v1 as pb;
use serde::{Deserialize, Serialize};

use crate::auth::AuthenticatedUser;
use crate::clients::{ServiceClients, on_behalf_of};
use crate::error::{ApiError, data};

/// A Vault item as the SPA expects it (spec §3, 'Library transcript').
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TranscriptView {
    id: String,
    title: String,
    author: String,
    created_at: String,
    last_exported: Option<String>,
    is_starred: bool,
    gwth_level: Option<i32>,
    source_type: String,
    rating: Option<i32>,
    tags: Vec<String>,
    duration: Option<f64>,
}

impl From<pb::Transcript> for TranscriptView {
    fn from(item: pb::Transcript) -> Self {
        Self {
            id: item.id,
            title: item.title,
            author: item.author,
            created_at: item.created_at,
            last_exported: item.last_exported,
            is_starred: item.is_starred,
            gwth_level: item.gwth_level,
            source_type: item.source_type,
            rating: item.rating,
            tags: item.tags,
            duration: item.duration_seconds,
        }
    }
}

fn parse_u32(name: &str, value: &str) -> Result<u32, ApiError> {
    value
        .parse()
        .map_err(|_| ApiError::bad_request(format!("{name} must be a positive whole number")))
}

/// `GET /api/library/transcripts?page=&limit=&sortBy=&sortOrder=&<filter>=…`
pub async fn list_transcripts(
    request: HttpRequest,
    user: AuthenticatedUser,
    clients: web::Data<ServiceClients>,
) -> Result<HttpResponse, ApiError> {
    let mut query = pb::ListTranscriptsRequest::default();
    let mut filters: Vec<pb::Filter> = Vec::new();
    for (key, value) in url::form_urlencoded::parse(request.query_string().as_bytes()) {
        match key.as_ref() {
            "page" => query.page = parse_u32("page", &value)?,
            "limit" => query.limit = parse_u32("limit", &value)?,
            "sortBy" => query.sort_by = value.into_owned(),
            "sortOrder" => query.sort_order = value.into_owned(),
            other => match filters.iter_mut().find(|filter| filter.key == other) {
                Some(filter) => filter.values.push(value.into_owned()),
                None => filters.push(pb::Filter {
                    key: other.to_owned(),
                    values: vec![value.into_owned()],
                }),
            },
        }
    }
    query.filters = filters;
    let page = clients
        .library
        .clone()
        .list_transcripts(on_behalf_of(&user.0, query)?)
        .await?
        .into_inner();
    let meta = page.meta.unwrap_or_default();
    let items: Vec<TranscriptView> = page.transcripts.into_iter().map(Into::into).collect();
    Ok(HttpResponse::Ok().json(serde_json::json!({
        "data": items,
        "meta": { "page": meta.page, "limit": meta.limit, "total": meta.total, "hasMore": meta.has_more },
    })))
}

/// `GET /api/library/stats`
pub async fn stats(
    user: AuthenticatedUser,
    clients: web::Data<ServiceClients>,
) -> Result<HttpResponse, ApiError> {
    let stats = clients
        .library
        .clone()
        .get_library_stats(on_behalf_of(&user.0, pb::GetLibraryStatsRequest {})?)
        .await?
        .into_inner();
    Ok(data(serde_json::json!({
        "totalTranscripts": stats.total_transcripts,
        "totalDuration": stats.total_duration,
        "storageUsed": stats.storage_used,
        "avgRating": stats.avg_rating,
        "thisMonth": stats.this_month,
        "export": { "totalExported": stats.total_exported, "topRatedCount": stats.top_rated_count },
    })))
}

/// `GET /api/library/transcripts/{id}/content`
pub async fn content(
    user: AuthenticatedUser,
    clients: web::Data<ServiceClients>,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let request = on_behalf_of(
        &user.0,
        pb::GetTranscriptContentRequest {
            id: id.into_inner(),
        },
    )?;
    let content = clients
        .library
        .clone()
        .get_transcript_content(request)
        .await?
        .into_inner();
    Ok(data(serde_json::json!({ "content": content.content })))
}

#[derive(Deserialize)]
pub struct RatingUpdate {
    rating: i32,
}

/// `PATCH /api/library/transcripts/{id}` with `{rating}`
pub async fn rate(
    user: AuthenticatedUser,
    clients: web::Data<ServiceClients>,
    id: web::Path<String>,
    body: web::Json<RatingUpdate>,
) -> Result<HttpResponse, ApiError> {
    let request = on_behalf_of(
        &user.0,
        pb::UpdateTranscriptRatingRequest {
            id: id.into_inner(),
            rating: body.rating,
        },
    )?;
    let item = clients
        .library
        .clone()
        .update_transcript_rating(request)
        .await?
        .into_inner();
    Ok(data(TranscriptView::from(item)))
}

#[derive(Deserialize)]
pub struct ContentUpdate {
    content: String,
}

/// `PUT /api/library/transcripts/{id}/content` with `{content}`
pub async fn update_content(
    user: AuthenticatedUser,
    clients: web::Data<ServiceClients>,
    id: web::Path<String>,
    body: web::Json<ContentUpdate>,
) -> Result<HttpResponse, ApiError> {
    let body = body.into_inner();
    let request = on_behalf_of(
        &user.0,
        pb::UpdateTranscriptContentRequest {
            id: id.into_inner(),
            content: body.content,
        },
    )?;
    let item = clients
        .library
        .clone()
        .update_transcript_content(request)
        .await?
        .into_inner();
    Ok(data(TranscriptView::from(item)))
}

/// `DELETE /api/library/transcripts/{id}`
pub async fn delete(
    user: AuthenticatedUser,
    clients: web::Data<ServiceClients>,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let id = id.into_inner();
    clients
        .library
        .clone()
        .delete_transcript(on_behalf_of(
            &user.0,
            pb::DeleteTranscriptRequest { id: id.clone() },
        )?)
        .await?;
    Ok(data(serde_json::json!({ "id": id, "deleted": true })))
}
