//! The service the worker works for: the transcription service owns every file's state, and
//! the worker claims, reports, completes and fails files through it. Behind a trait, so the
//! worker's control flow can be tested without the service ([`InMemoryFileState`]) as well as
//! with the real one in-process ([`FileStateClient`]).

mod memory;
mod transcription;

use async_trait::async_trait;
use scribevault_core::UserId;
use scribevault_proto::client::PeerError;

pub use memory::{InMemoryFileState, Recorded};
pub use transcription::FileStateClient;

use crate::domain::{ClaimedFile, Transcript};

/// How a claim went.
#[derive(Debug)]
pub enum Claim {
    /// The file is this worker's.
    Claimed(ClaimedFile),
    /// Nothing to do (finished, held by a live worker, outside its window); the reason is
    /// for the log.
    Refused(String),
    /// The file no longer exists.
    Unknown,
}

/// Where file state lives. Every call acts for the file's owner.
#[async_trait]
pub trait FileState: Send + Sync {
    /// Asks for the file `user` queued. The service may hand over another user's file whose
    /// turn came first: the answer names it.
    ///
    /// # Errors
    /// The service could not be asked (a refusal is an answer, not an error).
    async fn claim(&self, user: &UserId, job_id: &str, file_id: &str) -> Result<Claim, PeerError>;

    /// Reports progress (the worker's heartbeat). Returns whether the worker must stop: the
    /// user cancelled, or the claim went to another worker.
    ///
    /// # Errors
    /// The report did not arrive.
    async fn report(&self, file: &ClaimedFile, progress: u32) -> Result<bool, PeerError>;

    /// Hands the finished transcript over.
    ///
    /// # Errors
    /// It was not recorded.
    async fn complete(&self, file: &ClaimedFile, transcript: Transcript) -> Result<(), PeerError>;

    /// Records a failed attempt; `permanent` when no retry can help.
    ///
    /// # Errors
    /// It was not recorded.
    async fn fail(
        &self,
        file: &ClaimedFile,
        error_message: String,
        permanent: bool,
    ) -> Result<(), PeerError>;
}
