//! The conversion service's own settings, taken from the process-wide [`Settings`].

use scribevault_core::{Settings, SettingsError};

/// Tunables of the conversion service.
#[derive(Debug, Clone)]
pub struct ConversionConfig {
    /// Largest upload a single request may carry, in bytes (PDFs share the upload limit
    /// until their own setting lands).
    pub max_upload_bytes: u64,
}

impl TryFrom<&Settings> for ConversionConfig {
    type Error = SettingsError;

    fn try_from(settings: &Settings) -> Result<Self, Self::Error> {
        Ok(Self {
            max_upload_bytes: settings.max_upload_bytes,
        })
    }
}
