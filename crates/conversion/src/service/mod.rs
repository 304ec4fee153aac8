//! The use cases of conversion, one module per concern: templates, transcripts, PDFs, the
//! premium reprocess of a Vault item, and the deletion of an account's data.

mod pdfs;
mod reprocess;
mod templates;
mod transcripts;
mod user_data;

use std::sync::Arc;

use chrono::{DateTime, Utc};
use scribevault_blob::BlobStore;

use crate::pdf::{IncomingPdf, PdfConverter, PdfError};
use crate::peers::Vault;
use crate::store::ConversionStore;

/// The conversion service's use cases.
#[derive(Clone)]
pub struct Conversion {
    store: ConversionStore,
    blobs: Arc<dyn BlobStore>,
    pdf: PdfConverter,
    vault: Arc<dyn Vault>,
}

impl Conversion {
    #[must_use]
    pub fn new(
        store: ConversionStore,
        blobs: Arc<dyn BlobStore>,
        pdf: PdfConverter,
        vault: Arc<dyn Vault>,
    ) -> Self {
        Self {
            store,
            blobs,
            pdf,
            vault,
        }
    }

    /// A conversion permit and a temporary file for an uploaded PDF, taken before its first
    /// byte is read (see `pdf`).
    ///
    /// # Errors
    /// Every permit stayed taken ([`PdfError::Busy`]), or no temporary file can be made.
    pub async fn receive_pdf(&self) -> Result<IncomingPdf, PdfError> {
        self.pdf.receive().await
    }
}

/// `{{date}}`: the day of the conversion.
fn template_date(now: DateTime<Utc>) -> String {
    now.format("%Y-%m-%d").to_string()
}
