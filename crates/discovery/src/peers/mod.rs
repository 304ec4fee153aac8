//! The other services a download job hands its results to: storage keeps each MP3 as its
//! video's audio, transcription queues it when the job asks. Behind traits, so the job's rules
//! are tested with the real services in-process and the gRPC clients stay at the edge.

mod storage;
mod transcription;

use std::path::Path;

use async_trait::async_trait;
use scribevault_core::UserId;

pub use storage::StorageClient;
pub use transcription::TranscriptionClient;

use crate::domain::downloads::TranscribeAfter;

/// A peer's failure: the vocabulary every Scribevault caller shares.
pub use scribevault_proto::client::PeerError;

/// A peer's answer as a download job reads it: a peer that knows nothing of what it was
/// given (`NotFound`) refused it, like any other answer about the request itself.
fn refusal(status: tonic::Status) -> PeerError {
    match PeerError::from(status) {
        PeerError::NotFound(message) => PeerError::Refused(message),
        other => other,
    }
}

/// What storage records with a video's MP3 (from the discovery cache).
#[derive(Debug, Clone, Default)]
pub struct VideoAudio {
    pub video_id: String,
    pub title: String,
    pub channel_title: String,
    pub duration_seconds: Option<f64>,
    /// RFC 3339.
    pub published_at: String,
}

/// Where downloaded MP3s go.
#[async_trait]
pub trait AudioArchive: Send + Sync {
    /// Stores `file` as the MP3 of `video` for `user`; answers its `mp3Path`.
    async fn store_video_mp3(
        &self,
        user: &UserId,
        video: &VideoAudio,
        file: &Path,
    ) -> Result<String, PeerError>;
}

/// Where downloaded MP3s are queued for transcription.
#[async_trait]
pub trait TranscriptionIntake: Send + Sync {
    /// Queues `mp3_path` for `user`; answers the transcription job's id.
    async fn transcribe(
        &self,
        user: &UserId,
        video: &VideoAudio,
        mp3_path: &str,
        how: &TranscribeAfter,
    ) -> Result<String, PeerError>;
}
