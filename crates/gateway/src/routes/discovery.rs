//! `/api/youtube-discovery/*`: channel searches, exports and the API quota, served by the
//! discovery service.

use actix_web::http::header::{ContentDisposition, DispositionParam, DispositionType};
use actix_web::{HttpResponse, web};
use scribevault_proto::discovery::v1 as pb;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, OpenApi, ToSchema};

use crate::clients::UserClients;
use crate::error::{ApiError, Envelope, data};
use crate::routes::table::{Access, RouteList};

/// A video as the SPA lists it (docs/product-spec.md §3, 'Video').
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct VideoView {
    youtube_video_id: String,
    title: String,
    channel_title: String,
    duration: f64,
    published_at: String,
    url: String,
}

impl From<pb::Video> for VideoView {
    fn from(video: pb::Video) -> Self {
        Self {
            youtube_video_id: video.youtube_video_id,
            title: video.title,
            channel_title: video.channel_title,
            duration: video.duration_seconds,
            published_at: video.published_at,
            url: video.url,
        }
    }
}

/// `?limit=&refresh=` of a channel search; both optional.
#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct SearchQuery {
    /// How many of the newest videos (default 100).
    limit: Option<i32>,
    /// Ask YouTube again instead of answering from the cache.
    refresh: Option<bool>,
}

/// The body of a channel search.
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SearchBody {
    #[serde(default)]
    channel_url: String,
}

/// A channel's newest videos, from a channel URL, handle or id (cached; `refresh` asks
/// YouTube again).
#[utoipa::path(
    post,
    path = "/api/youtube-discovery/channel-videos",
    tag = "discovery",
    params(SearchQuery),
    request_body = SearchBody,
    responses((status = 200, body = Envelope<ChannelVideosView>))
)]
pub async fn channel_videos(
    services: UserClients,
    query: web::Query<SearchQuery>,
    body: web::Json<SearchBody>,
) -> Result<HttpResponse, ApiError> {
    let found = services
        .discovery()
        .get_channel_videos(pb::GetChannelVideosRequest {
            channel_url: body.into_inner().channel_url,
            limit: query.limit.unwrap_or(100),
            refresh: query.refresh.unwrap_or(false),
        })
        .await?
        .into_inner();
    let channel = found.channel.unwrap_or_default();
    Ok(data(ChannelVideosView {
        videos: found.videos.into_iter().map(VideoView::from).collect(),
        channel: ChannelView {
            id: channel.id,
            title: channel.title,
            thumbnails: Thumbnails {
                high: Thumbnail {
                    url: channel.thumbnail_url,
                },
            },
            subscriber_count: channel.subscriber_count,
            video_count: channel.video_count,
        },
        new_count: found.new_count,
    }))
}

/// A channel search's answer.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ChannelVideosView {
    videos: Vec<VideoView>,
    channel: ChannelView,
    /// Videos not seen in this channel's previous search.
    new_count: u32,
}

/// The channel searched, in the shape of YouTube's own `snippet` (docs/product-spec.md §3).
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ChannelView {
    id: String,
    title: String,
    thumbnails: Thumbnails,
    /// Absent when the channel hides it.
    subscriber_count: Option<u64>,
    video_count: u64,
}

#[derive(Serialize, ToSchema)]
pub struct Thumbnails {
    high: Thumbnail,
}

#[derive(Serialize, ToSchema)]
pub struct Thumbnail {
    url: String,
}

/// The body of an export.
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ExportBody {
    #[serde(default)]
    video_ids: Vec<String>,
    #[serde(default)]
    export_type: String,
}

/// The chosen videos as a CSV attachment.
#[utoipa::path(
    post,
    path = "/api/youtube-discovery/export",
    tag = "discovery",
    request_body = ExportBody,
    responses((status = 200, description = "The CSV file", content_type = "text/csv", body = String))
)]
pub async fn export(
    services: UserClients,
    body: web::Json<ExportBody>,
) -> Result<HttpResponse, ApiError> {
    let body = body.into_inner();
    let file = services
        .discovery()
        .export_videos(pb::ExportVideosRequest {
            video_ids: body.video_ids,
            export_type: body.export_type,
        })
        .await?
        .into_inner();
    Ok(HttpResponse::Ok()
        .content_type("text/csv; charset=utf-8")
        .insert_header(ContentDisposition {
            disposition: DispositionType::Attachment,
            parameters: vec![DispositionParam::Filename(file.filename)],
        })
        .body(file.csv))
}

/// How much of today's YouTube API quota is used, and when it resets.
#[utoipa::path(get, path = "/api/youtube-discovery/quota", tag = "discovery", responses((status = 200, body = Envelope<QuotaView>)))]
pub async fn quota(services: UserClients) -> Result<HttpResponse, ApiError> {
    let usage = services
        .discovery()
        .get_quota_usage(pb::GetQuotaUsageRequest {})
        .await?
        .into_inner();
    Ok(data(QuotaView {
        used: usage.used,
        limit: usage.limit,
        resets_at: usage.resets_at,
    }))
}

/// Today's YouTube API quota of the instance's keys.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct QuotaView {
    used: u64,
    limit: u64,
    /// RFC 3339.
    resets_at: String,
}

#[derive(OpenApi)]
#[openapi(paths(channel_videos, export, quota))]
pub(crate) struct Docs;

pub(super) fn routes() -> RouteList {
    use Access::SignedIn;
    RouteList::default()
        .add::<__path_channel_videos>(SignedIn, || web::to(channel_videos))
        .add::<__path_export>(SignedIn, || web::to(export))
        .add::<__path_quota>(SignedIn, || web::to(quota))
}
