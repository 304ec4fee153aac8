//! Transcription's `StartTranscription` over gRPC: one job per downloaded video, so each
//! transcript starts as soon as its audio is there.

use std::time::Duration;

use async_trait::async_trait;
use scribevault_core::UserId;
use scribevault_proto::client::{SignedChannel, outgoing, signed};
use scribevault_proto::transcription::v1 as pb;
use scribevault_proto::transcription::v1::transcription_service_client::TranscriptionServiceClient;

use super::{PeerError, TranscriptionIntake, VideoAudio, refusal};
use crate::domain::downloads::TranscribeAfter;

const CALL_TIMEOUT: Duration = Duration::from_secs(30);

/// A client of the transcription service.
#[derive(Clone)]
pub struct TranscriptionClient {
    inner: TranscriptionServiceClient<SignedChannel>,
}

impl TranscriptionClient {
    /// A client that connects on first use.
    ///
    /// # Errors
    /// `addr` is not a usable address.
    pub fn connect_lazy(addr: &str) -> Result<Self, tonic::transport::Error> {
        Ok(Self {
            inner: TranscriptionServiceClient::new(signed(
                scribevault_proto::server::connect_lazy(addr)?,
            )),
        })
    }
}

#[async_trait]
impl TranscriptionIntake for TranscriptionClient {
    async fn transcribe(
        &self,
        user: &UserId,
        video: &VideoAudio,
        mp3_path: &str,
        how: &TranscribeAfter,
    ) -> Result<String, PeerError> {
        let request = pb::StartTranscriptionRequest {
            files: vec![pb::FileToTranscribe {
                id: video.video_id.clone(),
                mp3_path: mp3_path.to_owned(),
                title: video.title.clone(),
                youtube_video_id: video.video_id.clone(),
                replaces_item: None,
            }],
            model: how.model.clone(),
            output_format: how.output_format.clone(),
            skip_vault: false,
            // The owner's default, which transcription keeps.
            language: None,
        };
        let answer = self
            .inner
            .clone()
            .start_transcription(outgoing(user, request, CALL_TIMEOUT)?)
            .await
            .map_err(refusal)?;
        Ok(answer.into_inner().job_id)
    }
}
