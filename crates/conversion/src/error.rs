//! Errors of the conversion service and their place in the shared vocabulary.

use scribevault_core::ErrorCode;
use scribevault_core::error_code::ServiceError;

use crate::pdf::{ExtractedPdf, OcrError, PdfError};

/// What can go wrong in conversion.
#[derive(Debug, thiserror::Error)]
pub enum ConversionError {
    /// No template (or Vault item) with this id belongs to the caller.
    #[error("{0} not found")]
    NotFound(&'static str),
    /// The user already has a template of this name.
    #[error("A template named {0:?} already exists")]
    DuplicateTemplate(String),
    /// The request is invalid; the message says why.
    #[error("{0}")]
    InvalidArgument(String),
    /// The Vault item has no kept PDF to convert again.
    #[error("This Vault item was not made from a PDF, so there is nothing to convert again")]
    NotFromPdf,
    #[error(transparent)]
    Pdf(#[from] PdfError),
    /// Another service failed.
    #[error("{0}")]
    Peer(String),
    #[error("blob store: {0}")]
    Blob(#[from] scribevault_blob::BlobError),
    #[error("database error: {0}")]
    Database(#[from] sea_orm::DbErr),
}

impl From<crate::domain::template::TemplateError> for ConversionError {
    /// A template over its limits is the caller's to fix: 400, with the limit named.
    fn from(error: crate::domain::template::TemplateError) -> Self {
        Self::InvalidArgument(error.to_string())
    }
}

impl ConversionError {
    /// What a damaged PDF still gave, for the caller to keep.
    #[must_use]
    pub fn recovered(&self) -> Option<&ExtractedPdf> {
        match self {
            Self::Pdf(PdfError::Damaged { recovered, .. }) => recovered.as_deref(),
            _ => None,
        }
    }
}

impl ServiceError for ConversionError {
    fn error_code(&self) -> ErrorCode {
        match self {
            Self::NotFound(_) => ErrorCode::NotFound,
            Self::DuplicateTemplate(_) => ErrorCode::Conflict,
            Self::InvalidArgument(_) | Self::Pdf(PdfError::NotPdf) => ErrorCode::BadRequest,
            Self::NotFromPdf
            | Self::Pdf(
                PdfError::Encrypted
                | PdfError::Damaged { .. }
                | PdfError::Unconvertible
                | PdfError::Inflates { .. },
            )
            | Self::Pdf(PdfError::Ocr(OcrError::Failed(_))) => ErrorCode::Unprocessable,
            Self::Pdf(PdfError::TooLarge { .. }) => ErrorCode::PayloadTooLarge,
            Self::Pdf(PdfError::Ocr(OcrError::Missing)) => ErrorCode::NotConfigured,
            Self::Peer(_) | Self::Blob(_) | Self::Pdf(PdfError::Busy) => ErrorCode::Unavailable,
            Self::Pdf(PdfError::Spool(_)) => ErrorCode::Internal,
            Self::Database(_) => ErrorCode::Internal,
        }
    }
}

impl From<ConversionError> for tonic::Status {
    fn from(error: ConversionError) -> Self {
        let mut status = scribevault_core::error_code::into_status(&error);
        if let Some(recovered) = error.recovered() {
            let json = serde_json::json!({ "recovered": {
                "title": recovered.title,
                "content": recovered.markdown,
                "pages": recovered.pages,
            }});
            status.metadata_mut().insert_bin(
                scribevault_core::error_code::ERROR_DETAILS_METADATA,
                tonic::metadata::MetadataValue::from_bytes(json.to_string().as_bytes()),
            );
        }
        status
    }
}
