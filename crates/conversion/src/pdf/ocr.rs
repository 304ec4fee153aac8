//! OCR of pages without a text layer: poppler's `pdftoppm` renders the page, tesseract reads
//! it. Both are Debian commands run as child processes (notes §1.4): the tesseract crates need
//! a C toolchain to build and crash in-process. Each child has a deadline and is killed when
//! it passes it or when the request that started it goes away (`kill_on_drop`).

use std::path::Path;
use std::process::Stdio;
use std::time::Duration;

use tokio::process::Command;

/// What to install when a tool is missing.
const INSTALL_HINT: &str = "OCR needs tesseract-ocr and poppler-utils on the server (apt install tesseract-ocr tesseract-ocr-eng poppler-utils)";

/// Why OCR failed.
#[derive(Debug, thiserror::Error)]
pub enum OcrError {
    /// A tool or tesseract's English data is not installed.
    #[error("{INSTALL_HINT}")]
    Missing,
    #[error("OCR failed: {0}")]
    Failed(String),
}

/// The OCR commands and their deadline.
#[derive(Debug, Clone)]
pub struct OcrTools {
    pub pdftoppm: String,
    pub tesseract: String,
    pub page_timeout: Duration,
}

impl OcrTools {
    /// The text of each page in `pages` of `pdf`, in order.
    ///
    /// # Errors
    /// A tool is missing, fails or passes its deadline.
    pub async fn read_pages(
        &self,
        pdf: &[u8],
        pages: &[u32],
    ) -> Result<Vec<(u32, String)>, OcrError> {
        let dir = tempfile::tempdir().map_err(|error| OcrError::Failed(error.to_string()))?;
        let input = dir.path().join("input.pdf");
        tokio::fs::write(&input, pdf)
            .await
            .map_err(|error| OcrError::Failed(error.to_string()))?;
        let mut out = Vec::with_capacity(pages.len());
        for &page in pages {
            let image = self.render(&input, page, dir.path()).await?;
            out.push((page, self.recognise(&image).await?));
        }
        Ok(out)
    }

    async fn render(
        &self,
        pdf: &Path,
        page: u32,
        dir: &Path,
    ) -> Result<std::path::PathBuf, OcrError> {
        let prefix = dir.join(format!("page-{page}"));
        let page_arg = page.to_string();
        let mut command = Command::new(&self.pdftoppm);
        command
            .args([
                "-r",
                "300",
                "-gray",
                "-png",
                "-f",
                &page_arg,
                "-l",
                &page_arg,
                "-singlefile",
            ])
            .arg(pdf)
            .arg(&prefix);
        self.run(command, "pdftoppm").await?;
        Ok(prefix.with_extension("png"))
    }

    async fn recognise(&self, image: &Path) -> Result<String, OcrError> {
        let mut command = Command::new(&self.tesseract);
        command
            .arg(image)
            .args(["stdout", "-l", "eng", "--psm", "3"])
            // tesseract's OpenMP threads busy-wait; one per page leaves the other core free.
            .env("OMP_THREAD_LIMIT", "1");
        let output = self.run(command, "tesseract").await?;
        Ok(String::from_utf8_lossy(&output).into_owned())
    }

    /// Runs `command` within the deadline; its stdout.
    async fn run(&self, mut command: Command, name: &str) -> Result<Vec<u8>, OcrError> {
        command
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .kill_on_drop(true);
        let child = command.spawn().map_err(|error| {
            if error.kind() == std::io::ErrorKind::NotFound {
                OcrError::Missing
            } else {
                OcrError::Failed(format!("{name}: {error}"))
            }
        })?;
        let output = tokio::time::timeout(self.page_timeout, child.wait_with_output())
            .await
            .map_err(|_| {
                OcrError::Failed(format!("{name} took longer than {:?}", self.page_timeout))
            })?
            .map_err(|error| OcrError::Failed(format!("{name}: {error}")))?;
        if output.status.success() {
            return Ok(output.stdout);
        }
        let stderr = String::from_utf8_lossy(&output.stderr);
        if stderr.contains("Failed loading language") || stderr.contains("Error opening data file")
        {
            return Err(OcrError::Missing);
        }
        Err(OcrError::Failed(format!(
            "{name} exited with {}: {}",
            output.status,
            stderr.lines().last().unwrap_or_default()
        )))
    }
}
