//! Premium mode: a PDF Vault item converted again from its kept original, with OCR for the
//! pages that have no text layer, and the item's content replaced.

use futures::StreamExt as _;
use scribevault_blob::{BlobError, body_from_bytes, collect_body, owned_key};
use scribevault_core::UserId;

use super::Conversion;
use super::pdfs::{chosen_template, render};
use crate::domain::{PdfConversion, PdfPaths};
use crate::error::ConversionError;
use crate::peers::PeerError;

impl Conversion {
    /// Converts the caller's Vault item `id` again from its PDF; `use_ocr` reads scanned pages.
    ///
    /// # Errors
    /// Not the caller's item (404), not made from a PDF or its PDF is gone (422), OCR tools
    /// missing (503), the conversion's own errors.
    #[tracing::instrument(skip(self), fields(user = %user))]
    pub async fn reprocess(
        &self,
        user: &UserId,
        id: &str,
        use_ocr: bool,
    ) -> Result<PdfConversion, ConversionError> {
        let item = self.vault.item(user, id).await.map_err(from_library)?;
        let paths = item
            .file_name
            .as_deref()
            .and_then(PdfPaths::of_markdown)
            .ok_or(ConversionError::NotFromPdf)?;
        // As an upload: the permit first, then the original streamed to a temporary file.
        let mut pdf = self.pdf.receive().await?;
        let mut original = match self
            .blobs
            .get(&owned_key(user.as_str(), &paths.original)?)
            .await
        {
            Ok(body) => body,
            Err(BlobError::NotFound(_)) => return Err(ConversionError::NotFromPdf),
            Err(error) => return Err(error.into()),
        };
        while let Some(chunk) = original.next().await {
            let chunk = chunk.map_err(|error| ConversionError::Blob(error.into()))?;
            pdf.write(&chunk).await?;
        }
        let source = self.source_name(user, &paths).await?;
        let extracted = self.pdf.convert(&mut pdf, use_ocr).await?;
        // The default template: a reprocess sends none (it is checked all the same).
        let template = chosen_template(None)?;
        let (content, unknown_placeholders) = render(&extracted, &item.title, &source, &template)?;
        self.blobs
            .put(
                &owned_key(user.as_str(), &paths.markdown)?,
                body_from_bytes(content.clone()),
            )
            .await?;
        self.vault
            .replace_content(user, id, &content)
            .await
            .map_err(from_library)?;
        Ok(PdfConversion {
            id: item.id,
            title: item.title,
            content,
            markdown_path: paths.markdown,
            pdf_path: paths.original,
            pages: extracted.pages,
            ocr_pages: extracted.pages_without_text,
            unknown_placeholders,
        })
    }

    /// The uploaded file's name kept beside the PDF; PDFs converted before it was kept are
    /// named by what they are.
    async fn source_name(
        &self,
        user: &UserId,
        paths: &PdfPaths,
    ) -> Result<String, ConversionError> {
        match self
            .blobs
            .get(&owned_key(user.as_str(), &paths.source_name)?)
            .await
        {
            Ok(body) => {
                let bytes = collect_body(body)
                    .await
                    .map_err(|error| ConversionError::Blob(error.into()))?;
                Ok(String::from_utf8_lossy(&bytes).into_owned())
            }
            Err(BlobError::NotFound(_)) => Ok("PDF document".to_owned()),
            Err(error) => Err(error.into()),
        }
    }
}

/// The library's answer for the caller's item: not theirs (or gone) is a 404; anything else
/// is the library failing (503), named as such.
fn from_library(error: PeerError) -> ConversionError {
    match error {
        PeerError::NotFound(_) => ConversionError::NotFound("transcript"),
        other => ConversionError::Peer(format!("library: {other}")),
    }
}
