//! Errors of the library service and their place in the shared vocabulary.

use scribevault_core::ErrorCode;
use scribevault_core::error_code::ServiceError;

use crate::export::LinkError;

/// What can go wrong in the library.
#[derive(Debug, thiserror::Error)]
pub enum LibraryError {
    /// No item with this id belongs to the caller (it may belong to someone else).
    #[error("transcript not found")]
    NotFound,
    /// No section with this id belongs to the caller.
    #[error("section not found")]
    SectionNotFound,
    /// The export a link names is gone (its items were deleted, or it was pruned).
    #[error("export not found")]
    ExportNotFound,
    /// A download link was changed or has expired.
    #[error(transparent)]
    Link(#[from] LinkError),
    /// The request is invalid; the message says why.
    #[error("{0}")]
    InvalidArgument(String),
    /// The blob store failed.
    #[error("blob store: {0}")]
    Blob(#[from] scribevault_blob::BlobError),
    /// The database failed.
    #[error("database error: {0}")]
    Database(#[from] sea_orm::DbErr),
    /// A search by meaning alone was asked of a server that cannot do it; the message says
    /// what it lacks.
    #[error("{0}")]
    MeaningOff(String),
    /// The embedding engine failed.
    #[error("embedding: {0}")]
    Embedding(String),
}

impl ServiceError for LibraryError {
    fn error_code(&self) -> ErrorCode {
        match self {
            Self::NotFound | Self::SectionNotFound | Self::ExportNotFound => ErrorCode::NotFound,
            Self::Link(_) => ErrorCode::Forbidden,
            Self::InvalidArgument(_) => ErrorCode::BadRequest,
            Self::Blob(_) => ErrorCode::Unavailable,
            Self::Database(_) => ErrorCode::Internal,
            Self::MeaningOff(_) => ErrorCode::NotConfigured,
            Self::Embedding(_) => ErrorCode::Unavailable,
        }
    }
}

impl From<LibraryError> for tonic::Status {
    fn from(error: LibraryError) -> Self {
        scribevault_core::error_code::into_status(&error)
    }
}
