//! The conversion service's own settings, taken from the process-wide [`Settings`].

use std::time::Duration;

use scribevault_core::{Settings, SettingsError};

use crate::pdf::{OcrTools, PdfLimits};

/// Tunables of the conversion service.
#[derive(Debug, Clone)]
pub struct ConversionConfig {
    pub pdf: PdfLimits,
    pub ocr: OcrTools,
    /// PDFs parsed at once (each on a blocking thread).
    pub pdf_parallel: usize,
}

impl ConversionConfig {
    /// A config for tests: the default limits, OCR tools from the `PATH`.
    #[must_use]
    pub fn for_tests() -> Self {
        Self {
            pdf: PdfLimits {
                max_bytes: 100 * 1024 * 1024,
                max_pages: 2000,
                timeout: Duration::from_secs(60),
                max_inflated_bytes: 512 << 20,
                ocr_timeout: Duration::from_secs(1800),
            },
            ocr: OcrTools {
                pdftoppm: "pdftoppm".into(),
                tesseract: "tesseract".into(),
                page_timeout: Duration::from_secs(120),
            },
            pdf_parallel: 2,
        }
    }
}

impl TryFrom<&Settings> for ConversionConfig {
    type Error = SettingsError;

    fn try_from(settings: &Settings) -> Result<Self, Self::Error> {
        if settings.max_pdf_bytes == 0 {
            return Err(SettingsError::invalid(
                "SCRIBEVAULT_MAX_PDF_BYTES",
                "must be positive",
            ));
        }
        if !(1..=3600).contains(&settings.pdf_timeout_seconds) {
            return Err(SettingsError::invalid(
                "SCRIBEVAULT_PDF_TIMEOUT_SECONDS",
                "must be between 1 and 3600",
            ));
        }
        if settings.max_pdf_pages == 0 {
            return Err(SettingsError::invalid(
                "SCRIBEVAULT_MAX_PDF_PAGES",
                "must be positive",
            ));
        }
        if !(1..=3600).contains(&settings.ocr_page_timeout_seconds) {
            return Err(SettingsError::invalid(
                "SCRIBEVAULT_OCR_PAGE_TIMEOUT_SECONDS",
                "must be between 1 and 3600",
            ));
        }
        if !(1..=86_400).contains(&settings.ocr_timeout_seconds) {
            return Err(SettingsError::invalid(
                "SCRIBEVAULT_OCR_TIMEOUT_SECONDS",
                "must be between 1 and 86400",
            ));
        }
        if !(1..=65_536).contains(&settings.pdf_max_inflated_mb) {
            return Err(SettingsError::invalid(
                "SCRIBEVAULT_PDF_MAX_INFLATED_MB",
                "must be between 1 and 65536",
            ));
        }
        Ok(Self {
            pdf: PdfLimits {
                max_bytes: settings.max_pdf_bytes,
                max_pages: settings.max_pdf_pages,
                timeout: Duration::from_secs(settings.pdf_timeout_seconds),
                max_inflated_bytes: settings.pdf_max_inflated_mb << 20,
                ocr_timeout: Duration::from_secs(settings.ocr_timeout_seconds),
            },
            ocr: OcrTools {
                pdftoppm: settings.pdftoppm_path.clone(),
                tesseract: settings.tesseract_path.clone(),
                page_timeout: Duration::from_secs(settings.ocr_page_timeout_seconds),
            },
            pdf_parallel: 2,
        })
    }
}
