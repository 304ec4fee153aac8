//! Errors of the library service and their place in the shared vocabulary.

use scribevault_core::ErrorCode;
use scribevault_core::error_code::ServiceError;

/// What can go wrong in the library.
#[derive(Debug, thiserror::Error)]
pub enum LibraryError {
    /// No item with this id belongs to the caller (it may belong to someone else).
    #[error("transcript not found")]
    NotFound,
    /// The request is invalid; the message says why.
    #[error("{0}")]
    InvalidArgument(String),
    /// The database failed.
    #[error("database error: {0}")]
    Database(#[from] sea_orm::DbErr),
}

impl ServiceError for LibraryError {
    fn error_code(&self) -> ErrorCode {
        match self {
            Self::NotFound => ErrorCode::NotFound,
            Self::InvalidArgument(_) => ErrorCode::BadRequest,
            Self::Database(_) => ErrorCode::Internal,
        }
    }
}

impl From<LibraryError> for tonic::Status {
    fn from(error: LibraryError) -> Self {
        scribevault_core::error_code::into_status(&error)
    }
}
