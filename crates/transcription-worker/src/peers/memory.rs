//! [`FileState`] in memory, for tests of the worker without the transcription service: it
//! keeps each file's state as the service would (claims with tokens, cancels answered at the
//! next report) and can be made unreachable.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

use async_trait::async_trait;
use scribevault_core::UserId;
use scribevault_proto::client::PeerError;

use super::{Claim, FileState};
use crate::domain::{ClaimedFile, OutputFormat, Transcript};

/// Where a file stands, as recorded.
#[derive(Debug, Clone)]
pub enum Recorded {
    /// Not claimed yet.
    Waiting,
    /// Claimed; its reports so far.
    Running { reports: Vec<u32> },
    /// Completed with this transcript.
    Completed(Transcript),
    /// Failed.
    Failed { message: String, permanent: bool },
    /// Cancelled by its owner.
    Cancelled,
}

struct Entry {
    file: ClaimedFile,
    state: Recorded,
}

#[derive(Default)]
struct Files {
    files: HashMap<(String, String), Entry>,
    unreachable: bool,
}

/// File state in this process. Clones share it.
#[derive(Clone, Default)]
pub struct InMemoryFileState {
    inner: Arc<Mutex<Files>>,
}

impl InMemoryFileState {
    /// Queues `file_id` of `user`'s job `job_id`: the MP3 at `mp3_path`, transcribed with
    /// `model` into `format`.
    pub fn add(
        &self,
        user: &UserId,
        (job_id, file_id): (&str, &str),
        mp3_path: &str,
        model: &str,
        format: OutputFormat,
    ) {
        let file = ClaimedFile {
            user: user.clone(),
            job_id: job_id.to_owned(),
            file_id: file_id.to_owned(),
            title: format!("Title of {file_id}"),
            mp3_path: mp3_path.to_owned(),
            model: model.to_owned(),
            output_format: format,
            claim_token: 0,
            language: None,
        };
        self.with(|files| {
            files.files.insert(
                (job_id.to_owned(), file_id.to_owned()),
                Entry {
                    file,
                    state: Recorded::Waiting,
                },
            );
        });
    }

    /// Every call fails as if the service were down (`true`), or answers again (`false`).
    pub fn set_unreachable(&self, unreachable: bool) {
        self.with(|files| files.unreachable = unreachable);
    }

    /// The owner cancels the file: a running worker is told to stop at its next report.
    pub fn cancel(&self, job_id: &str, file_id: &str) {
        self.with(|files| {
            if let Some(entry) = files
                .files
                .get_mut(&(job_id.to_owned(), file_id.to_owned()))
            {
                entry.state = Recorded::Cancelled;
            }
        });
    }

    /// Where the file stands.
    #[must_use]
    pub fn recorded(&self, job_id: &str, file_id: &str) -> Option<Recorded> {
        self.with(|files| {
            files
                .files
                .get(&(job_id.to_owned(), file_id.to_owned()))
                .map(|entry| entry.state.clone())
        })
    }

    fn with<T>(&self, work: impl FnOnce(&mut Files) -> T) -> T {
        work(&mut self.inner.lock().unwrap_or_else(PoisonError::into_inner))
    }

    /// The running file `file` holds the claim on, or why not.
    fn running<'a>(
        files: &'a mut Files,
        file: &ClaimedFile,
    ) -> Result<Option<&'a mut Entry>, PeerError> {
        if files.unreachable {
            return Err(unreachable());
        }
        let entry = files
            .files
            .get_mut(&(file.job_id.clone(), file.file_id.clone()))
            .ok_or_else(|| PeerError::NotFound("No active job for this file".to_owned()))?;
        let holds = entry.file.claim_token == file.claim_token
            && matches!(entry.state, Recorded::Running { .. });
        Ok(holds.then_some(entry))
    }
}

fn unreachable() -> PeerError {
    PeerError::Unavailable("Unavailable: the file state is unreachable".to_owned())
}

#[async_trait]
impl FileState for InMemoryFileState {
    async fn claim(&self, user: &UserId, job_id: &str, file_id: &str) -> Result<Claim, PeerError> {
        self.with(|files| {
            if files.unreachable {
                return Err(unreachable());
            }
            let Some(entry) = files
                .files
                .get_mut(&(job_id.to_owned(), file_id.to_owned()))
                .filter(|entry| &entry.file.user == user)
            else {
                return Ok(Claim::Unknown);
            };
            Ok(match entry.state {
                Recorded::Waiting => {
                    entry.file.claim_token += 1;
                    entry.state = Recorded::Running {
                        reports: Vec::new(),
                    };
                    Claim::Claimed(entry.file.clone())
                }
                Recorded::Running { .. } => Claim::Refused("busy".to_owned()),
                _ => Claim::Refused("finished".to_owned()),
            })
        })
    }

    async fn report(&self, file: &ClaimedFile, progress: u32) -> Result<bool, PeerError> {
        self.with(|files| {
            Ok(match Self::running(files, file)? {
                Some(Entry {
                    state: Recorded::Running { reports },
                    ..
                }) => {
                    reports.push(progress);
                    false
                }
                _ => true,
            })
        })
    }

    async fn complete(&self, file: &ClaimedFile, transcript: Transcript) -> Result<(), PeerError> {
        self.with(|files| {
            if let Some(entry) = Self::running(files, file)? {
                entry.state = Recorded::Completed(transcript);
            }
            Ok(())
        })
    }

    async fn fail(
        &self,
        file: &ClaimedFile,
        error_message: String,
        permanent: bool,
    ) -> Result<(), PeerError> {
        self.with(|files| {
            if let Some(entry) = Self::running(files, file)? {
                entry.state = Recorded::Failed {
                    message: error_message,
                    permanent,
                };
            }
            Ok(())
        })
    }
}
