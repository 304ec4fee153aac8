//! `/api/downloads*`: download jobs, run by the discovery service.

use actix_web::{HttpResponse, web};
use scribevault_bus::contract::DownloadStatus;
use scribevault_proto::discovery::v1 as pb;
use serde::{Deserialize, Serialize};
use utoipa::{OpenApi, ToSchema};

use crate::clients::UserClients;
use crate::error::{ApiError, Envelope, created, data};
use crate::routes::table::{Access, RouteList};

/// A job as the SPA shows it (docs/product-spec.md §3, 'Download job').
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DownloadJobView {
    id: String,
    source_id: String,
    source_title: String,
    status: DownloadStatus,
    total_videos: u32,
    processed_videos: u32,
    failed_videos: u32,
    progress: u32,
    error_message: Option<String>,
    started_at: Option<String>,
    completed_at: Option<String>,
    created_at: String,
    transcribe: bool,
    /// A video with YouTube captions in its original language becomes a Vault item from them.
    use_captions: bool,
    current_video: Option<CurrentVideoView>,
}

/// The video being downloaded now.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CurrentVideoView {
    video_id: String,
    title: String,
    percent: u32,
}

impl TryFrom<pb::DownloadJob> for DownloadJobView {
    type Error = ApiError;

    fn try_from(job: pb::DownloadJob) -> Result<Self, ApiError> {
        Ok(Self {
            status: DownloadStatus::try_from(job.status)?,
            id: job.id,
            source_id: job.source_id,
            source_title: job.source_title,
            total_videos: job.total_videos,
            processed_videos: job.processed_videos,
            failed_videos: job.failed_videos,
            progress: job.progress,
            error_message: job.error_message,
            started_at: job.started_at,
            completed_at: job.completed_at,
            created_at: job.created_at,
            transcribe: job.transcribe,
            use_captions: job.use_captions,
            current_video: job.current_video.map(|current| CurrentVideoView {
                video_id: current.video_id,
                title: current.title,
                percent: current.percent,
            }),
        })
    }
}

/// The caller's download jobs, newest first.
#[utoipa::path(get, path = "/api/downloads", tag = "downloads", responses((status = 200, body = Envelope<Vec<DownloadJobView>>)))]
pub async fn list(services: UserClients) -> Result<HttpResponse, ApiError> {
    let jobs = services
        .discovery()
        .list_download_jobs(pb::ListDownloadJobsRequest {})
        .await?
        .into_inner()
        .jobs;
    Ok(data(
        jobs.into_iter()
            .map(DownloadJobView::try_from)
            .collect::<Result<Vec<_>, _>>()?,
    ))
}

/// The body of `POST /api/downloads`.
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct NewDownloadJob {
    #[serde(default)]
    source_id: String,
    #[serde(default)]
    video_ids: Vec<String>,
    #[serde(default)]
    transcribe: bool,
    #[serde(default)]
    model: String,
    #[serde(default)]
    output_format: String,
    /// 'Use YouTube captions when available'; the user's default when absent.
    #[serde(default)]
    use_captions: Option<bool>,
}

/// Starts downloading the chosen videos of a source (and, with `transcribe`, transcribing them).
#[utoipa::path(post, path = "/api/downloads", tag = "downloads", request_body = NewDownloadJob, responses((status = 201, body = Envelope<DownloadJobView>)))]
pub async fn create(
    services: UserClients,
    body: web::Json<NewDownloadJob>,
) -> Result<HttpResponse, ApiError> {
    let body = body.into_inner();
    let job = services
        .discovery()
        .create_download_job(pb::CreateDownloadJobRequest {
            source_id: body.source_id,
            video_ids: body.video_ids,
            transcribe: body.transcribe,
            model: body.model,
            output_format: body.output_format,
            use_captions: body.use_captions,
        })
        .await?
        .into_inner();
    Ok(created(DownloadJobView::try_from(job)?))
}

/// Cancels a job; answers the job, now FAILED with 'Cancelled by user'.
#[utoipa::path(delete, path = "/api/downloads/{id}", tag = "downloads", params(("id" = String, Path)), responses((status = 200, body = Envelope<DownloadJobView>)))]
pub async fn cancel(
    services: UserClients,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let job = services
        .discovery()
        .cancel_download_job(pb::DownloadJobRef {
            id: id.into_inner(),
        })
        .await?
        .into_inner();
    Ok(data(DownloadJobView::try_from(job)?))
}

/// A new job for the videos of this one that did not arrive.
#[utoipa::path(post, path = "/api/downloads/{id}/retry", tag = "downloads", params(("id" = String, Path)), responses((status = 201, body = Envelope<DownloadJobView>)))]
pub async fn retry(services: UserClients, id: web::Path<String>) -> Result<HttpResponse, ApiError> {
    let job = services
        .discovery()
        .retry_download_job(pb::DownloadJobRef {
            id: id.into_inner(),
        })
        .await?
        .into_inner();
    Ok(created(DownloadJobView::try_from(job)?))
}

#[derive(OpenApi)]
#[openapi(paths(list, create, cancel, retry))]
pub(crate) struct Docs;

pub(super) fn routes() -> RouteList {
    use Access::SignedIn;
    RouteList::default()
        .add::<__path_list>(SignedIn, || web::to(list))
        .add::<__path_create>(SignedIn, || web::to(create))
        .add::<__path_cancel>(SignedIn, || web::to(cancel))
        .add::<__path_retry>(SignedIn, || web::to(retry))
}
