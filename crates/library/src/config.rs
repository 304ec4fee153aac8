//! The library's own settings, taken from the process-wide [`Settings`].

use std::time::Duration;

use scribevault_core::{Settings, SettingsError};
use secrecy::ExposeSecret as _;

/// Tunables of the library service.
#[derive(Clone)]
pub struct LibraryConfig {
    /// Ingest messages handled at once. One keeps `libraryUpdate` events in completion order.
    pub ingest_concurrency: usize,
    /// The key export links are signed with.
    pub export_link_key: Vec<u8>,
    /// How long an export link works.
    pub export_link_ttl: Duration,
}

impl std::fmt::Debug for LibraryConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LibraryConfig")
            .field("ingest_concurrency", &self.ingest_concurrency)
            .field("export_link_ttl", &self.export_link_ttl)
            .finish_non_exhaustive()
    }
}

impl LibraryConfig {
    /// A config for tests: one ingest at a time, a fixed key, ten-minute links.
    #[must_use]
    pub fn for_tests() -> Self {
        Self {
            ingest_concurrency: 1,
            export_link_key: vec![42; 32],
            export_link_ttl: Duration::from_secs(600),
        }
    }
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
        if !(60..=86_400).contains(&settings.export_link_seconds) {
            return Err(SettingsError::invalid(
                "SCRIBEVAULT_EXPORT_LINK_SECONDS",
                "must be between 60 and 86400",
            ));
        }
        let export_link_key = match &settings.export_link_key {
            Some(key) => {
                let key = key.expose_secret().as_bytes().to_vec();
                if key.len() < scribevault_core::key_file::MIN_KEY_BYTES {
                    return Err(SettingsError::invalid(
                        "SCRIBEVAULT_EXPORT_LINK_KEY",
                        "must be at least 32 bytes",
                    ));
                }
                key
            }
            None => scribevault_core::key_file::load_or_create(
                &settings.data_dir.join("library").join("export-link.key"),
            )
            .map_err(|reason| SettingsError::invalid("SCRIBEVAULT_EXPORT_LINK_KEY", reason))?,
        };
        Ok(Self {
            ingest_concurrency,
            export_link_key,
            export_link_ttl: Duration::from_secs(settings.export_link_seconds),
        })
    }
}
