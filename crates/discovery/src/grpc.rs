//! Thin gRPC adapter: proto in, domain call, proto out.

use scribevault_bus::contract;
use scribevault_core::identity::caller;
use scribevault_proto::discovery::v1 as pb;
use tonic::{Request, Response, Status};

use crate::domain::downloads::{DownloadJob, SyncPreferences};
use crate::domain::schedules::{Schedule, ScheduleChanges};
use crate::domain::{Channel, Source, Video};
use crate::service::Discovery;
use crate::service::NewDownloadJob;
use crate::service::NewSchedule;

fn rfc3339(at: chrono::DateTime<chrono::Utc>) -> String {
    at.to_rfc3339_opts(chrono::SecondsFormat::Millis, true)
}

fn job_to_proto(job: DownloadJob) -> pb::DownloadJob {
    pb::DownloadJob {
        progress: job.progress(),
        id: job.id,
        status: pb::DownloadStatus::from(contract::DownloadStatus::from(job.status)).into(),
        total_videos: job.total_videos,
        processed_videos: job.processed_videos,
        error_message: job.error_message,
        started_at: job.started_at.map(rfc3339),
        completed_at: job.completed_at.map(rfc3339),
        source_id: job.source_id,
        source_title: job.source_title,
        failed_videos: job.failed_videos,
        created_at: rfc3339(job.created_at),
        transcribe: job.transcribe.is_some(),
        use_captions: job.use_captions,
        current_video: job.current.map(|current| pb::CurrentVideo {
            video_id: current.video_id,
            title: current.title,
            percent: current.percent,
        }),
    }
}

fn schedule_to_proto(schedule: Schedule) -> pb::Schedule {
    pb::Schedule {
        id: schedule.id,
        source_id: schedule.source_id,
        source: Some(pb::ScheduleSource {
            r#type: schedule.source.kind.as_str().to_owned(),
            title: schedule.source.title,
            thumbnail_url: schedule.source.thumbnail_url,
        }),
        frequency: schedule.timing.frequency.as_str().to_owned(),
        time_of_day: scribevault_core::local_time::format_time_of_day(schedule.timing.time_of_day),
        timezone: schedule.timing.zone.name().to_owned(),
        is_active: schedule.is_active,
        use_captions: schedule.use_captions,
        next_run_at: schedule.next_run_at.map(rfc3339),
        last_run_at: schedule.last_run_at.map(rfc3339),
        created_at: rfc3339(schedule.created_at),
    }
}

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
        let user = caller(&request)?;
        let query = request.into_inner();
        let found = self
            .discovery
            .channel_videos(&user, &query.channel_url, query.limit, query.refresh)
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
        let request = request.into_inner();
        let source = self
            .discovery
            .add_source(&user, &request.url, request.reuse_existing)
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

    async fn list_download_jobs(
        &self,
        request: Request<pb::ListDownloadJobsRequest>,
    ) -> Result<Response<pb::ListDownloadJobsResponse>, Status> {
        let user = caller(&request)?;
        let jobs = self.discovery.download_jobs(&user).await?;
        Ok(Response::new(pb::ListDownloadJobsResponse {
            jobs: jobs.into_iter().map(job_to_proto).collect(),
        }))
    }

    async fn create_download_job(
        &self,
        request: Request<pb::CreateDownloadJobRequest>,
    ) -> Result<Response<pb::DownloadJob>, Status> {
        let user = caller(&request)?;
        let request = request.into_inner();
        let job = self
            .discovery
            .create_download_job(
                &user,
                NewDownloadJob {
                    source_id: request.source_id,
                    video_ids: request.video_ids,
                    transcribe: request.transcribe,
                    model: request.model,
                    output_format: request.output_format,
                    use_captions: request.use_captions,
                },
            )
            .await?;
        Ok(Response::new(job_to_proto(job)))
    }

    async fn cancel_download_job(
        &self,
        request: Request<pb::DownloadJobRef>,
    ) -> Result<Response<pb::DownloadJob>, Status> {
        let user = caller(&request)?;
        let job = self
            .discovery
            .cancel_download_job(&user, &request.into_inner().id)
            .await?;
        Ok(Response::new(job_to_proto(job)))
    }

    async fn retry_download_job(
        &self,
        request: Request<pb::DownloadJobRef>,
    ) -> Result<Response<pb::DownloadJob>, Status> {
        let user = caller(&request)?;
        let job = self
            .discovery
            .retry_download_job(&user, &request.into_inner().id)
            .await?;
        Ok(Response::new(job_to_proto(job)))
    }

    async fn set_sync_preferences(
        &self,
        request: Request<pb::SetSyncPreferencesRequest>,
    ) -> Result<Response<pb::SetSyncPreferencesResponse>, Status> {
        let user = caller(&request)?;
        let request = request.into_inner();
        self.discovery
            .set_sync_preferences(
                &user,
                SyncPreferences {
                    auto_download: request.auto_download,
                    use_captions: request.use_captions,
                },
            )
            .await?;
        Ok(Response::new(pb::SetSyncPreferencesResponse {}))
    }

    async fn delete_user_data(
        &self,
        request: Request<pb::DeleteUserDataRequest>,
    ) -> Result<Response<pb::DeleteUserDataResponse>, Status> {
        let user = caller(&request)?;
        let rows_deleted = self.discovery.delete_user_data(&user).await?;
        Ok(Response::new(pb::DeleteUserDataResponse {
            rows_deleted,
            // Discovery keeps no objects: downloaded audio is storage's.
            blobs_deleted: 0,
        }))
    }

    async fn list_schedules(
        &self,
        request: Request<pb::ListSchedulesRequest>,
    ) -> Result<Response<pb::ListSchedulesResponse>, Status> {
        let user = caller(&request)?;
        let schedules = self.discovery.schedules(&user).await?;
        Ok(Response::new(pb::ListSchedulesResponse {
            schedules: schedules.into_iter().map(schedule_to_proto).collect(),
        }))
    }

    async fn create_schedule(
        &self,
        request: Request<pb::CreateScheduleRequest>,
    ) -> Result<Response<pb::Schedule>, Status> {
        let user = caller(&request)?;
        let request = request.into_inner();
        let schedule = self
            .discovery
            .create_schedule(
                &user,
                NewSchedule {
                    source_id: request.source_id,
                    frequency: request.frequency,
                    time_of_day: request.time_of_day,
                    timezone: request.timezone,
                    use_captions: request.use_captions,
                },
            )
            .await?;
        Ok(Response::new(schedule_to_proto(schedule)))
    }

    async fn update_schedule(
        &self,
        request: Request<pb::UpdateScheduleRequest>,
    ) -> Result<Response<pb::Schedule>, Status> {
        let user = caller(&request)?;
        let request = request.into_inner();
        let schedule = self
            .discovery
            .update_schedule(
                &user,
                &request.id,
                ScheduleChanges {
                    source_id: request.source_id,
                    frequency: request.frequency,
                    time_of_day: request.time_of_day,
                    timezone: request.timezone,
                    is_active: request.is_active,
                    use_captions: request.use_captions,
                },
            )
            .await?;
        Ok(Response::new(schedule_to_proto(schedule)))
    }

    async fn delete_schedule(
        &self,
        request: Request<pb::ScheduleRef>,
    ) -> Result<Response<pb::DeleteScheduleResponse>, Status> {
        let user = caller(&request)?;
        self.discovery
            .delete_schedule(&user, &request.into_inner().id)
            .await?;
        Ok(Response::new(pb::DeleteScheduleResponse {}))
    }

    async fn run_schedule(
        &self,
        request: Request<pb::ScheduleRef>,
    ) -> Result<Response<pb::RunScheduleResponse>, Status> {
        let user = caller(&request)?;
        let (schedule, new_videos) = self
            .discovery
            .run_schedule_now(&user, &request.into_inner().id)
            .await?;
        Ok(Response::new(pb::RunScheduleResponse {
            schedule: Some(schedule_to_proto(schedule)),
            new_videos: u32::try_from(new_videos).unwrap_or(u32::MAX),
        }))
    }
}
