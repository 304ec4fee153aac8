//! `/api/sources*`: the channels and playlists a user follows, served by the discovery service.
//! Unlike the spec's client, listing needs the caller's token: sources are private.

use actix_web::{HttpResponse, web};
use scribevault_proto::discovery::v1 as pb;
use serde::{Deserialize, Serialize};

use crate::auth::AuthenticatedUser;
use crate::clients::{ServiceClients, on_behalf_of};
use crate::error::{ApiError, data};
use crate::routes::discovery::VideoView;

/// A source as the SPA shows it (spec §3, 'Source').
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SourceView {
    id: String,
    r#type: String,
    title: String,
    thumbnail_url: String,
    url: String,
    created_at: String,
}

impl From<pb::Source> for SourceView {
    fn from(source: pb::Source) -> Self {
        Self {
            id: source.id,
            r#type: source.r#type,
            title: source.title,
            thumbnail_url: source.thumbnail_url,
            url: source.url,
            created_at: source.created_at,
        }
    }
}

/// `GET /api/sources`
pub async fn list(
    user: AuthenticatedUser,
    clients: web::Data<ServiceClients>,
) -> Result<HttpResponse, ApiError> {
    let sources = clients
        .discovery
        .clone()
        .list_sources(on_behalf_of(&user.0, pb::ListSourcesRequest {})?)
        .await?
        .into_inner()
        .sources;
    Ok(data(
        sources
            .into_iter()
            .map(SourceView::from)
            .collect::<Vec<_>>(),
    ))
}

/// The body of `POST /api/sources`.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CreateBody {
    #[serde(default)]
    url: String,
    /// Answer the caller's existing source for this list (synced) instead of 409.
    #[serde(default)]
    reuse_existing: bool,
}

/// `POST /api/sources` `{url, reuseExisting?}`: 201 with the source.
pub async fn create(
    user: AuthenticatedUser,
    clients: web::Data<ServiceClients>,
    body: web::Json<CreateBody>,
) -> Result<HttpResponse, ApiError> {
    let body = body.into_inner();
    let source = clients
        .discovery
        .clone()
        .create_source(on_behalf_of(
            &user.0,
            pb::CreateSourceRequest {
                url: body.url,
                reuse_existing: body.reuse_existing,
            },
        )?)
        .await?
        .into_inner();
    Ok(HttpResponse::Created().json(serde_json::json!({ "data": SourceView::from(source) })))
}

/// `DELETE /api/sources/{id}`: 204.
pub async fn delete(
    user: AuthenticatedUser,
    clients: web::Data<ServiceClients>,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    clients
        .discovery
        .clone()
        .delete_source(on_behalf_of(
            &user.0,
            pb::SourceRef {
                id: id.into_inner(),
            },
        )?)
        .await?;
    Ok(HttpResponse::NoContent().finish())
}

/// `?pageToken=` of a source's videos.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct VideosQuery {
    #[serde(default)]
    page_token: String,
}

/// `GET /api/sources/{id}/videos?pageToken=`: `data[]` and `meta {nextPageToken, hasMore}`.
pub async fn videos(
    user: AuthenticatedUser,
    clients: web::Data<ServiceClients>,
    id: web::Path<String>,
    query: web::Query<VideosQuery>,
) -> Result<HttpResponse, ApiError> {
    let page = clients
        .discovery
        .clone()
        .list_source_videos(on_behalf_of(
            &user.0,
            pb::ListSourceVideosRequest {
                source_id: id.into_inner(),
                page_token: query.into_inner().page_token,
            },
        )?)
        .await?
        .into_inner();
    Ok(HttpResponse::Ok().json(serde_json::json!({
        "data": page.videos.into_iter().map(VideoView::from).collect::<Vec<_>>(),
        "meta": {
            "nextPageToken": (!page.next_page_token.is_empty()).then_some(page.next_page_token),
            "hasMore": page.has_more,
        },
    })))
}
