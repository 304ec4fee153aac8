//! OCR of pages without a text layer: poppler's `pdftoppm` renders the page, tesseract reads
//! it. Both are Debian commands run as child processes (notes §1.4): the tesseract crates need
//! a C toolchain to build and crash in-process. Each child has a deadline and is killed when
//! it passes it or when the request that started it goes away (`kill_on_drop`); it runs under
//! memory and CPU limits and dies with the service (`ChildLimits`). A page is rendered at
//! 300 dpi unless that passes [`MAX_PAGE_PIXELS`]: a page that declares itself 200 inches wide
//! is rendered smaller rather than as a multi-gigabyte bitmap.

use std::path::Path;
use std::process::Stdio;
use std::time::Duration;

use scribevault_core::child_limits::{ChildLimits, clear_environment};
use tokio::process::Command;

/// The resolution OCR reads best at.
const OCR_DPI: f64 = 300.0;
/// The most pixels a page image may have: an A3 page at 300 dpi (3508 × 4961), 16.6 million;
/// as 8-bit grey that is 17 MB for pdftoppm and a few times that inside tesseract.
pub const MAX_PAGE_PIXELS: f64 = 17.5e6;
/// The children's limits: room for tesseract's models and a page at [`MAX_PAGE_PIXELS`].
const CHILD_LIMITS: ChildLimits = ChildLimits {
    address_space_bytes: 2 << 30,
    cpu_seconds: 300,
};

/// A page's size in PDF points (1/72 inch).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PageSize {
    width: f64,
    height: f64,
}

impl PageSize {
    /// A page `width` × `height` points; nonsense (zero, negative, not a number) counts as A4.
    #[must_use]
    pub fn points(width: f32, height: f32) -> Self {
        let sane = |value: f32, default: f64| {
            let value = f64::from(value);
            if value.is_finite() && value >= 1.0 {
                value
            } else {
                default
            }
        };
        Self {
            width: sane(width, 595.0),
            height: sane(height, 842.0),
        }
    }

    /// The resolution to render at: [`OCR_DPI`], lowered so the image stays within
    /// [`MAX_PAGE_PIXELS`]; at least 1.
    #[must_use]
    pub fn render_dpi(self) -> u32 {
        let square_inches = (self.width / 72.0) * (self.height / 72.0);
        let capped = (MAX_PAGE_PIXELS / square_inches).sqrt().floor();
        // Bounded to 1..=300 just above, so the conversion cannot truncate.
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        let dpi = capped.clamp(1.0, OCR_DPI) as u32;
        dpi
    }
}

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
        pdf: &Path,
        pages: &[(u32, PageSize)],
    ) -> Result<Vec<(u32, String)>, OcrError> {
        let dir = tempfile::tempdir().map_err(|error| OcrError::Failed(error.to_string()))?;
        let mut out = Vec::with_capacity(pages.len());
        for &(page, size) in pages {
            let image = self.render(pdf, page, size, dir.path()).await?;
            out.push((page, self.recognise(&image).await?));
            // Each page's image goes once it is read: a long scan does not fill the disk.
            let _ = tokio::fs::remove_file(&image).await;
        }
        Ok(out)
    }

    async fn render(
        &self,
        pdf: &Path,
        page: u32,
        size: PageSize,
        dir: &Path,
    ) -> Result<std::path::PathBuf, OcrError> {
        let prefix = dir.join(format!("page-{page}"));
        let page_arg = page.to_string();
        let dpi = size.render_dpi().to_string();
        let mut command = limited(&self.pdftoppm);
        command
            .args([
                "-r",
                &dpi,
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
        let mut command = limited(&self.tesseract);
        command
            .arg(image)
            .args(["stdout", "-l", "eng", "--psm", "3"])
            // tesseract's OpenMP threads busy-wait; one per page leaves the other core free.
            .env("OMP_THREAD_LIMIT", "1");
        let output = self.run(command, "tesseract").await?;
        Ok(String::from_utf8_lossy(&output).into_owned())
    }

    /// Runs `command` within the deadline; its stdout.
    ///
    /// A tool that is not installed shows as the wrapper failing to start it: `setpriv` ends
    /// with status 127 and says so on stderr.
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
        if output.status.code() == Some(127) {
            return Err(OcrError::Missing);
        }
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

/// A command for `program` under [`CHILD_LIMITS`], with none of the service's secrets in its
/// environment.
fn limited(program: &str) -> Command {
    let wrapped = CHILD_LIMITS.wrap(program);
    let mut command = Command::new(wrapped.program);
    clear_environment(command.as_std_mut());
    command.args(wrapped.leading_args);
    command
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_letter_page_is_rendered_at_300_dpi() {
        assert_eq!(PageSize::points(612.0, 792.0).render_dpi(), 300);
        assert_eq!(PageSize::points(842.0, 1191.0).render_dpi(), 300);
    }

    #[test]
    fn a_huge_page_is_rendered_within_the_pixel_cap() {
        // 200 × 200 inches: at 300 dpi, 3.6 billion pixels.
        let size = PageSize::points(14_400.0, 14_400.0);
        let dpi = f64::from(size.render_dpi());
        assert!((200.0 * dpi).powi(2) <= MAX_PAGE_PIXELS, "{dpi}");
        assert!(dpi >= 20.0, "{dpi}");
        assert_eq!(
            PageSize::points(f32::NAN, -3.0),
            PageSize::points(595.0, 842.0)
        );
        assert_eq!(PageSize::points(1e9, 1e9).render_dpi(), 1);
    }
}
