//! `/api/downloads*`: download jobs, run by the discovery service.

use actix_web::{HttpResponse, web};
use scribevault_proto::discovery::v1 as pb;
use serde::{Deserialize, Serialize};

use crate::auth::AuthenticatedUser;
use crate::clients::{ServiceClients, on_behalf_of};
use crate::error::{ApiError, data};

/// A job as the SPA shows it (spec §3, 'Download job').
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct JobView {
    id: String,
    source_id: String,
    source_title: String,
    status: String,
    total_videos: u32,
    processed_videos: u32,
    failed_videos: u32,
    progress: u32,
    error_message: Option<String>,
    started_at: Option<String>,
    completed_at: Option<String>,
    created_at: String,
    transcribe: bool,
    current_video: Option<CurrentVideoView>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct CurrentVideoView {
    video_id: String,
    title: String,
    percent: u32,
}

impl From<pb::DownloadJob> for JobView {
    fn from(job: pb::DownloadJob) -> Self {
        Self {
            id: job.id,
            source_id: job.source_id,
            source_title: job.source_title,
            status: job.status,
            total_videos: job.total_videos,
            processed_videos: job.processed_videos,
            failed_videos: job.failed_videos,
            progress: job.progress,
            error_message: job.error_message,
            started_at: job.started_at,
            completed_at: job.completed_at,
            created_at: job.created_at,
            transcribe: job.transcribe,
            current_video: job.current_video.map(|current| CurrentVideoView {
                video_id: current.video_id,
                title: current.title,
                percent: current.percent,
            }),
        }
    }
}

/// `GET /api/downloads`: the caller's jobs, newest first.
pub async fn list(
    user: AuthenticatedUser,
    clients: web::Data<ServiceClients>,
) -> Result<HttpResponse, ApiError> {
    let jobs = clients
        .discovery
        .clone()
        .list_download_jobs(on_behalf_of(&user.0, pb::ListDownloadJobsRequest {})?)
        .await?
        .into_inner()
        .jobs;
    Ok(data(
        jobs.into_iter().map(JobView::from).collect::<Vec<_>>(),
    ))
}

/// The body of `POST /api/downloads`.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CreateBody {
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
}

/// `POST /api/downloads {sourceId, videoIds, transcribe?, model?, outputFormat?}`: 201 with the
/// job.
pub async fn create(
    user: AuthenticatedUser,
    clients: web::Data<ServiceClients>,
    body: web::Json<CreateBody>,
) -> Result<HttpResponse, ApiError> {
    let body = body.into_inner();
    let job = clients
        .discovery
        .clone()
        .create_download_job(on_behalf_of(
            &user.0,
            pb::CreateDownloadJobRequest {
                source_id: body.source_id,
                video_ids: body.video_ids,
                transcribe: body.transcribe,
                model: body.model,
                output_format: body.output_format,
            },
        )?)
        .await?
        .into_inner();
    Ok(HttpResponse::Created().json(serde_json::json!({ "data": JobView::from(job) })))
}

/// `DELETE /api/downloads/{id}`: cancels; the job, now FAILED with 'Cancelled by user'.
pub async fn cancel(
    user: AuthenticatedUser,
    clients: web::Data<ServiceClients>,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let job = clients
        .discovery
        .clone()
        .cancel_download_job(on_behalf_of(
            &user.0,
            pb::DownloadJobRef {
                id: id.into_inner(),
            },
        )?)
        .await?
        .into_inner();
    Ok(data(JobView::from(job)))
}

/// `POST /api/downloads/{id}/retry`: 201 with the new job for the videos that did not arrive.
pub async fn retry(
    user: AuthenticatedUser,
    clients: web::Data<ServiceClients>,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let job = clients
        .discovery
        .clone()
        .retry_download_job(on_behalf_of(
            &user.0,
            pb::DownloadJobRef {
                id: id.into_inner(),
            },
        )?)
        .await?
        .into_inner();
    Ok(HttpResponse::Created().json(serde_json::json!({ "data": JobView::from(job) })))
}
