//! PDF → markdown, behind one converter that contains whatever the PDF does to it.
//!
//! The engine is unpdf (ADR 0014): a pure-Rust parser that rebuilds headings, lists, tables,
//! links and two-column reading order from the text layer. `structure.rs` adds what it leaves
//! out (running headers, paragraphs split by a page break), `ocr.rs` reads pages without a text
//! layer with tesseract, and `markdown.rs` normalises the result with comrak.
//!
//! A PDF is untrusted input. A conversion holds one permit from before its first byte is
//! received until its markdown is made: the upload goes to a temporary file, not memory, and
//! parsing, OCR and rendering all run under that permit, so the permits bound the disk, memory
//! and CPU that PDFs take at once. The streams' inflated size is checked before unpdf reads
//! them (`inflation.rs`). Parsing runs on a blocking thread under `catch_unwind` and a deadline:
//! a panic or a runaway file is answered as unconvertible and never takes the service down. (A
//! thread past its deadline cannot be killed; it keeps a share of the permit until it ends, so
//! runaways cannot pile up beyond the permits.)

mod inflation;
mod markdown;
mod ocr;
mod structure;

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use tokio::io::AsyncWriteExt as _;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use unpdf::{Document, ErrorKind, PageSelection, ParseOptions};

pub use inflation::check_inflation;
pub use ocr::{OcrError, OcrTools, PageSize};

/// A page with fewer letters than this has no usable text layer (a scan).
const MIN_PAGE_CHARS: usize = 20;

/// How long an upload waits for a conversion permit before it is told to come back later.
const PERMIT_WAIT: Duration = Duration::from_secs(30);

/// Limits of one conversion.
#[derive(Debug, Clone)]
pub struct PdfLimits {
    pub max_bytes: u64,
    pub max_pages: u32,
    pub timeout: Duration,
    /// Most bytes the non-image streams may inflate to, all together.
    pub max_inflated_bytes: u64,
    /// Longest the OCR of one document may take, all pages together.
    pub ocr_timeout: Duration,
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
    /// The compressed streams expand past the limit: a decompression bomb, or a document too
    /// big to convert here.
    #[error(
        "This PDF's compressed content expands to more than {limit_mb} MB; it was not converted"
    )]
    Inflates { limit_mb: u64 },
    /// Every conversion permit stayed taken while the upload waited.
    #[error("The PDF converter is busy; try again in a minute")]
    Busy,
    /// Part of the file is unreadable; `recovered` is what could be read.
    #[error("{message}")]
    Damaged {
        message: String,
        recovered: Option<Box<ExtractedPdf>>,
    },
    /// The parser failed, panicked or ran past its deadline.
    #[error("This PDF could not be converted")]
    Unconvertible,
    /// The file could not be written or read back on this server.
    #[error("The PDF could not be kept for conversion: {0}")]
    Spool(String),
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

/// A PDF being received: a temporary file written under a conversion permit. Dropping it
/// deletes the file and frees the permit.
pub struct IncomingPdf {
    /// Shared with blocking threads, which keep it past a deadline (see the module doc).
    permit: Arc<OwnedSemaphorePermit>,
    file: tempfile::NamedTempFile,
    writer: tokio::fs::File,
    written: u64,
    max_bytes: u64,
}

impl IncomingPdf {
    /// Appends `chunk`.
    ///
    /// # Errors
    /// [`PdfError::TooLarge`] past the size limit (nothing more is written), [`PdfError::Spool`]
    /// when the disk refuses.
    pub async fn write(&mut self, chunk: &[u8]) -> Result<(), PdfError> {
        let written = self.written + chunk.len() as u64;
        if written > self.max_bytes {
            return Err(PdfError::TooLarge {
                limit_mb: self.max_bytes / (1024 * 1024),
            });
        }
        self.writer
            .write_all(chunk)
            .await
            .map_err(|error| PdfError::Spool(error.to_string()))?;
        self.written = written;
        Ok(())
    }

    /// Bytes received so far.
    #[must_use]
    pub fn len(&self) -> u64 {
        self.written
    }

    /// Whether nothing was received.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.written == 0
    }

    /// Where the received bytes are, all written, for storing the original.
    ///
    /// # Errors
    /// The last bytes could not be written.
    pub async fn path(&mut self) -> Result<&Path, PdfError> {
        self.writer
            .flush()
            .await
            .map_err(|error| PdfError::Spool(error.to_string()))?;
        Ok(self.file.path())
    }

    /// The path, for a caller that has flushed it through [`Self::path`].
    fn flushed_path(&self) -> &Path {
        self.file.path()
    }
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

    /// Takes a conversion permit and a temporary file to receive a PDF into.
    ///
    /// # Errors
    /// [`PdfError::Busy`] when no permit came free in time, [`PdfError::Spool`] when no
    /// temporary file can be made.
    pub async fn receive(&self) -> Result<IncomingPdf, PdfError> {
        let permit = tokio::time::timeout(PERMIT_WAIT, Arc::clone(&self.permits).acquire_owned())
            .await
            .map_err(|_| PdfError::Busy)?
            .map_err(|_| PdfError::Busy)?;
        let file = tempfile::Builder::new()
            .prefix("scribevault-pdf-")
            .suffix(".pdf")
            .tempfile()
            .map_err(|error| PdfError::Spool(error.to_string()))?;
        let writer = file
            .reopen()
            .map(tokio::fs::File::from_std)
            .map_err(|error| PdfError::Spool(error.to_string()))?;
        Ok(IncomingPdf {
            permit: Arc::new(permit),
            file,
            writer,
            written: 0,
            max_bytes: self.limits.max_bytes,
        })
    }

    /// Converts the received `pdf`. With `ocr`, pages without a text layer are read by
    /// tesseract. The file stays with the caller (to be stored as the original).
    ///
    /// # Errors
    /// See [`PdfError`].
    pub async fn convert(
        &self,
        pdf: &mut IncomingPdf,
        ocr: bool,
    ) -> Result<ExtractedPdf, PdfError> {
        let path = pdf.path().await?.to_owned();
        let max_pages = self.limits.max_pages;
        let max_inflated = self.limits.max_inflated_bytes;
        let mut parsed = self
            .contained(&pdf.permit, move || {
                let bytes =
                    std::fs::read(&path).map_err(|error| PdfError::Spool(error.to_string()))?;
                pdf_to_document(&bytes, max_pages, max_inflated)
            })
            .await??;
        if ocr && !parsed.pages_without_text.is_empty() {
            let pages: Vec<(u32, PageSize)> = parsed
                .pages_without_text
                .iter()
                .filter_map(|number| {
                    let page = parsed
                        .document
                        .pages
                        .iter()
                        .find(|page| page.number == *number)?;
                    Some((*number, PageSize::points(page.width, page.height)))
                })
                .collect();
            let read = tokio::time::timeout(
                self.limits.ocr_timeout,
                self.ocr.read_pages(pdf.flushed_path(), &pages),
            )
            .await
            .map_err(|_| {
                OcrError::Failed(format!(
                    "reading the scanned pages took longer than {} s",
                    self.limits.ocr_timeout.as_secs()
                ))
            })??;
            structure::insert_ocr_text(&mut parsed.document, &read);
            parsed.pages_without_text = read
                .iter()
                .filter(|(_, text)| text.trim().is_empty())
                .map(|(page, _)| *page)
                .collect();
        }
        let damage = parsed.damage.take();
        let extracted = self.contained(&pdf.permit, move || render(parsed)).await?;
        match damage {
            Some(message) => Err(PdfError::Damaged {
                message,
                recovered: (!extracted.markdown.trim().is_empty()).then(|| Box::new(extracted)),
            }),
            None => Ok(extracted),
        }
    }

    /// Runs `work` on a blocking thread that shares `permit`, under `catch_unwind` and the
    /// deadline.
    async fn contained<T: Send + 'static>(
        &self,
        permit: &Arc<OwnedSemaphorePermit>,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, PdfError> {
        let permit = Arc::clone(permit);
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

/// The markdown of `bytes` without OCR: the converter's own path, synchronous and without
/// permits, for fuzzing and benchmarks.
///
/// # Errors
/// See [`PdfError`].
pub fn pdf_to_markdown(
    bytes: &[u8],
    max_pages: u32,
    max_inflated_bytes: u64,
) -> Result<ExtractedPdf, PdfError> {
    let mut parsed = pdf_to_document(bytes, max_pages, max_inflated_bytes)?;
    let damage = parsed.damage.take();
    let extracted = render(parsed);
    match damage {
        Some(message) => Err(PdfError::Damaged {
            message,
            recovered: (!extracted.markdown.trim().is_empty()).then(|| Box::new(extracted)),
        }),
        None => Ok(extracted),
    }
}

/// Checks and parses `bytes`.
fn pdf_to_document(
    bytes: &[u8],
    max_pages: u32,
    max_inflated_bytes: u64,
) -> Result<Parsed, PdfError> {
    if !looks_like_pdf(bytes) {
        return Err(PdfError::NotPdf);
    }
    if check_inflation(bytes, max_inflated_bytes).is_err() {
        return Err(PdfError::Inflates {
            limit_mb: max_inflated_bytes / (1024 * 1024),
        });
    }
    parse(bytes, max_pages)
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
            max_inflated_bytes: 1 << 20,
            ocr_timeout: Duration::from_secs(5),
        };
        PdfConverter::new(limits, ocr, 1)
    }

    #[tokio::test]
    async fn a_panic_in_the_parser_is_an_unconvertible_pdf_and_frees_its_permit() {
        let converter = converter(Duration::from_secs(5));
        let pdf = converter.receive().await.unwrap();
        let panicked = converter
            .contained(&pdf.permit, || -> u32 { panic!("a parser bug") })
            .await;
        assert!(matches!(panicked, Err(PdfError::Unconvertible)));
        drop(pdf);
        // The one permit came back: the next conversion runs.
        let pdf = converter.receive().await.unwrap();
        assert_eq!(converter.contained(&pdf.permit, || 7).await.ok(), Some(7));
    }

    #[tokio::test]
    async fn work_past_the_deadline_is_an_unconvertible_pdf() {
        let converter = converter(Duration::from_millis(50));
        let pdf = converter.receive().await.unwrap();
        let slow = converter
            .contained(&pdf.permit, || {
                std::thread::sleep(Duration::from_millis(500))
            })
            .await;
        assert!(matches!(slow, Err(PdfError::Unconvertible)));
    }

    #[tokio::test(start_paused = true)]
    async fn an_upload_waits_for_a_permit_before_its_first_byte_and_then_is_told_to_come_back() {
        let converter = converter(Duration::from_secs(5));
        let first = converter.receive().await.unwrap();
        let second = converter.receive().await;
        assert!(matches!(second, Err(PdfError::Busy)), "{:?}", second.err());
        drop(first);
        assert!(converter.receive().await.is_ok());
    }

    #[tokio::test]
    async fn an_upload_past_the_size_limit_is_refused_as_it_arrives() {
        let converter = converter(Duration::from_secs(5));
        let mut pdf = converter.receive().await.unwrap();
        pdf.write(&[b'x'; 1000]).await.unwrap();
        assert!(matches!(
            pdf.write(&[b'x'; 25]).await,
            Err(PdfError::TooLarge { .. })
        ));
        assert_eq!(pdf.len(), 1000);
    }

    #[tokio::test]
    async fn ocr_of_a_whole_document_stops_at_its_deadline_and_kills_its_child() {
        use std::os::unix::fs::PermissionsExt as _;
        // A pdftoppm that never finishes a page (each page's own limit is far off).
        let tools = tempfile::tempdir().unwrap();
        let stuck = tools.path().join("pdftoppm");
        let pid_file = tools.path().join("pid");
        std::fs::write(
            &stuck,
            format!(
                "#!/bin/sh\necho $$ > {}\nexec sleep 30\n",
                pid_file.display()
            ),
        )
        .unwrap();
        std::fs::set_permissions(&stuck, std::fs::Permissions::from_mode(0o755)).unwrap();
        let ocr = OcrTools {
            pdftoppm: stuck.display().to_string(),
            tesseract: "tesseract".into(),
            page_timeout: Duration::from_secs(60),
        };
        let limits = PdfLimits {
            max_bytes: 10 << 20,
            max_pages: 10,
            timeout: Duration::from_secs(30),
            max_inflated_bytes: 64 << 20,
            ocr_timeout: Duration::from_secs(1),
        };
        let converter = PdfConverter::new(limits, ocr, 1);
        let scan = std::fs::read(
            Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/pdf/scanned.pdf"),
        )
        .unwrap();
        let mut pdf = converter.receive().await.unwrap();
        pdf.write(&scan).await.unwrap();
        let started = std::time::Instant::now();
        let answer = converter.convert(&mut pdf, true).await;
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "{:?}",
            started.elapsed()
        );
        match answer {
            Err(PdfError::Ocr(OcrError::Failed(message))) => {
                assert!(message.contains("longer than 1 s"), "{message}");
            }
            other => panic!("{other:?}"),
        }
        // The child went with the request: its process (by pid, not by name, as other tests
        // run `sleep 30` too) is gone.
        let pid = std::fs::read_to_string(&pid_file).unwrap();
        let proc_dir = Path::new("/proc").join(pid.trim());
        let deadline = std::time::Instant::now() + Duration::from_secs(3);
        while proc_dir.exists()
            && std::fs::read_to_string(proc_dir.join("stat"))
                .is_ok_and(|stat| !stat.contains(") Z "))
        {
            assert!(
                std::time::Instant::now() < deadline,
                "the stuck pdftoppm outlived its request"
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// A PDF of `pages` pages whose content streams each inflate to `inflated_mb` MiB of spaces.
    fn flate_bomb(pages: usize, inflated_mb: usize) -> Vec<u8> {
        use std::io::Write as _;
        let mut encoder = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::best());
        let megabyte = vec![b' '; 1 << 20];
        for _ in 0..inflated_mb {
            encoder.write_all(&megabyte).unwrap();
        }
        let stream = encoder.finish().unwrap();
        let mut pdf = b"%PDF-1.4\n".to_vec();
        let mut offsets = Vec::new();
        let mut object = |pdf: &mut Vec<u8>, body: &[u8]| {
            offsets.push(pdf.len());
            pdf.extend_from_slice(format!("{} 0 obj\n", offsets.len()).as_bytes());
            pdf.extend_from_slice(body);
            pdf.extend_from_slice(b"\nendobj\n");
        };
        object(&mut pdf, b"<< /Type /Catalog /Pages 2 0 R >>");
        let kids: Vec<String> = (0..pages)
            .map(|page| format!("{} 0 R", 3 + 2 * page))
            .collect();
        object(
            &mut pdf,
            format!(
                "<< /Type /Pages /Kids [{}] /Count {pages} >>",
                kids.join(" ")
            )
            .as_bytes(),
        );
        for page in 0..pages {
            let contents = 4 + 2 * page;
            object(
                &mut pdf,
                format!("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents {contents} 0 R >>")
                    .as_bytes(),
            );
            let mut body = format!(
                "<< /Length {} /Filter /FlateDecode >>\nstream\n",
                stream.len()
            )
            .into_bytes();
            body.extend_from_slice(&stream);
            body.extend_from_slice(b"\nendstream");
            object(&mut pdf, &body);
        }
        let xref = pdf.len();
        pdf.extend_from_slice(
            format!("xref\n0 {}\n0000000000 65535 f \n", offsets.len() + 1).as_bytes(),
        );
        for offset in &offsets {
            pdf.extend_from_slice(format!("{offset:010} 00000 n \n").as_bytes());
        }
        pdf.extend_from_slice(
            format!(
                "trailer\n<< /Size {} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n",
                offsets.len() + 1
            )
            .as_bytes(),
        );
        pdf
    }

    /// The process's peak resident memory (nextest runs each test in a process of its own).
    fn peak_rss_bytes() -> u64 {
        let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
        status
            .lines()
            .find_map(|line| line.strip_prefix("VmHWM:"))
            .and_then(|value| {
                value
                    .trim()
                    .trim_end_matches("kB")
                    .trim()
                    .parse::<u64>()
                    .ok()
            })
            .map_or(0, |kb| kb * 1024)
    }

    #[tokio::test]
    async fn a_flate_bomb_is_refused_before_it_is_parsed_in_bounded_memory() {
        // 32 pages of 32 MiB each: 1 GiB inflated from a 1 MB file. unpdf's own limit lets
        // every one of these streams through (each is under its 100 MiB grace).
        let bomb = flate_bomb(32, 32);
        assert!(bomb.len() < 2 << 20, "{}", bomb.len());
        let mut limits = converter(Duration::from_secs(60)).limits;
        limits.max_bytes = 64 << 20;
        limits.max_inflated_bytes = 96 << 20;
        let converter = PdfConverter::new(limits, converter(Duration::from_secs(1)).ocr, 1);
        let before = peak_rss_bytes();
        let mut pdf = converter.receive().await.unwrap();
        pdf.write(&bomb).await.unwrap();
        let refused = converter.convert(&mut pdf, false).await;
        assert!(
            matches!(refused, Err(PdfError::Inflates { limit_mb: 96 })),
            "{refused:?}"
        );
        let grown = peak_rss_bytes().saturating_sub(before);
        assert!(
            grown < 64 << 20,
            "the check grew the process by {} MiB",
            grown >> 20
        );
        drop(pdf);
        // The same document within the limit is converted: the check refuses only the excess.
        let small = flate_bomb(2, 1);
        let mut pdf = converter.receive().await.unwrap();
        pdf.write(&small).await.unwrap();
        assert!(converter.convert(&mut pdf, false).await.is_ok());
    }

    #[test]
    fn a_pdf_is_recognised_by_its_header() {
        assert!(looks_like_pdf(b"%PDF-1.7\n..."));
        assert!(looks_like_pdf(b"\xef\xbb\xbf junk %PDF-1.4"));
        assert!(!looks_like_pdf(b"PK\x03\x04 a zip"));
        assert!(!looks_like_pdf(b""));
    }
}
