//! Errors of the discovery service and their place in the shared vocabulary.

use chrono::{DateTime, Utc};
use scribevault_core::ErrorCode;
use scribevault_core::error_code::ServiceError;

use crate::youtube::YouTubeError;

/// The spec's message for a blank channel box (§5).
pub const BLANK_CHANNEL_URL: &str = "Please enter a YouTube channel URL";
/// The message for text that names no YouTube channel, video or playlist.
pub const INVALID_CHANNEL_URL: &str = "Please enter a valid YouTube channel URL";

/// What can go wrong in discovery.
#[derive(Debug, thiserror::Error)]
pub enum DiscoveryError {
    /// The channel box was empty.
    #[error("{BLANK_CHANNEL_URL}")]
    BlankUrl,
    /// The text is not a YouTube channel, video or playlist URL.
    #[error("{INVALID_CHANNEL_URL}")]
    NotYouTube,
    /// YouTube knows no such channel (or the video or playlist that named it).
    #[error("Channel not found")]
    ChannelNotFound,
    /// YouTube knows no such playlist.
    #[error("Playlist not found")]
    PlaylistNotFound,
    /// No source with this id belongs to the caller (it may belong to someone else).
    #[error("Source not found")]
    SourceNotFound,
    /// The caller already follows this channel or playlist.
    #[error("This source has already been added")]
    SourceExists,
    /// No download job with this id belongs to the caller.
    #[error("Download job not found")]
    JobNotFound,
    /// The job has already completed or failed.
    #[error("This job has already ended")]
    JobEnded,
    /// The job cannot be retried; the message says why.
    #[error("{0}")]
    NotRetryable(String),
    /// Another job would take the caller past their cap on download jobs not yet finished.
    #[error(
        "You have {active} download jobs not yet finished; at most {cap} may be active at once. Wait for some to finish or cancel them."
    )]
    TooManyActiveDownloads {
        /// The caller's pending and running jobs now.
        active: u64,
        /// `SCRIBEVAULT_MAX_ACTIVE_DOWNLOAD_JOBS_PER_USER`.
        cap: u64,
    },
    /// No schedule with this id belongs to the caller.
    #[error("Schedule not found")]
    ScheduleNotFound,
    /// The download machinery itself failed (its work directory).
    #[error("download failed: {0}")]
    Download(String),
    /// Nothing to export.
    #[error("No videos to export")]
    NothingToExport,
    /// The request is invalid; the message says why.
    #[error("{0}")]
    InvalidArgument(String),
    /// No API key is configured.
    #[error(
        "YouTube discovery is not configured: set SCRIBEVAULT_YOUTUBE_API_KEY to a YouTube Data API v3 key"
    )]
    NoApiKey,
    /// Every key's daily quota is spent.
    #[error(
        "The YouTube Data API daily quota ({per_key} units per key) is used up; it resets at midnight Pacific time ({}). Try again then, or add another key to SCRIBEVAULT_YOUTUBE_API_KEY",
        resets_at.format("%Y-%m-%d %H:%M UTC")
    )]
    QuotaExhausted {
        per_key: u64,
        resets_at: DateTime<Utc>,
    },
    /// The user spent their own share of the keys' units today.
    #[error(
        "You have used your {limit} YouTube API units for today (SCRIBEVAULT_YOUTUBE_UNITS_PER_USER_PER_DAY); they reset at midnight Pacific time ({}). Cached channels still answer",
        resets_at.format("%Y-%m-%d %H:%M UTC")
    )]
    UserQuotaExhausted {
        limit: u64,
        resets_at: DateTime<Utc>,
    },
    /// Google refused the key.
    #[error(
        "YouTube refused the API key in SCRIBEVAULT_YOUTUBE_API_KEY ({0}); check the key and that the YouTube Data API v3 is enabled for its project"
    )]
    KeyRejected(String),
    /// YouTube failed or answered something we cannot read.
    #[error("YouTube did not answer as expected: {0}")]
    Upstream(String),
    /// The database failed.
    #[error("database error: {0}")]
    Database(#[from] sea_orm::DbErr),
    /// A file could not be written.
    #[error("export failed: {0}")]
    Export(#[from] csv::Error),
}

impl DiscoveryError {
    /// The service's view of a YouTube client failure.
    #[must_use]
    pub fn from_youtube(error: YouTubeError, per_key_quota: u64) -> Self {
        match error {
            YouTubeError::NoKey => Self::NoApiKey,
            YouTubeError::QuotaExhausted { resets_at } => Self::QuotaExhausted {
                per_key: per_key_quota,
                resets_at,
            },
            YouTubeError::UserUnitsSpent { limit, resets_at } => {
                Self::UserQuotaExhausted { limit, resets_at }
            }
            YouTubeError::KeyRejected(reason) => Self::KeyRejected(reason),
            YouTubeError::PlaylistNotFound => Self::PlaylistNotFound,
            YouTubeError::Upstream(detail) => Self::Upstream(detail),
        }
    }
}

impl ServiceError for DiscoveryError {
    fn error_code(&self) -> ErrorCode {
        match self {
            Self::BlankUrl
            | Self::NotYouTube
            | Self::NothingToExport
            | Self::InvalidArgument(_) => ErrorCode::BadRequest,
            Self::ChannelNotFound
            | Self::PlaylistNotFound
            | Self::SourceNotFound
            | Self::JobNotFound
            | Self::ScheduleNotFound => ErrorCode::NotFound,
            Self::SourceExists | Self::JobEnded | Self::NotRetryable(_) => ErrorCode::Conflict,
            Self::NoApiKey => ErrorCode::NotConfigured,
            Self::QuotaExhausted { .. }
            | Self::UserQuotaExhausted { .. }
            | Self::TooManyActiveDownloads { .. } => ErrorCode::TooManyRequests,
            Self::KeyRejected(_) | Self::Upstream(_) => ErrorCode::BadGateway,
            Self::Database(_) | Self::Export(_) | Self::Download(_) => ErrorCode::Internal,
        }
    }
}

impl From<DiscoveryError> for tonic::Status {
    fn from(error: DiscoveryError) -> Self {
        scribevault_core::error_code::into_status(&error)
    }
}
