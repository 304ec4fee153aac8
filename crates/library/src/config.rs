//! The library's own settings, taken from the process-wide [`Settings`].

use scribevault_core::{Settings, SettingsError};

/// Tunables of the library service.
#[derive(Debug, Clone)]
pub struct LibraryConfig {
    /// Ingest messages handled at once. One keeps `libraryUpdate` events in completion order.
    pub ingest_concurrency: usize,
}

impl TryFrom<&Settings> for LibraryConfig {
    type Error = SettingsError;

    fn try_from(settings: &Settings) -> Result<Self, Self::Error> {
        let ingest_concurrency = usize::try_from(settings.library_ingest_concurrency)
            .ok()
            .filter(|concurrency| (1..=64).contains(concurrency))
            .ok_or_else(|| {
                SettingsError::invalid(
                    "SCRIBEVAULT_LIBRARY_INGEST_CONCURRENCY",
                    "must be between 1 and 64",
                )
            })?;
        Ok(Self { ingest_concurrency })
    }
}
