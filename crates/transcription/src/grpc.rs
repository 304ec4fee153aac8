//! Thin gRPC adapter over [`Transcriptions`].

use scribevault_bus::contract;
use scribevault_bus::contract::TranscriptReview;
use scribevault_core::identity::caller;
use scribevault_proto::transcription::v1 as pb;
use tonic::{Request, Response, Status};

use crate::domain::{
    CompletedTranscript, FileStatus, FileToTranscribe, ScheduleWindow, TranscriptionFile,
    TranscriptionJob,
};
use crate::service::Transcriptions;

#[path = "grpc_queue.rs"]
mod queue;

pub struct TranscriptionGrpc {
    service: Transcriptions,
}

impl TranscriptionGrpc {
    pub fn new(service: Transcriptions) -> Self {
        Self { service }
    }
}

/// A file's state on the wire: the contract's spelling (shared with the events and REST), whose
/// proto twin `scribevault_bus::wire` keeps.
fn wire_file_status(status: FileStatus) -> i32 {
    pb::FileStatus::from(contract::FileStatus::from(status)).into()
}

fn file_to_proto(file: TranscriptionFile) -> pb::TranscriptionFile {
    pb::TranscriptionFile {
        id: file.file_id,
        job_id: file.job_id,
        youtube_video_id: file.youtube_video_id,
        title: file.title,
        mp3_path: file.mp3_path,
        status: wire_file_status(file.status),
        progress: file.progress,
        error_message: file.error_message,
        retry_count: file.retry_count,
        max_retries: file.max_retries,
        last_failed_at: file.last_failed_at.map(|at| at.to_rfc3339()),
        transcript_path: file.transcript_path,
        markdown_path: file.markdown_path,
        processing_time_ms: file.processing_time_ms,
        queue: None,
        language: file.language,
    }
}

fn job_to_proto(job: TranscriptionJob, files: Vec<TranscriptionFile>) -> pb::TranscriptionJob {
    pb::TranscriptionJob {
        id: job.id,
        status: if TranscriptionJob::is_finished(&files) {
            pb::JobStatus::Finished.into()
        } else {
            pb::JobStatus::Active.into()
        },
        model: job.model,
        output_format: job.output_format.as_str().to_owned(),
        language: job
            .language
            .map(|language| language.as_str().to_owned())
            .unwrap_or_default(),
        created_at: job.created_at.to_rfc3339(),
        files: files.into_iter().map(file_to_proto).collect(),
    }
}

fn files_from_proto(files: Vec<pb::FileToTranscribe>) -> Vec<FileToTranscribe> {
    files
        .into_iter()
        .map(|file| FileToTranscribe {
            id: file.id,
            mp3_path: file.mp3_path,
            title: file.title,
            youtube_video_id: file.youtube_video_id,
            replaces_item: file.replaces_item.filter(|id| !id.is_empty()),
        })
        .collect()
}

/// An optional string the wire may carry as empty.
fn non_empty(value: Option<String>) -> Option<String> {
    value.filter(|value| !value.trim().is_empty())
}

/// A claim token as the wire carries it (unsigned) to the store's column type.
fn claim_token_from_wire(value: u32) -> i32 {
    i32::try_from(value).unwrap_or(i32::MAX)
}

#[tonic::async_trait]
impl pb::transcription_service_server::TranscriptionService for TranscriptionGrpc {
    async fn start_transcription(
        &self,
        request: Request<pb::StartTranscriptionRequest>,
    ) -> Result<Response<pb::StartTranscriptionResponse>, Status> {
        let user = caller(&request)?;
        let start = request.into_inner();
        let (job, files) = self
            .service
            .start_job(
                &user,
                files_from_proto(start.files),
                &start.model,
                &start.output_format,
                start.skip_vault,
                non_empty(start.language).as_deref(),
            )
            .await?;
        Ok(Response::new(pb::StartTranscriptionResponse {
            job_id: job.id,
            files: self.with_queue(files).await,
        }))
    }

    async fn schedule_transcription(
        &self,
        request: Request<pb::ScheduleTranscriptionRequest>,
    ) -> Result<Response<pb::StartTranscriptionResponse>, Status> {
        let user = caller(&request)?;
        let schedule = request.into_inner();
        let (job, files) = self
            .service
            .schedule_job(
                &user,
                files_from_proto(schedule.files),
                &schedule.model,
                &schedule.output_format,
                &ScheduleWindow {
                    start: schedule.start_time,
                    end: schedule.end_time,
                    timezone: schedule.timezone,
                },
                non_empty(schedule.language).as_deref(),
            )
            .await?;
        Ok(Response::new(pb::StartTranscriptionResponse {
            job_id: job.id,
            files: self.with_queue(files).await,
        }))
    }

    async fn retry_transcription_file(
        &self,
        request: Request<pb::FileRef>,
    ) -> Result<Response<pb::TranscriptionFile>, Status> {
        let user = caller(&request)?;
        let file = request.into_inner();
        let file = self
            .service
            .retry(&user, &file.job_id, &file.file_id)
            .await?;
        Ok(Response::new(self.one_with_queue(file).await))
    }

    async fn cancel_transcription_file(
        &self,
        request: Request<pb::FileRef>,
    ) -> Result<Response<pb::TranscriptionFile>, Status> {
        let user = caller(&request)?;
        let file = request.into_inner();
        let file = self
            .service
            .cancel(&user, &file.job_id, &file.file_id)
            .await?;
        Ok(Response::new(self.one_with_queue(file).await))
    }

    async fn get_transcription_history(
        &self,
        request: Request<pb::GetTranscriptionJobRequest>,
    ) -> Result<Response<pb::GetTranscriptionHistoryResponse>, Status> {
        let user = caller(&request)?;
        let (_, files) = self
            .service
            .job(&user, &request.into_inner().job_id)
            .await?;
        Ok(Response::new(pb::GetTranscriptionHistoryResponse {
            entries: files
                .into_iter()
                .map(|file| pb::HistoryEntry {
                    id: file.file_id,
                    title: file.title,
                    retry_count: file.retry_count,
                    max_retries: file.max_retries,
                    last_failed_at: file.last_failed_at.map(|at| at.to_rfc3339()),
                })
                .collect(),
        }))
    }

    async fn get_transcription_job(
        &self,
        request: Request<pb::GetTranscriptionJobRequest>,
    ) -> Result<Response<pb::TranscriptionJob>, Status> {
        let user = caller(&request)?;
        let (job, files) = self
            .service
            .job(&user, &request.into_inner().job_id)
            .await?;
        Ok(Response::new(self.job_with_queue(job, files).await))
    }

    async fn list_models(
        &self,
        request: Request<pb::ListModelsRequest>,
    ) -> Result<Response<pb::ListModelsResponse>, Status> {
        caller(&request)?;
        Ok(Response::new(pb::ListModelsResponse {
            models: self.service.available_models().await,
        }))
    }

    async fn count_waiting_files(
        &self,
        request: Request<pb::CountWaitingFilesRequest>,
    ) -> Result<Response<pb::CountWaitingFilesResponse>, Status> {
        let user = caller(&request)?;
        let waiting = self.service.count_waiting(&user).await?;
        Ok(Response::new(pb::CountWaitingFilesResponse { waiting }))
    }

    async fn get_transcription_queue(
        &self,
        request: Request<pb::GetTranscriptionQueueRequest>,
    ) -> Result<Response<pb::GetTranscriptionQueueResponse>, Status> {
        let user = caller(&request)?;
        let queue = self.service.own_queue(&user).await?;
        Ok(Response::new(queue::queue_to_proto(queue)))
    }

    async fn delete_user_data(
        &self,
        request: Request<pb::DeleteUserDataRequest>,
    ) -> Result<Response<pb::DeleteUserDataResponse>, Status> {
        let user = caller(&request)?;
        let deleted = self.service.delete_user_data(&user).await?;
        Ok(Response::new(pb::DeleteUserDataResponse {
            rows_deleted: deleted.rows,
            blobs_deleted: deleted.blobs,
        }))
    }

    async fn set_transcription_preferences(
        &self,
        request: Request<pb::SetTranscriptionPreferencesRequest>,
    ) -> Result<Response<pb::SetTranscriptionPreferencesResponse>, Status> {
        let user = caller(&request)?;
        let preferences = request.into_inner();
        self.service
            .set_default_language(&user, &preferences.language)
            .await?;
        Ok(Response::new(pb::SetTranscriptionPreferencesResponse {}))
    }

    async fn claim_transcription_file(
        &self,
        request: Request<pb::ClaimTranscriptionFileRequest>,
    ) -> Result<Response<pb::ClaimTranscriptionFileResponse>, Status> {
        let user = caller(&request)?;
        let claim = request.into_inner();
        Ok(Response::new(
            match self
                .service
                .claim(&user, &claim.job_id, &claim.file_id, claim.take_turns)
                .await?
            {
                Ok(claimed) => pb::ClaimTranscriptionFileResponse {
                    claimed: true,
                    reason: String::new(),
                    user_id: claimed.file.user_id.clone(),
                    claim_token: u32::try_from(claimed.claim_token).unwrap_or(0),
                    model: claimed.model,
                    output_format: claimed.output_format.as_str().to_owned(),
                    language: claimed
                        .language
                        .map(|language| language.as_str().to_owned())
                        .unwrap_or_default(),
                    file: Some(file_to_proto(claimed.file)),
                },
                Err(refusal) => pb::ClaimTranscriptionFileResponse {
                    claimed: false,
                    reason: refusal.as_str().to_owned(),
                    ..Default::default()
                },
            },
        ))
    }

    async fn report_transcription_progress(
        &self,
        request: Request<pb::ReportTranscriptionProgressRequest>,
    ) -> Result<Response<pb::ReportTranscriptionProgressResponse>, Status> {
        let user = caller(&request)?;
        let report = request.into_inner();
        let stop = self
            .service
            .report_progress(
                &user,
                &report.job_id,
                &report.file_id,
                claim_token_from_wire(report.claim_token),
                report.progress,
            )
            .await?;
        Ok(Response::new(pb::ReportTranscriptionProgressResponse {
            stop,
        }))
    }

    async fn complete_transcription_file(
        &self,
        request: Request<pb::CompleteTranscriptionFileRequest>,
    ) -> Result<Response<pb::CompleteTranscriptionFileResponse>, Status> {
        let user = caller(&request)?;
        let done = request.into_inner();
        let result = CompletedTranscript {
            transcript_path: done.transcript_path,
            markdown_path: done.markdown_path,
            segments_path: done.segments_path,
            processing_time_ms: done.processing_time_ms,
            duration_seconds: done.duration_seconds,
            vault_content: done.vault_content,
            language: non_empty(done.language),
            review: done
                .review
                .map(TranscriptReview::try_from)
                .transpose()?
                .and_then(TranscriptReview::if_needed),
        };
        self.service
            .complete(
                &user,
                &done.job_id,
                &done.file_id,
                claim_token_from_wire(done.claim_token),
                result,
            )
            .await?;
        Ok(Response::new(pb::CompleteTranscriptionFileResponse {}))
    }

    async fn fail_transcription_file(
        &self,
        request: Request<pb::FailTranscriptionFileRequest>,
    ) -> Result<Response<pb::FailTranscriptionFileResponse>, Status> {
        let user = caller(&request)?;
        let failure = request.into_inner();
        self.service
            .fail(
                &user,
                &failure.job_id,
                &failure.file_id,
                claim_token_from_wire(failure.claim_token),
                &failure.error_message,
                failure.permanent,
            )
            .await?;
        Ok(Response::new(pb::FailTranscriptionFileResponse {}))
    }
}
