//! Errors of the storage service.

use scribevault_core::ErrorCode;
use scribevault_core::error_code::ServiceError;

/// The text the SPA shows for a file that is not MP3 (docs/product-spec.md §5).
pub const NOT_MP3_MESSAGE: &str = "Please select MP3 files only";

/// What can go wrong in storage.
#[derive(Debug, thiserror::Error)]
pub enum StorageError {
    /// The bytes are not MP3 audio; `detail` is logged, the user sees the spec's text.
    #[error("{NOT_MP3_MESSAGE}")]
    NotMp3 {
        /// Why the content was refused.
        detail: String,
    },
    /// The upload is over the size limit.
    #[error("File is too large: the limit is {limit_mb} MB")]
    TooLarge {
        /// The limit in MB.
        limit_mb: u64,
    },
    /// The audio plays longer than `SCRIBEVAULT_MAX_AUDIO_SECONDS`.
    #[error("The audio is longer than the limit of {limit}")]
    TooLong {
        /// The limit, as people write it (`12 h`).
        limit: String,
    },
    /// Storing the upload would take the user past their quota.
    #[error("Storage limit reached: {limit} allowed, {used} used")]
    QuotaExceeded {
        /// The quota, as the user set it (`10 GB`).
        limit: String,
        /// What the user's files take now.
        used: String,
    },
    /// Nothing of the caller's has this path.
    #[error("file not found")]
    NotFound,
    /// The path is not one we hand out (absolute, `..`, unknown folder).
    #[error("invalid path: {0}")]
    InvalidPath(String),
    /// The request is malformed.
    #[error("{0}")]
    BadRequest(String),
    /// A ranged read starts past the object's end (the gateway answers HTTP 416 before asking;
    /// this is the service's own check).
    #[error("offset {offset} is past the end of the file ({size} bytes)")]
    OutOfRange {
        /// The first byte asked for.
        offset: u64,
        /// The object's size.
        size: u64,
    },
    /// The upload stream broke off.
    #[error("the upload was interrupted")]
    Interrupted,
    /// The blob store failed.
    #[error("blob store failure: {0}")]
    Blob(String),
    /// The database failed.
    #[error("database error: {0}")]
    Database(#[from] sea_orm::DbErr),
}

impl ServiceError for StorageError {
    fn error_code(&self) -> ErrorCode {
        match self {
            Self::NotMp3 { .. }
            | Self::InvalidPath(_)
            | Self::BadRequest(_)
            | Self::OutOfRange { .. }
            | Self::Interrupted => ErrorCode::BadRequest,
            Self::TooLarge { .. } | Self::TooLong { .. } => ErrorCode::PayloadTooLarge,
            Self::QuotaExceeded { .. } => ErrorCode::InsufficientStorage,
            Self::NotFound => ErrorCode::NotFound,
            Self::Blob(_) => ErrorCode::Unavailable,
            Self::Database(_) => ErrorCode::Internal,
        }
    }
}

impl From<StorageError> for tonic::Status {
    fn from(error: StorageError) -> Self {
        if let StorageError::NotMp3 { detail } = &error {
            tracing::info!(detail = %detail, "upload refused: not MP3");
        }
        scribevault_core::error_code::into_status(&error)
    }
}
