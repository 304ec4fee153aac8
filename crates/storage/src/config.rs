//! Storage's own settings, taken from the process-wide [`Settings`].

use scribevault_core::{Settings, SettingsError};

/// Tunables of the storage service.
#[derive(Debug, Clone)]
pub struct StorageConfig {
    /// Largest upload accepted, in bytes.
    pub max_upload_bytes: u64,
    /// Longest audio accepted, in seconds.
    pub max_audio_seconds: u64,
    /// How often old MP3s are swept for users with automatic clean-up on.
    pub cleanup_interval: std::time::Duration,
}

impl TryFrom<&Settings> for StorageConfig {
    type Error = SettingsError;

    fn try_from(settings: &Settings) -> Result<Self, Self::Error> {
        if settings.max_upload_bytes == 0 {
            return Err(SettingsError::invalid(
                "SCRIBEVAULT_MAX_UPLOAD_BYTES",
                "must be at least 1",
            ));
        }
        if settings.cleanup_interval_seconds == 0 {
            return Err(SettingsError::invalid(
                "SCRIBEVAULT_CLEANUP_INTERVAL_SECONDS",
                "must be at least 1",
            ));
        }
        Ok(Self {
            max_upload_bytes: settings.max_upload_bytes,
            max_audio_seconds: settings.max_audio_seconds,
            cleanup_interval: std::time::Duration::from_secs(settings.cleanup_interval_seconds),
        })
    }
}
