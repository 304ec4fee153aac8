//! Thin gRPC adapter: proto in, domain call, proto out. Download jobs and schedules keep
//! tonic's default `UNIMPLEMENTED` answer until their issue lands.

use scribevault_core::identity::caller;
use scribevault_proto::discovery::v1 as pb;
use tonic::{Request, Response, Status};

use crate::domain::{Channel, Source, Video};
use crate::service::Discovery;

/// Serves [`Discovery`] over gRPC.
pub struct DiscoveryGrpc {
    discovery: Discovery,
}

impl DiscoveryGrpc {
    pub fn new(discovery: Discovery) -> Self {
        Self { discovery }
    }
}

fn video_to_proto(video: Video) -> pb::Video {
    pb::Video {
        url: video.url(),
        youtube_video_id: video.youtube_video_id,
        title: video.title,
        channel_title: video.channel_title,
        #[allow(clippy::cast_precision_loss)] // durations are far below 2^52 seconds
        duration_seconds: video.duration_seconds as f64,
        published_at: video.published_at.to_rfc3339(),
    }
}

fn channel_to_proto(channel: Channel) -> pb::Channel {
    pb::Channel {
        title: channel.title,
        thumbnail_url: channel.thumbnail_url,
        subscriber_count: channel.subscriber_count,
        video_count: channel.video_count,
        id: channel.id,
    }
}

fn source_to_proto(source: Source) -> pb::Source {
    pb::Source {
        id: source.id,
        r#type: source.kind.as_str().to_owned(),
        title: source.title,
        thumbnail_url: source.thumbnail_url,
        url: source.url,
        created_at: source.created_at.to_rfc3339(),
    }
}

#[tonic::async_trait]
impl pb::discovery_service_server::DiscoveryService for DiscoveryGrpc {
    async fn get_channel_videos(
        &self,
        request: Request<pb::GetChannelVideosRequest>,
    ) -> Result<Response<pb::GetChannelVideosResponse>, Status> {
        caller(&request)?;
        let query = request.into_inner();
        let found = self
            .discovery
            .channel_videos(&query.channel_url, query.limit, query.refresh)
            .await?;
        Ok(Response::new(pb::GetChannelVideosResponse {
            videos: found.videos.into_iter().map(video_to_proto).collect(),
            channel: Some(channel_to_proto(found.channel)),
            new_count: found.new_count,
        }))
    }

    async fn export_videos(
        &self,
        request: Request<pb::ExportVideosRequest>,
    ) -> Result<Response<pb::ExportVideosResponse>, Status> {
        caller(&request)?;
        let query = request.into_inner();
        let file = self
            .discovery
            .export(&query.video_ids, &query.export_type)
            .await?;
        Ok(Response::new(pb::ExportVideosResponse {
            filename: file.filename,
            csv: file.csv.into(),
        }))
    }

    async fn get_quota_usage(
        &self,
        request: Request<pb::GetQuotaUsageRequest>,
    ) -> Result<Response<pb::QuotaUsage>, Status> {
        caller(&request)?;
        let usage = self.discovery.quota_usage().await?;
        Ok(Response::new(pb::QuotaUsage {
            used: usage.used,
            limit: usage.limit,
            resets_at: usage.resets_at.to_rfc3339(),
        }))
    }

    async fn list_sources(
        &self,
        request: Request<pb::ListSourcesRequest>,
    ) -> Result<Response<pb::ListSourcesResponse>, Status> {
        let user = caller(&request)?;
        let sources = self.discovery.sources(&user).await?;
        Ok(Response::new(pb::ListSourcesResponse {
            sources: sources.into_iter().map(source_to_proto).collect(),
        }))
    }

    async fn create_source(
        &self,
        request: Request<pb::CreateSourceRequest>,
    ) -> Result<Response<pb::Source>, Status> {
        let user = caller(&request)?;
        let source = self
            .discovery
            .add_source(&user, &request.into_inner().url)
            .await?;
        Ok(Response::new(source_to_proto(source)))
    }

    async fn delete_source(
        &self,
        request: Request<pb::SourceRef>,
    ) -> Result<Response<pb::DeleteSourceResponse>, Status> {
        let user = caller(&request)?;
        self.discovery
            .delete_source(&user, &request.into_inner().id)
            .await?;
        Ok(Response::new(pb::DeleteSourceResponse {}))
    }

    async fn list_source_videos(
        &self,
        request: Request<pb::ListSourceVideosRequest>,
    ) -> Result<Response<pb::ListSourceVideosResponse>, Status> {
        let user = caller(&request)?;
        let query = request.into_inner();
        let page = self
            .discovery
            .source_videos(&user, &query.source_id, &query.page_token)
            .await?;
        Ok(Response::new(pb::ListSourceVideosResponse {
            has_more: page.next_page_token.is_some(),
            next_page_token: page.next_page_token.unwrap_or_default(),
            videos: page.videos.into_iter().map(video_to_proto).collect(),
        }))
    }
}
