//! The discovery service's own settings, taken from the process-wide [`Settings`].

use scribevault_core::{Settings, SettingsError};

/// Tunables of the discovery service.
#[derive(Debug, Clone)]
pub struct DiscoveryConfig {
    /// Base URL of the YouTube Data API v3 (a local fake in tests).
    pub youtube_api_base: String,
}

impl TryFrom<&Settings> for DiscoveryConfig {
    type Error = SettingsError;

    fn try_from(settings: &Settings) -> Result<Self, Self::Error> {
        if !settings.youtube_api_base.starts_with("http") {
            return Err(SettingsError::invalid(
                "SCRIBEVAULT_YOUTUBE_API_BASE",
                "an http(s) URL",
            ));
        }
        Ok(Self {
            youtube_api_base: settings.youtube_api_base.trim_end_matches('/').to_owned(),
        })
    }
}
