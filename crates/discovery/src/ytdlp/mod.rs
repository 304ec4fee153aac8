//! Audio downloads: the `AudioFetcher` trait the download jobs use, and its implementation by
//! the `yt-dlp` command (`command.rs`), whose output lines (`progress.rs`) and failures
//! (`failure.rs`) are read here and nowhere else.

mod command;
mod failure;
mod progress;

use std::path::{Path, PathBuf};

use async_trait::async_trait;
use tokio::sync::watch;
use tokio_util::sync::CancellationToken;

pub use command::{YtDlp, YtDlpOptions};

/// Why a video's audio did not arrive.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FetchFailure {
    /// The job was cancelled or the service is stopping; the process is gone.
    #[error("stopped")]
    Stopped,
    /// The download took longer than the configured limit.
    #[error("Download timed out after {0} s")]
    TimedOut(u64),
    /// A tool is missing; the message says what to install.
    #[error("{0}")]
    NotInstalled(String),
    /// yt-dlp refused the video; its reason.
    #[error("{0}")]
    Refused(String),
    /// Reading the process or its file failed.
    #[error("{0}")]
    Io(String),
}

/// A downloaded MP3 in the job's work directory.
#[derive(Debug, Clone)]
pub struct FetchedAudio {
    pub path: PathBuf,
}

/// Downloads one video's audio as MP3.
#[async_trait]
pub trait AudioFetcher: Send + Sync {
    /// Downloads `video_id` into `work_dir`, sending the percent done on `progress`. Returns
    /// when the file is there, the download failed, or `stop` fired (then the process and its
    /// children are killed before this returns).
    async fn fetch(
        &self,
        video_id: &str,
        work_dir: &Path,
        progress: &watch::Sender<u32>,
        stop: CancellationToken,
    ) -> Result<FetchedAudio, FetchFailure>;
}
