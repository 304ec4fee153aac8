//! PDF → markdown for an upload: converted, rendered through the template, and stored with
//! its original beside it so a Vault item made from it can be converted again.

use chrono::Utc;
use scribevault_blob::{body_from_bytes, body_from_file, owned_key};
use scribevault_core::UserId;

use super::{Conversion, template_date};
use crate::domain::template::{self, DEFAULT_TEMPLATE, TemplateValues};
use crate::domain::{PdfConversion, PdfPaths};
use crate::error::ConversionError;
use crate::pdf::{ExtractedPdf, IncomingPdf, PdfError};

impl Conversion {
    /// Converts the uploaded `pdf` named `file_name`.
    ///
    /// # Errors
    /// A template over its limits (checked before the PDF is read); not a PDF,
    /// password-protected, damaged, too large, unconvertible; storage failure.
    #[tracing::instrument(skip(self, pdf, template), fields(user = %user, bytes = pdf.len()))]
    pub async fn convert_pdf(
        &self,
        user: &UserId,
        file_name: &str,
        template: Option<String>,
        pdf: &mut IncomingPdf,
    ) -> Result<PdfConversion, ConversionError> {
        let template = chosen_template(template)?;
        let extracted = self.pdf.convert(pdf, false).await?;
        let paths = PdfPaths::of(&uuid::Uuid::now_v7().to_string());
        let title = extracted
            .title
            .clone()
            .unwrap_or_else(|| title_from_file_name(file_name));
        let source = display_file_name(file_name);
        let (content, unknown_placeholders) = render(&extracted, &title, &source, &template)?;
        let original_key = owned_key(user.as_str(), &paths.original)?;
        let original = body_from_file(pdf.path().await?)
            .await
            .map_err(|error| PdfError::Spool(error.to_string()))?;
        self.blobs.put(&original_key, original).await?;
        let markdown_key = owned_key(user.as_str(), &paths.markdown)?;
        self.blobs
            .put(&markdown_key, body_from_bytes(content.clone()))
            .await?;
        self.blobs
            .put(
                &owned_key(user.as_str(), &paths.source_name)?,
                body_from_bytes(source.into_bytes()),
            )
            .await?;
        Ok(PdfConversion {
            id: paths.id().to_owned(),
            title,
            content,
            markdown_path: paths.markdown,
            pdf_path: paths.original,
            pages: extracted.pages,
            ocr_pages: extracted.pages_without_text,
            unknown_placeholders,
        })
    }
}

/// The template a conversion uses: the caller's, checked against the template limits, or the
/// default when it gave none.
///
/// # Errors
/// The caller's template fails [`template::check`].
pub(super) fn chosen_template(template: Option<String>) -> Result<String, ConversionError> {
    let template = template
        .filter(|text| !text.trim().is_empty())
        .unwrap_or_else(|| DEFAULT_TEMPLATE.to_owned());
    template::check(&template)?;
    Ok(template)
}

/// The markdown of `extracted` through `template`; the placeholders it did not know.
///
/// # Errors
/// The template is over its limits, or the markdown would pass the rendered-size cap.
pub(super) fn render(
    extracted: &ExtractedPdf,
    title: &str,
    source: &str,
    template: &str,
) -> Result<(String, Vec<String>), ConversionError> {
    // The default template puts the title on top; the body's own copy of it would repeat it.
    let body = if template.contains("{{title}}") {
        without_leading_title(&extracted.markdown, title)
    } else {
        &extracted.markdown
    };
    let rendered = template::render(
        template,
        &TemplateValues {
            title,
            content: body.trim_end(),
            date: &template_date(Utc::now()),
            source,
        },
    )?;
    Ok((rendered.text, rendered.unknown_placeholders))
}

/// `markdown` without a first heading that only repeats `title`.
fn without_leading_title<'a>(markdown: &'a str, title: &str) -> &'a str {
    let Some(first_line) = markdown.lines().next() else {
        return markdown;
    };
    let heading = first_line.trim_start_matches('#');
    if heading.len() < first_line.len() && heading.trim() == title.trim() {
        markdown[first_line.len()..].trim_start()
    } else {
        markdown
    }
}

/// The file name a user sees: no folders (browsers may send a path), never empty.
fn display_file_name(file_name: &str) -> String {
    let name = file_name
        .rsplit(['/', '\\'])
        .next()
        .unwrap_or_default()
        .trim();
    if name.is_empty() {
        "document.pdf".to_owned()
    } else {
        name.to_owned()
    }
}

/// A title from a file name: `annual-report_2024.pdf` → `annual report 2024`.
pub(super) fn title_from_file_name(file_name: &str) -> String {
    let name = display_file_name(file_name);
    let stem = name
        .strip_suffix(".pdf")
        .or_else(|| name.strip_suffix(".PDF"))
        .unwrap_or(&name);
    let title = stem.replace(['_', '-'], " ").trim().to_owned();
    if title.is_empty() {
        "Untitled PDF".to_owned()
    } else {
        title
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn titles_from_file_names() {
        assert_eq!(
            title_from_file_name("annual-report_2024.pdf"),
            "annual report 2024"
        );
        assert_eq!(title_from_file_name("C:\\docs\\Scan.PDF"), "Scan");
        assert_eq!(title_from_file_name(".pdf"), "Untitled PDF");
        assert_eq!(display_file_name("../../etc/x.pdf"), "x.pdf");
    }

    #[test]
    fn the_title_heading_is_not_repeated() {
        assert_eq!(without_leading_title("# Guide\n\nBody", "Guide"), "Body");
        assert_eq!(
            without_leading_title("# Other\n\nBody", "Guide"),
            "# Other\n\nBody"
        );
        assert_eq!(
            without_leading_title("Guide\n\nBody", "Guide"),
            "Guide\n\nBody"
        );
    }
}
