//! `POST /v1/audio/transcriptions` and `GET /v1/models`: OpenAI's transcription API over the
//! domain in `crate::openai`.

use actix_multipart::Multipart;
use actix_web::{HttpResponse, web};
use scribevault_proto::transcription::v1 as transcription_pb;
use serde::Serialize;
use utoipa::{OpenApi, ToSchema};

use crate::auth::Caller;
use crate::clients::UserClients;
use crate::context::Context;
use crate::openai::OPENAI_MODEL;
use crate::openai::audio::TranscodeBounds;
use crate::openai::error::{OpenAiError, OpenAiErrorBody};
use crate::openai::form::TranscriptionForm;
use crate::openai::render::{Rendered, TranscriptionVerboseView, TranscriptionView};
use crate::openai::{audio, form, run, spool};
use crate::routes::table::{Access, RouteList};

/// The multipart form, as OpenAI documents it (for the OpenAPI document).
#[derive(ToSchema)]
#[allow(dead_code)] // documents the form; the handler reads it field by field
pub struct TranscriptionRequest {
    /// The audio: MP3, WAV, M4A, OGG, FLAC or WebM, up to the instance's upload limit.
    #[schema(format = Binary, content_media_type = "application/octet-stream")]
    file: String,
    /// An installed model (`GET /v1/models`); `whisper-1` is the instance's default.
    model: String,
    /// ISO-639-1: the language to transcribe in. Absent: the caller's default in Settings
    /// (auto-detected with a multilingual model). An English-only model always hears English.
    language: Option<String>,
    /// Accepted and not used.
    prompt: Option<String>,
    /// `json` (default), `text`, `srt`, `verbose_json` or `vtt`.
    response_format: Option<String>,
    /// 0–1. Accepted; the worker's own fallback decides.
    temperature: Option<f32>,
    /// `word` adds `words` to `verbose_json`.
    #[schema(rename = "timestamp_granularities[]")]
    timestamp_granularities: Option<Vec<String>>,
}

/// Whether a call's transcriptions become Vault items: a session's always do; an API token's
/// unless its owner turned that off.
async fn keeps_in_vault(context: &Context, caller: &Caller) -> Result<bool, OpenAiError> {
    let Some(token) = &caller.api_token else {
        return Ok(true);
    };
    let found = context
        .access
        .tokens
        .get(caller.user.as_str(), token)
        .await
        .map_err(|error| OpenAiError::Api(error.into()))?;
    Ok(found.is_none_or(|token| token.save_to_vault))
}

/// The model to ask the transcription service for (empty: its default), checked against the
/// installed ones before anything is stored.
async fn model_of(form: &TranscriptionForm, services: &UserClients) -> Result<String, OpenAiError> {
    let model = match form.model.as_deref() {
        None | Some(OPENAI_MODEL) => return Ok(String::new()),
        Some(model) => model,
    };
    let installed = services
        .transcription()
        .list_models(transcription_pb::ListModelsRequest {})
        .await?
        .into_inner()
        .models;
    if installed.iter().any(|name| name == model) {
        Ok(model.to_owned())
    } else {
        Err(OpenAiError::UnknownModel(model.to_owned()))
    }
}

fn title_of(name: &str) -> String {
    let stem = std::path::Path::new(name)
        .file_stem()
        .and_then(|stem| stem.to_str())
        .unwrap_or_default()
        .trim();
    if stem.is_empty() {
        format!(
            "Transcription {}",
            chrono::Utc::now().format("%Y-%m-%d %H:%M")
        )
    } else {
        stem.to_owned()
    }
}

/// Transcribes an audio file, OpenAI-style: waits in the queue with everyone else's files, then
/// answers the transcript in the format asked for.
///
/// Before a byte of the file is read, the caller holds a transcode permit (the instance's and
/// their own), has room left in their quota, and the spool has room for the file and its MP3.
///
/// # Errors
/// In OpenAI's error shape: a bad form (400), a file too large (413), a container not taken
/// (415), unreadable audio (400), an unknown model (404), too many at once (429 with
/// `Retry-After`), a full quota or spool (507), a failed transcription (422), the wait limit
/// passed (504; the transcription goes on, and the same file sent again waits for it).
#[utoipa::path(post, path = "/v1/audio/transcriptions", tag = "openai",
    request_body(content = TranscriptionRequest, content_type = "multipart/form-data"),
    responses(
        (status = 200, description = "`json`: `{text}`; `verbose_json`: segments and words; `text`, `srt`, `vtt`: plain text",
            body = TranscriptionView,
            content(
                (TranscriptionView = "application/json"),
                (TranscriptionVerboseView = "application/json"),
                (String = "text/plain"),
            )),
        (status = 400, description = "A bad form or unreadable audio", body = OpenAiErrorBody),
        (status = 404, description = "The model is not installed", body = OpenAiErrorBody),
        (status = 413, description = "The file is over the upload limit", body = OpenAiErrorBody),
        (status = 415, description = "Not MP3, WAV, FLAC, Ogg/Opus, MP4/M4A or WebM/Matroska audio", body = OpenAiErrorBody),
        (status = 422, description = "The transcription failed", body = OpenAiErrorBody),
        (status = 429, description = "The caller or the instance is transcoding as many files as it takes at once; `Retry-After` says when to come back", body = OpenAiErrorBody),
        (status = 507, description = "The caller's quota or the server's spool is full", body = OpenAiErrorBody),
        (status = 504, description = "Still transcribing when the wait limit passed", body = OpenAiErrorBody)))]
pub async fn create_transcription(
    request: actix_web::HttpRequest,
    caller: Caller,
    context: Context,
    services: UserClients,
    body: Multipart,
) -> Result<HttpResponse, OpenAiError> {
    let stored = store_upload(&request, &caller, &context, &services, body).await?;
    let user = caller.user.as_str();
    let asked = stored.language.as_deref();
    let started = &context.openai.started;
    let file = started
        .start(
            &services,
            &run::Wanted {
                user,
                mp3_path: &stored.mp3_path,
                title: &stored.title,
                model: &stored.model,
                language: asked,
                skip_vault: !stored.keep,
            },
        )
        .await?;
    let finished = match run::wait_for(&services, &file, context.openai.wait_limit).await {
        Err(error @ OpenAiError::TranscriptionFailed(_)) => {
            started.forget(user, &stored.mp3_path, asked).await;
            return Err(error);
        }
        other => other?,
    };
    let segments = run::segments(&services, &finished.transcript_path).await?;
    let duration = segments
        .last()
        .map_or(0.0, |last| last.end_ms.max(0) as f64 / 1000.0);
    let rendered = Rendered {
        segments: &segments,
        language: &spoken_language(finished.language.as_deref().or(asked)),
        duration,
        words: stored.word_timestamps,
    };
    Ok(rendered.respond(stored.response_format))
}

/// A request whose audio storage holds, and what it asked for.
struct StoredUpload {
    mp3_path: String,
    title: String,
    model: String,
    keep: bool,
    language: Option<String>,
    response_format: form::ResponseFormat,
    word_timestamps: bool,
}

/// The bounded part of a request: the transcode permit, the quota and spool checks before a
/// byte is read, the spooled form, the transcode and storage's upload. The permit and the spool's
/// files are given back when it returns, before the request waits its turn in the queue (an
/// hour, it may be), so the next upload is not refused while this one waits.
async fn store_upload(
    request: &actix_web::HttpRequest,
    caller: &Caller,
    context: &Context,
    services: &UserClients,
    body: Multipart,
) -> Result<StoredUpload, OpenAiError> {
    let openai = &context.openai;
    let _permit = openai
        .permits
        .try_acquire(caller.user.as_str())
        .map_err(OpenAiError::Busy)?;
    let limit = context.limits.upload_bytes;
    let declared = spool::declared_length(request);
    if declared.is_some_and(|length| length > limit.saturating_add(form::FORM_OVERHEAD_BYTES)) {
        return Err(OpenAiError::FileTooLarge {
            limit_mb: limit / (1024 * 1024),
        });
    }
    let room = quota_left(services).await?;
    let upload_cap = declared.map_or(limit, |length| length.min(limit));
    let dir = openai
        .spool
        .reserve(upload_cap, upload_cap.min(room))
        .await?;
    let form = form::read(body, dir, limit).await?;
    let model = model_of(&form, services).await?;
    let keep = keeps_in_vault(context, caller).await?;
    let bounds = TranscodeBounds {
        max_seconds: openai.max_audio_seconds,
        max_bytes: room,
    };
    let converted = audio::as_mp3(&form.file.path, dir, bounds).await?;
    let mp3 = converted.as_deref().unwrap_or(&form.file.path);
    let title = title_of(&form.file.name);
    let mp3_path = run::store(services, mp3, title.clone(), form.file.name.clone()).await?;
    Ok(StoredUpload {
        mp3_path,
        title,
        model,
        keep,
        language: form.language,
        response_format: form.response_format,
        word_timestamps: form.word_timestamps,
    })
}

/// What is left of the caller's quota; none left is a 507 before the upload is read.
async fn quota_left(services: &UserClients) -> Result<u64, OpenAiError> {
    let room = services
        .storage()
        .check_storage_room(scribevault_proto::storage::v1::CheckStorageRoomRequest { bytes: 0 })
        .await?
        .into_inner()
        .room_bytes;
    Ok(room)
}

/// One model, as OpenAI lists it.
#[derive(Serialize, ToSchema)]
pub struct ModelView {
    id: String,
    object: &'static str,
    /// Unix seconds; not known for installed files, so 0.
    created: i64,
    owned_by: &'static str,
}

/// `GET /v1/models`.
#[derive(Serialize, ToSchema)]
pub struct ModelListView {
    object: &'static str,
    data: Vec<ModelView>,
}

/// OpenAI's `verbose_json` names the language in lower case (`english`, `german`), not by code.
fn spoken_language(code: Option<&str>) -> String {
    code.and_then(scribevault_core::language::language_name)
        .map_or_else(|| "unknown".to_owned(), str::to_lowercase)
}

fn model(id: String) -> ModelView {
    ModelView {
        id,
        object: "model",
        created: 0,
        owned_by: "scribevault",
    }
}

/// The installed Whisper models, and `whisper-1` (the default one) for clients that ask for it.
///
/// # Errors
/// The transcription service cannot be reached (503, in OpenAI's shape).
#[utoipa::path(get, path = "/v1/models", tag = "openai",
    responses((status = 200, body = ModelListView)))]
pub async fn list_models(services: UserClients) -> Result<HttpResponse, OpenAiError> {
    let installed = services
        .transcription()
        .list_models(transcription_pb::ListModelsRequest {})
        .await?
        .into_inner()
        .models;
    let data = std::iter::once(OPENAI_MODEL.to_owned())
        .chain(installed)
        .map(model)
        .collect();
    Ok(HttpResponse::Ok().json(ModelListView {
        object: "list",
        data,
    }))
}

#[derive(OpenApi)]
#[openapi(paths(create_transcription, list_models))]
pub(crate) struct Docs;

pub(crate) fn routes() -> RouteList {
    RouteList::default()
        .add::<__path_create_transcription>(Access::SignedIn, || web::to(create_transcription))
        .add::<__path_list_models>(Access::SignedIn, || web::to(list_models))
}
