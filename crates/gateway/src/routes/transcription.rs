//! `/api/transcription/*`, served by the transcription service.

use actix_web::{HttpResponse, web};
use scribevault_bus::contract::FileStatus;
use scribevault_bus::wire::WireEnumError;
use scribevault_core::language::WHISPER_LANGUAGES;
use scribevault_proto::transcription::v1 as pb;
use serde::{Deserialize, Serialize};
use utoipa::{OpenApi, ToSchema};

use crate::clients::UserClients;
use crate::error::{ApiError, Envelope, data};
use crate::routes::table::{Access, RouteList};
use crate::routes::transcription_queue::QueuePlace;

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct FileInput {
    id: String,
    mp3_path: String,
    #[serde(default)]
    title: String,
    #[serde(default)]
    youtube_video_id: String,
}

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct StartInput {
    files: Vec<FileInput>,
    #[serde(default)]
    model: String,
    #[serde(default)]
    output_format: String,
    /// The spoken language: `auto` (Whisper detects it per file) or a Whisper language code
    /// (`GET /api/transcription/languages`). Absent: the caller's `transcriptionLanguage`
    /// setting.
    #[serde(default)]
    language: Option<String>,
}

#[derive(Deserialize, ToSchema)]
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
    /// As in the start request.
    #[serde(default)]
    language: Option<String>,
}

#[derive(Deserialize, ToSchema)]
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
            replaces_item: None,
        })
        .collect()
}

/// A file as the SPA expects it (docs/product-spec.md §3, 'Transcription file').
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct FileView {
    id: String,
    job_id: String,
    youtube_video_id: String,
    title: String,
    mp3_path: String,
    status: FileStatus,
    /// 0–100.
    progress: u32,
    error_message: Option<String>,
    retry_count: u32,
    max_retries: u32,
    last_failed_at: Option<String>,
    transcript_path: Option<String>,
    markdown_path: Option<String>,
    /// Milliseconds whisper took.
    processing_time: Option<u64>,
    /// Its place in the queue and estimated times, while it waits or runs.
    #[serde(flatten)]
    queue: QueuePlace,
    /// A completed file's transcript language (a Whisper code such as `de`: the one detected,
    /// or the one asked for), when known.
    language: Option<String>,
}

impl TryFrom<pb::TranscriptionFile> for FileView {
    type Error = ApiError;

    fn try_from(file: pb::TranscriptionFile) -> Result<Self, ApiError> {
        Ok(Self {
            status: FileStatus::try_from(file.status)?,
            id: file.id,
            job_id: file.job_id,
            youtube_video_id: file.youtube_video_id,
            title: file.title,
            mp3_path: file.mp3_path,
            progress: file.progress,
            error_message: file.error_message,
            retry_count: file.retry_count,
            max_retries: file.max_retries,
            last_failed_at: file.last_failed_at,
            transcript_path: file.transcript_path,
            markdown_path: file.markdown_path,
            processing_time: file.processing_time_ms,
            queue: file.queue.into(),
            language: file.language,
        })
    }
}

/// A started (or scheduled) transcription job.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct StartedView {
    job_id: String,
    files: Vec<FileView>,
}

/// Every file of an answer as the SPA shows it.
fn file_views(files: Vec<pb::TranscriptionFile>) -> Result<Vec<FileView>, ApiError> {
    files.into_iter().map(FileView::try_from).collect()
}

fn started(answer: pb::StartTranscriptionResponse) -> Result<HttpResponse, ApiError> {
    Ok(data(StartedView {
        job_id: answer.job_id,
        files: file_views(answer.files)?,
    }))
}

/// A file's retries, for the error history.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct HistoryEntryView {
    id: String,
    title: String,
    retry_count: u32,
    max_retries: u32,
    last_failed_at: Option<String>,
}

/// Whether any of a job's files may still change without the user acting.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum JobStatus {
    /// A file is waiting or being transcribed.
    Active,
    /// Every file is completed, in error or failed.
    Finished,
}

impl TryFrom<i32> for JobStatus {
    type Error = WireEnumError;

    fn try_from(value: i32) -> Result<Self, WireEnumError> {
        match pb::JobStatus::try_from(value) {
            Ok(pb::JobStatus::Active) => Ok(Self::Active),
            Ok(pb::JobStatus::Finished) => Ok(Self::Finished),
            Ok(pb::JobStatus::Unspecified) | Err(_) => Err(WireEnumError {
                enum_name: "JobStatus",
                value,
            }),
        }
    }
}

/// A whole job.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TranscriptionJobView {
    id: String,
    status: JobStatus,
    model: String,
    output_format: String,
    /// The spoken language its files are transcribed in: `auto` or a Whisper code; absent for
    /// a job made before jobs recorded one.
    language: Option<String>,
    created_at: String,
    files: Vec<FileView>,
}

/// The Whisper models installed on this instance.
#[derive(Serialize, ToSchema)]
pub struct ModelsView {
    models: Vec<String>,
}

/// Queues files for transcription now.
#[utoipa::path(post, path = "/api/transcription/start", tag = "transcription", request_body = StartInput, responses((status = 200, body = Envelope<StartedView>)))]
pub async fn start(
    services: UserClients,
    body: web::Json<StartInput>,
) -> Result<HttpResponse, ApiError> {
    let body = body.into_inner();
    let request = pb::StartTranscriptionRequest {
        files: files(body.files),
        model: body.model,
        output_format: body.output_format,
        skip_vault: false,
        language: body.language,
    };
    started(
        services
            .transcription()
            .start_transcription(request)
            .await?
            .into_inner(),
    )
}

/// Queues files to transcribe in a daily time window (`startTime`–`endTime`, `HH:MM` in `timezone`).
#[utoipa::path(post, path = "/api/transcription/schedule", tag = "transcription", request_body = ScheduleInput, responses((status = 200, body = Envelope<StartedView>)))]
pub async fn schedule(
    services: UserClients,
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
        language: body.language,
    };
    started(
        services
            .transcription()
            .schedule_transcription(request)
            .await?
            .into_inner(),
    )
}

/// Retries a failed file.
#[utoipa::path(post, path = "/api/transcription/retry", tag = "transcription", request_body = FileRefInput, responses((status = 200, body = Envelope<FileView>)))]
pub async fn retry(
    services: UserClients,
    body: web::Json<FileRefInput>,
) -> Result<HttpResponse, ApiError> {
    let body = body.into_inner();
    let file = services
        .transcription()
        .retry_transcription_file(pb::FileRef::from(body))
        .await?
        .into_inner();
    Ok(data(FileView::try_from(file)?))
}

/// Cancels a waiting or running file.
#[utoipa::path(post, path = "/api/transcription/cancel", tag = "transcription", request_body = FileRefInput, responses((status = 200, body = Envelope<FileView>)))]
pub async fn cancel(
    services: UserClients,
    body: web::Json<FileRefInput>,
) -> Result<HttpResponse, ApiError> {
    let body = body.into_inner();
    let file = services
        .transcription()
        .cancel_transcription_file(pb::FileRef::from(body))
        .await?
        .into_inner();
    Ok(data(FileView::try_from(file)?))
}

/// The retry history of a job's files.
#[utoipa::path(get, path = "/api/transcription/history/{jobId}", tag = "transcription", params(("jobId" = String, Path)), responses((status = 200, body = Envelope<Vec<HistoryEntryView>>)))]
pub async fn history(
    services: UserClients,
    job_id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let history = services
        .transcription()
        .get_transcription_history(pb::GetTranscriptionJobRequest {
            job_id: job_id.into_inner(),
        })
        .await?
        .into_inner();
    let entries: Vec<HistoryEntryView> = history
        .entries
        .into_iter()
        .map(|entry| HistoryEntryView {
            id: entry.id,
            title: entry.title,
            retry_count: entry.retry_count,
            max_retries: entry.max_retries,
            last_failed_at: entry.last_failed_at,
        })
        .collect();
    Ok(data(entries))
}

/// The whole job, so a reloaded page can catch up.
#[utoipa::path(get, path = "/api/transcription/jobs/{jobId}", tag = "transcription", params(("jobId" = String, Path)), responses((status = 200, body = Envelope<TranscriptionJobView>)))]
pub async fn job(
    services: UserClients,
    job_id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let job = services
        .transcription()
        .get_transcription_job(pb::GetTranscriptionJobRequest {
            job_id: job_id.into_inner(),
        })
        .await?
        .into_inner();
    Ok(data(TranscriptionJobView {
        id: job.id,
        status: JobStatus::try_from(job.status)?,
        model: job.model,
        output_format: job.output_format,
        language: Some(job.language).filter(|language| !language.is_empty()),
        created_at: job.created_at,
        files: file_views(job.files)?,
    }))
}

/// The Whisper models installed on this instance.
#[utoipa::path(get, path = "/api/transcription/models", tag = "transcription", responses((status = 200, body = Envelope<ModelsView>)))]
pub async fn models(services: UserClients) -> Result<HttpResponse, ApiError> {
    let models = services
        .transcription()
        .list_models(pb::ListModelsRequest {})
        .await?
        .into_inner();
    Ok(data(ModelsView {
        models: models.models,
    }))
}

/// One language Whisper transcribes.
#[derive(Serialize, ToSchema)]
pub struct LanguageView {
    /// What requests and settings name it by (`de`).
    code: &'static str,
    /// Its English name (`German`).
    name: &'static str,
}

/// The languages a transcription may be started in, besides `auto`.
#[derive(Serialize, ToSchema)]
pub struct LanguagesView {
    /// In Whisper's order (its most trained first).
    languages: Vec<LanguageView>,
}

/// The spoken languages Whisper knows: what `language` and the `transcriptionLanguage`
/// setting take besides `auto`. An English-only model (`*.en`) transcribes English only.
#[utoipa::path(get, path = "/api/transcription/languages", tag = "transcription", responses((status = 200, body = Envelope<LanguagesView>)))]
pub async fn languages() -> HttpResponse {
    data(LanguagesView {
        languages: WHISPER_LANGUAGES
            .iter()
            .map(|&(code, name)| LanguageView { code, name })
            .collect(),
    })
}

#[derive(OpenApi)]
#[openapi(paths(start, schedule, retry, cancel, history, job, models, languages))]
pub(crate) struct Docs;

pub(super) fn routes() -> RouteList {
    use Access::SignedIn;
    RouteList::default()
        .add::<__path_start>(SignedIn, || web::to(start))
        .add::<__path_schedule>(SignedIn, || web::to(schedule))
        .add::<__path_retry>(SignedIn, || web::to(retry))
        .add::<__path_cancel>(SignedIn, || web::to(cancel))
        .add::<__path_history>(SignedIn, || web::to(history))
        .add::<__path_job>(SignedIn, || web::to(job))
        .add::<__path_models>(SignedIn, || web::to(models))
        .add::<__path_languages>(SignedIn, || web::to(languages))
}
