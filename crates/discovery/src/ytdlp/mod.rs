//! Audio downloads and captions: the `AudioFetcher` and `CaptionFetcher` traits the download
//! jobs use, and their implementation by the `yt-dlp` command (`command.rs` for the audio,
//! `captions.rs` for the captions), whose process (`child.rs`), output lines (`progress.rs`)
//! and failures (`failure.rs`) are handled here and nowhere else.

mod captions;
mod child;
mod command;
mod failure;
mod progress;

use std::path::{Path, PathBuf};

use async_trait::async_trait;
use tokio::sync::watch;
use tokio_util::sync::CancellationToken;

use crate::captions::CaptionTranscript;

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

/// Why a video's captions were not used (it then goes to Whisper).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CaptionFailure {
    /// The job was cancelled or the service is stopping; the process is gone.
    #[error("stopped")]
    Stopped,
    /// YouTube answered 429 Too Many Requests.
    #[error("rate limited: {0}")]
    RateLimited(String),
    /// Anything else: yt-dlp's reason, a timeout, an unreadable track.
    #[error("{0}")]
    Failed(String),
}

/// Fetches a video's own captions in its original language.
#[async_trait]
pub trait CaptionFetcher: Send + Sync {
    /// The transcript made from `video_id`'s captions, `None` when it has none that may be
    /// used (none at all, none in its original language, or an empty track). Works in
    /// `work_dir` and leaves nothing there; `stop` kills yt-dlp before this returns.
    async fn fetch_captions(
        &self,
        video_id: &str,
        work_dir: &Path,
        stop: CancellationToken,
    ) -> Result<Option<CaptionTranscript>, CaptionFailure>;
}
