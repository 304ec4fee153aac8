//! `/api/transcription/*`, served by the transcription service.

use actix_web::{HttpResponse, web};
use scribevault_proto::transcription::v1 as pb;
use serde::Deserialize;

use crate::auth::AuthenticatedUser;
use crate::clients::{ServiceClients, on_behalf_of};
use crate::error::{ApiError, data};

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FileInput {
    id: String,
    mp3_path: String,
    #[serde(default)]
    title: String,
    #[serde(default)]
    youtube_video_id: String,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct StartInput {
    files: Vec<FileInput>,
    #[serde(default)]
    model: String,
    #[serde(default)]
    output_format: String,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ScheduleInput {
    files: Vec<FileInput>,
    #[serde(default)]
    model: String,
    #[serde(default)]
    output_format: String,
    #[serde(default)]
    start_time: String,
    #[serde(default)]
    end_time: String,
    #[serde(default)]
    timezone: String,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FileRefInput {
    file_id: String,
    job_id: String,
}

impl From<FileRefInput> for pb::FileRef {
    fn from(input: FileRefInput) -> Self {
        Self {
            file_id: input.file_id,
            job_id: input.job_id,
        }
    }
}

fn files(files: Vec<FileInput>) -> Vec<pb::FileToTranscribe> {
    files
        .into_iter()
        .map(|file| pb::FileToTranscribe {
            id: file.id,
            mp3_path: file.mp3_path,
            title: file.title,
            youtube_video_id: file.youtube_video_id,
        })
        .collect()
}

/// A file as the SPA expects it (spec §3, 'Transcription file').
pub fn file_view(file: pb::TranscriptionFile) -> serde_json::Value {
    serde_json::json!({
        "id": file.id,
        "jobId": file.job_id,
        "youtubeVideoId": file.youtube_video_id,
        "title": file.title,
        "mp3Path": file.mp3_path,
        "status": file.status,
        "progress": file.progress,
        "errorMessage": file.error_message,
        "retryCount": file.retry_count,
        "maxRetries": file.max_retries,
        "lastFailedAt": file.last_failed_at,
        "transcriptPath": file.transcript_path,
        "markdownPath": file.markdown_path,
        "processingTime": file.processing_time_ms,
    })
}

fn started(answer: pb::StartTranscriptionResponse) -> HttpResponse {
    data(
        serde_json::json!({ "jobId": answer.job_id, "files": answer.files.into_iter().map(file_view).collect::<Vec<_>>() }),
    )
}

/// `POST /api/transcription/start`
pub async fn start(
    user: AuthenticatedUser,
    clients: web::Data<ServiceClients>,
    body: web::Json<StartInput>,
) -> Result<HttpResponse, ApiError> {
    let body = body.into_inner();
    let request = pb::StartTranscriptionRequest {
        files: files(body.files),
        model: body.model,
        output_format: body.output_format,
    };
    Ok(started(
        clients
            .transcription
            .clone()
            .start_transcription(on_behalf_of(&user.0, request)?)
            .await?
            .into_inner(),
    ))
}

/// `POST /api/transcription/schedule`
pub async fn schedule(
    user: AuthenticatedUser,
    clients: web::Data<ServiceClients>,
    body: web::Json<ScheduleInput>,
) -> Result<HttpResponse, ApiError> {
    let body = body.into_inner();
    let request = pb::ScheduleTranscriptionRequest {
        files: files(body.files),
        model: body.model,
        output_format: body.output_format,
        start_time: body.start_time,
        end_time: body.end_time,
        timezone: body.timezone,
    };
    Ok(started(
        clients
            .transcription
            .clone()
            .schedule_transcription(on_behalf_of(&user.0, request)?)
            .await?
            .into_inner(),
    ))
}

/// `POST /api/transcription/retry`
pub async fn retry(
    user: AuthenticatedUser,
    clients: web::Data<ServiceClients>,
    body: web::Json<FileRefInput>,
) -> Result<HttpResponse, ApiError> {
    let body = body.into_inner();
    let file = clients
        .transcription
        .clone()
        .retry_transcription_file(on_behalf_of(&user.0, pb::FileRef::from(body))?)
        .await?
        .into_inner();
    Ok(data(file_view(file)))
}

/// `POST /api/transcription/cancel`
pub async fn cancel(
    user: AuthenticatedUser,
    clients: web::Data<ServiceClients>,
    body: web::Json<FileRefInput>,
) -> Result<HttpResponse, ApiError> {
    let body = body.into_inner();
    let file = clients
        .transcription
        .clone()
        .cancel_transcription_file(on_behalf_of(&user.0, pb::FileRef::from(body))?)
        .await?
        .into_inner();
    Ok(data(file_view(file)))
}

/// `GET /api/transcription/history/{jobId}`
pub async fn history(
    user: AuthenticatedUser,
    clients: web::Data<ServiceClients>,
    job_id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let history = clients
        .transcription
        .clone()
        .get_transcription_history(on_behalf_of(
            &user.0,
            pb::GetTranscriptionJobRequest {
                job_id: job_id.into_inner(),
            },
        )?)
        .await?
        .into_inner();
    let entries: Vec<serde_json::Value> = history
        .entries
        .into_iter()
        .map(|entry| serde_json::json!({ "id": entry.id, "title": entry.title, "retryCount": entry.retry_count, "maxRetries": entry.max_retries, "lastFailedAt": entry.last_failed_at }))
        .collect();
    Ok(data(entries))
}

/// `GET /api/transcription/jobs/{jobId}`: the whole job, so a reloaded page can catch up.
pub async fn job(
    user: AuthenticatedUser,
    clients: web::Data<ServiceClients>,
    job_id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let job = clients
        .transcription
        .clone()
        .get_transcription_job(on_behalf_of(
            &user.0,
            pb::GetTranscriptionJobRequest {
                job_id: job_id.into_inner(),
            },
        )?)
        .await?
        .into_inner();
    Ok(data(serde_json::json!({
        "id": job.id,
        "status": job.status,
        "model": job.model,
        "outputFormat": job.output_format,
        "createdAt": job.created_at,
        "files": job.files.into_iter().map(file_view).collect::<Vec<_>>(),
    })))
}

/// `GET /api/transcription/models`
pub async fn models(
    user: AuthenticatedUser,
    clients: web::Data<ServiceClients>,
) -> Result<HttpResponse, ApiError> {
    let models = clients
        .transcription
        .clone()
        .list_models(on_behalf_of(&user.0, pb::ListModelsRequest {})?)
        .await?
        .into_inner();
    Ok(data(serde_json::json!({ "models": models.models })))
}
