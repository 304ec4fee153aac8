//! The library's own settings, taken from the process-wide [`Settings`].

use std::time::Duration;

use scribevault_core::{Settings, SettingsError};
use secrecy::ExposeSecret as _;

/// Search by meaning's settings (docs/adr/0026-meaning-search.md).
#[derive(Debug, Clone)]
pub struct EmbeddingConfig {
    /// The model file (`e5-small-q4.bin`).
    pub model: std::path::PathBuf,
    /// Threads one embedding call uses.
    pub threads: usize,
    /// The back-fill's pause after each item, so it never holds a core for long.
    pub backfill_pause: Duration,
    /// How long the back-fill waits before looking again once everything is embedded.
    pub backfill_idle: Duration,
}

impl EmbeddingConfig {
    /// The model at `model`, one thread, a short pause: for tests.
    #[must_use]
    pub fn for_tests(model: std::path::PathBuf) -> Self {
        Self {
            model,
            threads: 1,
            backfill_pause: Duration::from_millis(10),
            backfill_idle: Duration::from_millis(200),
        }
    }
}

/// Tunables of the library service.
#[derive(Clone)]
pub struct LibraryConfig {
    /// Ingest messages handled at once. One keeps `libraryUpdate` events in completion order.
    pub ingest_concurrency: usize,
    /// The key export links are signed with.
    pub export_link_key: Vec<u8>,
    /// How long an export link works.
    pub export_link_ttl: Duration,
    /// Search by meaning; `None` (no model installed): keyword search only.
    pub embedding: Option<EmbeddingConfig>,
}

impl std::fmt::Debug for LibraryConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LibraryConfig")
            .field("ingest_concurrency", &self.ingest_concurrency)
            .field("export_link_ttl", &self.export_link_ttl)
            .field("embedding", &self.embedding)
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
            embedding: None,
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
        let model = settings.effective_embedding_model();
        let embedding = model.is_file().then(|| EmbeddingConfig {
            model,
            threads: usize::try_from(settings.embedding_threads).unwrap_or(1),
            backfill_pause: Duration::from_millis(200),
            backfill_idle: Duration::from_secs(5),
        });
        if embedding.is_none() {
            tracing::warn!(
                model = %settings.effective_embedding_model().display(),
                "no embedding model: search finds words only (scribevault model fetch e5-small)"
            );
        }
        Ok(Self {
            ingest_concurrency,
            export_link_key,
            export_link_ttl: Duration::from_secs(settings.export_link_seconds),
            embedding,
        })
    }
}
