//! The discovery service's own settings, taken from the process-wide [`Settings`].

use chrono::Duration;
use scribevault_core::{Settings, SettingsError};
use secrecy::ExposeSecret as _;

use crate::youtube::ApiKey;

/// Tunables of the discovery service.
#[derive(Debug, Clone)]
pub struct DiscoveryConfig {
    /// Base URL of the YouTube Data API v3 (a local fake in tests).
    pub youtube_api_base: String,
    /// The API keys, tried in order; empty when none is configured.
    pub youtube_api_keys: Vec<ApiKey>,
    /// Units each key may spend a day.
    pub youtube_daily_quota: u64,
    /// How long cached uploads answer a search without the API.
    pub youtube_cache_for: Duration,
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
        if settings.youtube_daily_quota == 0 {
            return Err(SettingsError::invalid(
                "SCRIBEVAULT_YOUTUBE_DAILY_QUOTA",
                "must be at least 1",
            ));
        }
        let cache_seconds = i64::try_from(settings.youtube_cache_seconds)
            .ok()
            .filter(|seconds| *seconds <= 30 * 86_400)
            .ok_or_else(|| {
                SettingsError::invalid(
                    "SCRIBEVAULT_YOUTUBE_CACHE_SECONDS",
                    "must be at most 2592000 (30 days)",
                )
            })?;
        let youtube_api_keys = settings
            .youtube_api_key
            .as_ref()
            .map(|keys| {
                keys.expose_secret()
                    .split(',')
                    .map(str::trim)
                    .filter(|key| !key.is_empty())
                    .map(ApiKey::new)
                    .collect()
            })
            .unwrap_or_default();
        Ok(Self {
            youtube_api_base: settings.youtube_api_base.trim_end_matches('/').to_owned(),
            youtube_api_keys,
            youtube_daily_quota: settings.youtube_daily_quota,
            youtube_cache_for: Duration::seconds(cache_seconds),
        })
    }
}
