//! `/api/youtube-discovery/*`: channel searches, exports and the API quota, served by the
//! discovery service.

use actix_web::http::header::{ContentDisposition, DispositionParam, DispositionType};
use actix_web::{HttpResponse, web};
use scribevault_proto::discovery::v1 as pb;
use serde::{Deserialize, Serialize};

use crate::auth::AuthenticatedUser;
use crate::clients::{ServiceClients, on_behalf_of};
use crate::error::{ApiError, data};

/// A video as the SPA lists it (spec §3, 'Video').
#[derive(Serialize)]
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
#[derive(Deserialize)]
pub struct SearchQuery {
    limit: Option<i32>,
    refresh: Option<bool>,
}

/// The body of a channel search.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SearchBody {
    #[serde(default)]
    channel_url: String,
}

/// `POST /api/youtube-discovery/channel-videos?limit=&refresh=` `{channelUrl}`
pub async fn channel_videos(
    user: AuthenticatedUser,
    clients: web::Data<ServiceClients>,
    query: web::Query<SearchQuery>,
    body: web::Json<SearchBody>,
) -> Result<HttpResponse, ApiError> {
    let found = clients
        .discovery
        .clone()
        .get_channel_videos(on_behalf_of(
            &user.0,
            pb::GetChannelVideosRequest {
                channel_url: body.into_inner().channel_url,
                limit: query.limit.unwrap_or(100),
                refresh: query.refresh.unwrap_or(false),
            },
        )?)
        .await?
        .into_inner();
    let channel = found.channel.unwrap_or_default();
    Ok(data(serde_json::json!({
        "videos": found.videos.into_iter().map(VideoView::from).collect::<Vec<_>>(),
        "channel": {
            "id": channel.id,
            "title": channel.title,
            "thumbnails": { "high": { "url": channel.thumbnail_url } },
            "subscriberCount": channel.subscriber_count,
            "videoCount": channel.video_count,
        },
        "newCount": found.new_count,
    })))
}

/// The body of an export.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ExportBody {
    #[serde(default)]
    video_ids: Vec<String>,
    #[serde(default)]
    export_type: String,
}

/// `POST /api/youtube-discovery/export` `{videoIds, exportType}`: a CSV attachment.
pub async fn export(
    user: AuthenticatedUser,
    clients: web::Data<ServiceClients>,
    body: web::Json<ExportBody>,
) -> Result<HttpResponse, ApiError> {
    let body = body.into_inner();
    let file = clients
        .discovery
        .clone()
        .export_videos(on_behalf_of(
            &user.0,
            pb::ExportVideosRequest {
                video_ids: body.video_ids,
                export_type: body.export_type,
            },
        )?)
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

/// `GET /api/youtube-discovery/quota`: `{used, limit, resetsAt}` of the YouTube API keys today.
pub async fn quota(
    user: AuthenticatedUser,
    clients: web::Data<ServiceClients>,
) -> Result<HttpResponse, ApiError> {
    let usage = clients
        .discovery
        .clone()
        .get_quota_usage(on_behalf_of(&user.0, pb::GetQuotaUsageRequest {})?)
        .await?
        .into_inner();
    Ok(data(serde_json::json!({
        "used": usage.used,
        "limit": usage.limit,
        "resetsAt": usage.resets_at,
    })))
}
