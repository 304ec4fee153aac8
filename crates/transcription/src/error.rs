//! Errors of the transcription service.

use scribevault_core::ErrorCode;
use scribevault_core::error_code::ServiceError;

/// What can go wrong with transcription jobs.
#[derive(Debug, thiserror::Error)]
pub enum TranscriptionError {
    /// The request is invalid; the message says why.
    #[error("{0}")]
    InvalidArgument(String),
    /// The requested model is not in the model directory.
    #[error("Model '{requested}' is not available. Available models: {available}. {how_to_add}")]
    ModelUnavailable {
        /// What was asked for.
        requested: String,
        /// What exists, comma-separated (or "none").
        available: String,
        /// One sentence telling an operator how to make the model available.
        how_to_add: String,
    },
    /// No such job or file for this caller.
    #[error("{0}")]
    NotFound(String),
    /// The file is in a state that does not allow the action.
    #[error("{0}")]
    Conflict(String),
    /// The request would take the caller past their cap on files waiting for transcription.
    #[error(
        "You have {waiting} files waiting for transcription; at most {cap} may wait. Wait for some to finish or cancel them."
    )]
    TooManyWaiting {
        /// The caller's files waiting now.
        waiting: u64,
        /// `SCRIBEVAULT_MAX_WAITING_FILES_PER_USER`.
        cap: u64,
    },
    /// The bus or blob store failed.
    #[error("backend unavailable: {0}")]
    Unavailable(String),
    /// The database failed.
    #[error("database error: {0}")]
    Database(#[from] sea_orm::DbErr),
}

impl ServiceError for TranscriptionError {
    fn error_code(&self) -> ErrorCode {
        match self {
            Self::InvalidArgument(_) | Self::ModelUnavailable { .. } => ErrorCode::BadRequest,
            Self::NotFound(_) => ErrorCode::NotFound,
            Self::Conflict(_) => ErrorCode::Conflict,
            Self::TooManyWaiting { .. } => ErrorCode::TooManyRequests,
            Self::Unavailable(_) => ErrorCode::Unavailable,
            Self::Database(_) => ErrorCode::Internal,
        }
    }
}

impl From<TranscriptionError> for tonic::Status {
    fn from(error: TranscriptionError) -> Self {
        scribevault_core::error_code::into_status(&error)
    }
}
