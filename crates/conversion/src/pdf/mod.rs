//! PDF → markdown, behind one converter that contains whatever the PDF does to it.
//!
//! The engine is unpdf (ADR 0014): a pure-Rust parser that rebuilds headings, lists, tables,
//! links and two-column reading order from the text layer. `structure.rs` adds what it leaves
//! out (running headers, paragraphs split by a page break), `ocr.rs` reads pages without a text
//! layer with tesseract, and `markdown.rs` normalises the result with comrak.
//!
//! A PDF is untrusted input. Parsing runs on a blocking thread under `catch_unwind` and a
//! deadline, one conversion per permit: a panic or a runaway file is answered as unconvertible
//! and never takes the service down. (A thread past its deadline cannot be killed; it keeps its
//! permit until it ends, so runaways cannot pile up beyond the permits.)

mod markdown;
mod ocr;
mod structure;

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::Semaphore;
use unpdf::{Document, ErrorKind, PageSelection, ParseOptions};

pub use ocr::{OcrError, OcrTools};

/// A page with fewer letters than this has no usable text layer (a scan).
const MIN_PAGE_CHARS: usize = 20;

/// Limits of one conversion.
#[derive(Debug, Clone)]
pub struct PdfLimits {
    pub max_bytes: u64,
    pub max_pages: u32,
    pub timeout: Duration,
}

/// What a PDF held.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExtractedPdf {
    /// The document's own title (metadata, else its first heading), if it has one.
    pub title: Option<String>,
    /// The body as normalised markdown.
    pub markdown: String,
    pub pages: u32,
    /// 1-based pages still without text (no text layer, and no OCR or OCR read nothing).
    pub pages_without_text: Vec<u32>,
}

/// Why a PDF could not be converted.
#[derive(Debug, thiserror::Error)]
pub enum PdfError {
    #[error("The file is not a PDF")]
    NotPdf,
    #[error("This PDF is password-protected")]
    Encrypted,
    #[error("The PDF is larger than {limit_mb} MB")]
    TooLarge { limit_mb: u64 },
    /// Part of the file is unreadable; `recovered` is what could be read.
    #[error("{message}")]
    Damaged {
        message: String,
        recovered: Option<Box<ExtractedPdf>>,
    },
    /// The parser failed, panicked or ran past its deadline.
    #[error("This PDF could not be converted")]
    Unconvertible,
    #[error(transparent)]
    Ocr(#[from] OcrError),
}

/// Converts PDFs within limits.
#[derive(Clone)]
pub struct PdfConverter {
    limits: PdfLimits,
    ocr: OcrTools,
    permits: Arc<Semaphore>,
}

impl PdfConverter {
    /// A converter running at most `parallel` conversions at once.
    #[must_use]
    pub fn new(limits: PdfLimits, ocr: OcrTools, parallel: usize) -> Self {
        Self {
            limits,
            ocr,
            permits: Arc::new(Semaphore::new(parallel.max(1))),
        }
    }

    /// The size limit, for callers that refuse a body before reading it all.
    #[must_use]
    pub fn max_bytes(&self) -> u64 {
        self.limits.max_bytes
    }

    /// Converts `bytes`. With `ocr`, pages without a text layer are read by tesseract.
    ///
    /// # Errors
    /// See [`PdfError`].
    pub async fn convert(&self, bytes: Arc<Vec<u8>>, ocr: bool) -> Result<ExtractedPdf, PdfError> {
        if bytes.len() as u64 > self.limits.max_bytes {
            return Err(PdfError::TooLarge {
                limit_mb: self.limits.max_bytes / (1024 * 1024),
            });
        }
        if !looks_like_pdf(&bytes) {
            return Err(PdfError::NotPdf);
        }
        let mut parsed = self
            .contained({
                let bytes = Arc::clone(&bytes);
                let max_pages = self.limits.max_pages;
                move || parse(&bytes, max_pages)
            })
            .await??;
        if ocr && !parsed.pages_without_text.is_empty() {
            let pages = self
                .ocr
                .read_pages(&bytes, &parsed.pages_without_text)
                .await?;
            structure::insert_ocr_text(&mut parsed.document, &pages);
            parsed.pages_without_text = pages
                .iter()
                .filter(|(_, text)| text.trim().is_empty())
                .map(|(page, _)| *page)
                .collect();
        }
        let damage = parsed.damage.take();
        let extracted = self.contained(move || render(parsed)).await?;
        match damage {
            Some(message) => Err(PdfError::Damaged {
                message,
                recovered: (!extracted.markdown.trim().is_empty()).then(|| Box::new(extracted)),
            }),
            None => Ok(extracted),
        }
    }

    /// Runs `work` on a blocking thread, under a permit, `catch_unwind` and the deadline.
    async fn contained<T: Send + 'static>(
        &self,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, PdfError> {
        let permit = Arc::clone(&self.permits)
            .acquire_owned()
            .await
            .map_err(|_| PdfError::Unconvertible)?;
        let task = tokio::task::spawn_blocking(move || {
            let _permit = permit;
            catch_unwind(AssertUnwindSafe(work))
        });
        match tokio::time::timeout(self.limits.timeout, task).await {
            Ok(Ok(Ok(value))) => Ok(value),
            Ok(Ok(Err(_panic))) => {
                tracing::warn!("the PDF parser panicked; answered as unconvertible");
                Err(PdfError::Unconvertible)
            }
            Ok(Err(join_error)) => {
                tracing::warn!(error = %join_error, "the PDF conversion thread failed");
                Err(PdfError::Unconvertible)
            }
            Err(_elapsed) => {
                tracing::warn!(timeout = ?self.limits.timeout, "a PDF conversion ran past its deadline");
                Err(PdfError::Unconvertible)
            }
        }
    }
}

/// `%PDF-` within the first KiB, as readers accept it (some producers put bytes before it).
fn looks_like_pdf(bytes: &[u8]) -> bool {
    let head = &bytes[..bytes.len().min(1024)];
    head.windows(5).any(|window| window == b"%PDF-")
}

/// A parsed document on its way to markdown.
struct Parsed {
    document: Document,
    pages_without_text: Vec<u32>,
    /// What was lost, when the file is damaged.
    damage: Option<String>,
}

fn parse(bytes: &[u8], max_pages: u32) -> Result<Parsed, PdfError> {
    let options = ParseOptions {
        pages: PageSelection::Range(1..=max_pages),
        ..ParseOptions::default()
    };
    let mut document =
        unpdf::parse_bytes_with_options(bytes, options).map_err(|error| match error.kind() {
            ErrorKind::UnknownFormat => PdfError::NotPdf,
            ErrorKind::Encrypted | ErrorKind::InvalidPassword => PdfError::Encrypted,
            _ => PdfError::Damaged {
                message: "This PDF is damaged and no text could be read from it".to_owned(),
                recovered: None,
            },
        })?;
    let damage = damage_of(&document);
    structure::tidy(&mut document);
    let pages_without_text = document
        .pages
        .iter()
        .filter(|page| {
            page.plain_text()
                .chars()
                .filter(|c| c.is_alphanumeric())
                .count()
                < MIN_PAGE_CHARS
        })
        .map(|page| page.number)
        .collect();
    Ok(Parsed {
        document,
        pages_without_text,
        damage,
    })
}

/// A message when content was lost. A rebuilt cross-reference table alone is not damage: many
/// real producers write slightly wrong offsets, and nothing is lost when it is rebuilt.
fn damage_of(document: &Document) -> Option<String> {
    let quality = &document.extraction_quality;
    let declared = quality.declared_page_count;
    let read = document.page_count();
    let lost_pages = quality.pages_incomplete || quality.unresolved_page_nodes > 0;
    let lost_parts = quality.skipped_object_count > 0 || quality.undecodable_content_streams > 0;
    if !lost_pages && !lost_parts {
        return None;
    }
    let pages = match declared {
        Some(declared) if declared > read => format!("{read} of {declared} pages could be read"),
        _ => format!("{read} pages could be read, some of their content is missing"),
    };
    Some(format!("This PDF is damaged: {pages}"))
}

fn render(parsed: Parsed) -> ExtractedPdf {
    let title = structure::title_of(&parsed.document);
    let options = unpdf::RenderOptions::default();
    let raw = unpdf::render::to_markdown(&parsed.document, &options).unwrap_or_else(|error| {
        tracing::warn!(error = %error, "unpdf could not render markdown; using plain text");
        parsed.document.plain_text()
    });
    ExtractedPdf {
        title,
        markdown: markdown::normalise(&raw),
        pages: parsed.document.page_count(),
        pages_without_text: parsed.pages_without_text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn converter(timeout: Duration) -> PdfConverter {
        let ocr = OcrTools {
            pdftoppm: "pdftoppm".into(),
            tesseract: "tesseract".into(),
            page_timeout: Duration::from_secs(1),
        };
        let limits = PdfLimits {
            max_bytes: 1024,
            max_pages: 10,
            timeout,
        };
        PdfConverter::new(limits, ocr, 1)
    }

    #[tokio::test]
    async fn a_panic_in_the_parser_is_an_unconvertible_pdf_and_frees_its_permit() {
        let converter = converter(Duration::from_secs(5));
        let panicked = converter
            .contained(|| -> u32 { panic!("a parser bug") })
            .await;
        assert!(matches!(panicked, Err(PdfError::Unconvertible)));
        // The one permit came back: the next conversion runs.
        assert_eq!(converter.contained(|| 7).await.ok(), Some(7));
    }

    #[tokio::test]
    async fn work_past_the_deadline_is_an_unconvertible_pdf() {
        let converter = converter(Duration::from_millis(50));
        let slow = converter
            .contained(|| std::thread::sleep(Duration::from_millis(500)))
            .await;
        assert!(matches!(slow, Err(PdfError::Unconvertible)));
    }

    #[test]
    fn a_pdf_is_recognised_by_its_header() {
        assert!(looks_like_pdf(b"%PDF-1.7\n..."));
        assert!(looks_like_pdf(b"\xef\xbb\xbf junk %PDF-1.4"));
        assert!(!looks_like_pdf(b"PK\x03\x04 a zip"));
        assert!(!looks_like_pdf(b""));
    }
}
