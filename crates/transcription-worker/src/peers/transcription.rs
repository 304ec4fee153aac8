//! [`FileState`] over gRPC: the transcription service, which owns file state. Every call
//! carries the file owner's identity, the trace context and a deadline; a call whose identity
//! cannot be attached is not sent.

use std::time::Duration;

use async_trait::async_trait;
use scribevault_core::UserId;
use scribevault_proto::client::{PeerError, outgoing};
use scribevault_proto::client::{SignedChannel, signed};
use scribevault_proto::transcription::v1 as pb;
use scribevault_proto::transcription::v1::transcription_service_client::TranscriptionServiceClient;
use tonic::transport::Channel;

use super::{Claim, FileState};
use crate::domain::{ClaimedFile, OutputFormat, Transcript};

/// Longest a call to the transcription service may take: a hung service must not pin a worker
/// slot (the service's own answers take milliseconds).
const CALL_TIMEOUT: Duration = Duration::from_secs(30);

/// A client of the transcription service.
#[derive(Clone)]
pub struct FileStateClient {
    inner: TranscriptionServiceClient<SignedChannel>,
}

impl FileStateClient {
    /// A client over an existing channel.
    #[must_use]
    pub fn from_channel(channel: Channel) -> Self {
        Self {
            inner: TranscriptionServiceClient::new(signed(channel)),
        }
    }

    /// A client that connects on first use.
    ///
    /// # Errors
    /// `addr` is not a usable address.
    pub fn connect_lazy(addr: &str) -> Result<Self, tonic::transport::Error> {
        Ok(Self::from_channel(scribevault_proto::server::connect_lazy(
            addr,
        )?))
    }
}

#[async_trait]
impl FileState for FileStateClient {
    async fn claim(&self, user: &UserId, job_id: &str, file_id: &str) -> Result<Claim, PeerError> {
        let request = pb::ClaimTranscriptionFileRequest {
            job_id: job_id.to_owned(),
            file_id: file_id.to_owned(),
            take_turns: true,
        };
        let request = outgoing(user, request, CALL_TIMEOUT)?;
        let answer = match self.inner.clone().claim_transcription_file(request).await {
            Ok(answer) => answer.into_inner(),
            Err(status) => {
                return match PeerError::from(status) {
                    PeerError::NotFound(_) => Ok(Claim::Unknown),
                    error => Err(error),
                };
            }
        };
        if !answer.claimed {
            return Ok(Claim::Refused(answer.reason));
        }
        let file = answer.file.unwrap_or_default();
        // The service may hand over another user's file whose turn came first (the proto's
        // `user_id`); an older service names none and means the one asked for.
        let (user, job_id, file_id) = if answer.user_id.is_empty() {
            (user.clone(), job_id.to_owned(), file_id.to_owned())
        } else {
            (UserId::new(answer.user_id), file.job_id, file.id)
        };
        Ok(Claim::Claimed(ClaimedFile {
            user,
            job_id,
            file_id,
            title: file.title,
            mp3_path: file.mp3_path,
            model: answer.model,
            output_format: OutputFormat::from_wire(&answer.output_format),
            claim_token: answer.claim_token,
            // Empty from a job made before jobs recorded a language (or an older service).
            language: answer.language.parse().ok(),
        }))
    }

    async fn report(&self, file: &ClaimedFile, progress: u32) -> Result<bool, PeerError> {
        let report = pb::ReportTranscriptionProgressRequest {
            job_id: file.job_id.clone(),
            file_id: file.file_id.clone(),
            claim_token: file.claim_token,
            progress,
        };
        let request = outgoing(&file.user, report, CALL_TIMEOUT)?;
        Ok(self
            .inner
            .clone()
            .report_transcription_progress(request)
            .await?
            .into_inner()
            .stop)
    }

    async fn complete(&self, file: &ClaimedFile, transcript: Transcript) -> Result<(), PeerError> {
        let done = pb::CompleteTranscriptionFileRequest {
            job_id: file.job_id.clone(),
            file_id: file.file_id.clone(),
            claim_token: file.claim_token,
            transcript_path: transcript.transcript_path,
            markdown_path: transcript.markdown_path,
            segments_path: transcript.segments_path,
            processing_time_ms: transcript.processing_time_ms,
            duration_seconds: transcript.duration_seconds,
            vault_content: transcript.vault_content,
            language: transcript.language,
            review: transcript
                .review
                .if_needed()
                .as_ref()
                .map(scribevault_proto::library::v1::TranscriptReview::from),
        };
        let request = outgoing(&file.user, done, CALL_TIMEOUT)?;
        self.inner
            .clone()
            .complete_transcription_file(request)
            .await?;
        Ok(())
    }

    async fn fail(
        &self,
        file: &ClaimedFile,
        error_message: String,
        permanent: bool,
    ) -> Result<(), PeerError> {
        let failure = pb::FailTranscriptionFileRequest {
            job_id: file.job_id.clone(),
            file_id: file.file_id.clone(),
            claim_token: file.claim_token,
            error_message,
            permanent,
        };
        let request = outgoing(&file.user, failure, CALL_TIMEOUT)?;
        self.inner.clone().fail_transcription_file(request).await?;
        Ok(())
    }
}
