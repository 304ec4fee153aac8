//! `/api/sources*`: the channels and playlists a user follows, served by the discovery service.
//! Unlike the spec's client, listing needs the caller's token: sources are private.

use actix_web::{HttpResponse, web};
use scribevault_proto::discovery::v1 as pb;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, OpenApi, ToSchema};

use crate::clients::UserClients;
use crate::error::{ApiError, Envelope, created, data};
use crate::routes::discovery::VideoView;
use crate::routes::table::{Access, RouteList};

/// A source as the SPA shows it (docs/product-spec.md §3, 'Source').
#[derive(Serialize, ToSchema)]
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

/// The caller's sources, newest first.
#[utoipa::path(get, path = "/api/sources", tag = "sources", responses((status = 200, body = Envelope<Vec<SourceView>>)))]
pub async fn list(services: UserClients) -> Result<HttpResponse, ApiError> {
    let sources = services
        .discovery()
        .list_sources(pb::ListSourcesRequest {})
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
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct NewSource {
    #[serde(default)]
    url: String,
    /// Answer the caller's existing source for this list (synced) instead of 409.
    #[serde(default)]
    reuse_existing: bool,
}

/// Follows a channel or playlist by its URL.
#[utoipa::path(post, path = "/api/sources", tag = "sources", request_body = NewSource, responses(
    (status = 201, body = Envelope<SourceView>),
    (status = 409, description = "The caller already has this source (without `reuseExisting`)", body = crate::routes::openapi::ErrorBody),
))]
pub async fn create(
    services: UserClients,
    body: web::Json<NewSource>,
) -> Result<HttpResponse, ApiError> {
    let body = body.into_inner();
    let source = services
        .discovery()
        .create_source(pb::CreateSourceRequest {
            url: body.url,
            reuse_existing: body.reuse_existing,
        })
        .await?
        .into_inner();
    Ok(created(SourceView::from(source)))
}

/// Stops following a source.
#[utoipa::path(delete, path = "/api/sources/{id}", tag = "sources", params(("id" = String, Path)), responses((status = 204, description = "Deleted")))]
pub async fn delete(
    services: UserClients,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    services
        .discovery()
        .delete_source(pb::SourceRef {
            id: id.into_inner(),
        })
        .await?;
    Ok(HttpResponse::NoContent().finish())
}

/// `?pageToken=` of a source's videos.
#[derive(Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(parameter_in = Query)]
pub struct VideosQuery {
    /// From the previous page's `meta.nextPageToken`.
    #[serde(default)]
    page_token: String,
}

/// A page of a source's videos.
#[utoipa::path(get, path = "/api/sources/{id}/videos", tag = "sources", params(("id" = String, Path), VideosQuery), responses((status = 200, body = SourceVideosPage)))]
pub async fn videos(
    services: UserClients,
    id: web::Path<String>,
    query: web::Query<VideosQuery>,
) -> Result<HttpResponse, ApiError> {
    let page = services
        .discovery()
        .list_source_videos(pb::ListSourceVideosRequest {
            source_id: id.into_inner(),
            page_token: query.into_inner().page_token,
        })
        .await?
        .into_inner();
    Ok(HttpResponse::Ok().json(SourceVideosPage {
        data: page.videos.into_iter().map(VideoView::from).collect(),
        meta: PageMeta {
            next_page_token: (!page.next_page_token.is_empty()).then_some(page.next_page_token),
            has_more: page.has_more,
        },
    }))
}

/// A page of a source's videos.
#[derive(Serialize, ToSchema)]
pub struct SourceVideosPage {
    data: Vec<VideoView>,
    meta: PageMeta,
}

/// Where the next page starts.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PageMeta {
    next_page_token: Option<String>,
    has_more: bool,
}

#[derive(OpenApi)]
#[openapi(paths(list, create, delete, videos))]
pub(crate) struct Docs;

pub(super) fn routes() -> RouteList {
    use Access::SignedIn;
    RouteList::default()
        .add::<__path_list>(SignedIn, || web::to(list))
        .add::<__path_create>(SignedIn, || web::to(create))
        .add::<__path_delete>(SignedIn, || web::to(delete))
        .add::<__path_videos>(SignedIn, || web::to(videos))
}
