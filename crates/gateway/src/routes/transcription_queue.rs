//! `GET /api/transcription/queue` and the queue fields of every file answer (issue 24 §3):
//! where each of the caller's waiting or running files stands in the instance's queue and when
//! it should start and end. Served by the transcription service, which counts every user's
//! files for the places and names only the caller's.

use actix_web::HttpResponse;
use scribevault_bus::contract::{FileStatus, QueueBasis, QueuedFile};
use scribevault_proto::transcription::v1 as pb;
use serde::Serialize;
use utoipa::{OpenApi, ToSchema};

use crate::clients::UserClients;
use crate::error::{ApiError, Envelope, data};
use crate::routes::table::{Access, RouteList};

/// A file's place in the queue, on each file of the transcription answers. Estimates from
/// this machine's measured speed × the file's audio length; all null for a finished file.
#[derive(Debug, Default, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct QueuePlace {
    /// 0: running now; 1, 2, …: the order workers should take the waiting files in, every
    /// user's files counted.
    position: Option<u32>,
    /// Estimated seconds until the transcript is done.
    eta_seconds: Option<u64>,
    /// RFC 3339, estimated; now for a running file.
    estimated_start_at: Option<String>,
    /// RFC 3339, estimated.
    estimated_end_at: Option<String>,
    /// It waits for its overnight window, which opens at `estimatedStartAt`.
    waits_for_window: Option<bool>,
}

impl From<Option<pb::QueueEstimate>> for QueuePlace {
    fn from(estimate: Option<pb::QueueEstimate>) -> Self {
        estimate.map_or_else(Self::default, |estimate| Self {
            position: Some(estimate.position),
            eta_seconds: Some(estimate.eta_seconds),
            estimated_start_at: Some(estimate.estimated_start_at),
            estimated_end_at: Some(estimate.estimated_end_at),
            waits_for_window: Some(estimate.waits_for_window),
        })
    }
}

/// The caller's waiting and running files in queue order (the same shape as the `queueUpdate`
/// event, which brings it again when it changes).
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct QueueView {
    files: Vec<QueuedFile>,
    basis: QueueBasis,
}

fn queued_file(file: pb::TranscriptionFile) -> Result<Option<QueuedFile>, ApiError> {
    let Some(estimate) = file.queue else {
        return Ok(None);
    };
    Ok(Some(QueuedFile {
        status: FileStatus::try_from(file.status)?,
        file_id: file.id,
        job_id: file.job_id,
        title: file.title,
        position: estimate.position,
        eta_seconds: estimate.eta_seconds,
        estimated_start_at: estimate.estimated_start_at,
        estimated_end_at: estimate.estimated_end_at,
        waits_for_window: estimate.waits_for_window,
    }))
}

/// The caller's waiting and running files, each with its place in the whole instance's queue
/// (other users' files count, but are never named) and its estimated start and end.
///
/// Every time is an estimate: this machine's real-time factor, measured on its recent
/// completed files (wall time ÷ audio length), × each file's audio length, shared across the
/// workers seen running; when nothing was measured yet a file is assumed to take as long as it
/// plays (`basis` says which). A file of an overnight schedule starts when its window opens.
#[utoipa::path(get, path = "/api/transcription/queue", tag = "transcription", responses((status = 200, body = Envelope<QueueView>)))]
pub async fn queue(services: UserClients) -> Result<HttpResponse, ApiError> {
    let answer = services
        .transcription()
        .get_transcription_queue(pb::GetTranscriptionQueueRequest {})
        .await?
        .into_inner();
    let mut files = Vec::with_capacity(answer.files.len());
    for file in answer.files {
        files.extend(queued_file(file)?);
    }
    let basis = answer.basis.unwrap_or_default();
    Ok(data(QueueView {
        files,
        basis: QueueBasis {
            real_time_factor: basis.real_time_factor,
            measured_files: basis.measured_files,
            workers: basis.workers,
        },
    }))
}

#[derive(OpenApi)]
#[openapi(paths(queue))]
pub(crate) struct Docs;

pub(super) fn routes() -> RouteList {
    RouteList::default().add::<__path_queue>(Access::SignedIn, || actix_web::web::to(queue))
}
