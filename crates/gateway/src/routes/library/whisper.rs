//! 'Transcribe with Whisper' on a Vault item made from YouTube's captions: its recording is
//! transcribed by Whisper, and the transcript replaces the captions one when it is done (the
//! item keeps its id, metadata and player). Until then the item names the job, so the SPA can
//! show its progress after a reload too.

use actix_web::{HttpResponse, web};
use scribevault_core::ErrorCode;
use scribevault_proto::library::v1 as pb;
use scribevault_proto::transcription::v1 as transcription_pb;
use serde::Serialize;
use utoipa::{OpenApi, ToSchema};

use super::TranscriptView;
use crate::clients::UserClients;
use crate::error::{ApiError, Envelope};
use crate::routes::openapi::ErrorBody;
use crate::routes::table::{Access, RouteList};

/// A Whisper transcription started for an item.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct WhisperRunView {
    /// The transcription job (`GET /api/transcription/jobs/{jobId}`; its file's
    /// `transcriptionProgress` events on the socket).
    job_id: String,
    /// The job's one file.
    file_id: String,
    /// The item, naming the job in `whisperJobId`.
    transcript: TranscriptView,
}

/// Starts a Whisper transcription of one of the caller's AUDIO items whose transcript came
/// from YouTube's captions; its transcript replaces the item's when done. The instance's
/// default model is used.
#[utoipa::path(
    post,
    path = "/api/library/transcripts/{id}/whisper",
    tag = "library",
    params(("id" = String, Path)),
    responses(
        (status = 202, description = "Queued; the item names the job", body = Envelope<WhisperRunView>),
        (status = 404, description = "Not the caller's item, not audio, or no recording kept", body = ErrorBody),
        (status = 409, description = "The transcript is already Whisper's", body = ErrorBody),
    )
)]
pub async fn transcribe_with_whisper(
    services: UserClients,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let id = id.into_inner();
    let item = services
        .library()
        .get_transcript(pb::GetTranscriptRequest { id: id.clone() })
        .await?
        .into_inner();
    if item.transcript_source == Some(pb::TranscriptSource::Whisper.into()) {
        return Err(ApiError::new(
            ErrorCode::Conflict,
            "This transcript is already Whisper's",
        ));
    }
    let recording = services
        .library()
        .get_transcript_audio(pb::GetTranscriptAudioRequest { id: id.clone() })
        .await?
        .into_inner();
    let started = services
        .transcription()
        .start_transcription(transcription_pb::StartTranscriptionRequest {
            files: vec![transcription_pb::FileToTranscribe {
                id: format!("whisper-{id}"),
                mp3_path: recording.audio_path,
                title: item.title,
                youtube_video_id: String::new(),
                replaces_item: Some(id.clone()),
            }],
            ..Default::default()
        })
        .await?
        .into_inner();
    let file_id = started
        .files
        .first()
        .map(|file| file.id.clone())
        .unwrap_or_default();
    let item = services
        .library()
        .set_whisper_job(pb::SetWhisperJobRequest {
            id,
            job_id: started.job_id.clone(),
        })
        .await?
        .into_inner();
    Ok(HttpResponse::Accepted().json(Envelope {
        data: WhisperRunView {
            job_id: started.job_id,
            file_id,
            transcript: TranscriptView::try_from(item)?,
        },
    }))
}

#[derive(OpenApi)]
#[openapi(paths(transcribe_with_whisper))]
pub(crate) struct Docs;

pub(super) fn routes() -> RouteList {
    RouteList::default().add::<__path_transcribe_with_whisper>(Access::SignedIn, || {
        web::to(transcribe_with_whisper)
    })
}
