//! The discovery service's own settings, taken from the process-wide [`Settings`].

use std::path::PathBuf;

use chrono::Duration;
use scribevault_core::{Settings, SettingsError};
use secrecy::ExposeSecret as _;

use crate::youtube::ApiKey;
use crate::ytdlp::YtDlpOptions;

/// Tunables of the discovery service.
#[derive(Debug, Clone)]
pub struct DiscoveryConfig {
    /// Base URL of the YouTube Data API v3 (a local fake in tests).
    pub youtube_api_base: String,
    /// The API keys, tried in order; empty when none is configured.
    pub youtube_api_keys: Vec<ApiKey>,
    /// Units each key may spend a day.
    pub youtube_daily_quota: u64,
    /// Units one user's use cases may spend a day, all keys together.
    pub youtube_units_per_user_per_day: u64,
    /// How long cached uploads answer a search without the API.
    pub youtube_cache_for: Duration,
    /// How yt-dlp runs.
    pub ytdlp: YtDlpOptions,
    /// Download jobs run at once by this process.
    pub download_concurrency: usize,
    /// A running job whose runner has been quiet this long is taken over.
    pub download_stale_after: Duration,
    /// Where running jobs keep their files until storage has them.
    pub download_dir: PathBuf,
    /// How often the scheduler sweeps.
    pub scheduler_interval: std::time::Duration,
    /// The model a transcribing download job uses unless it names one.
    pub default_model: String,
    /// Download jobs one user may have not yet finished (pending or running).
    pub max_active_download_jobs_per_user: u64,
}

impl TryFrom<&Settings> for DiscoveryConfig {
    type Error = SettingsError;

    fn try_from(settings: &Settings) -> Result<Self, Self::Error> {
        check_youtube(settings)?;
        check_downloads(settings)?;
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
            ytdlp: YtDlpOptions {
                program: settings.ytdlp_path.trim().to_owned(),
                watch_url: settings.youtube_watch_url.clone(),
                retries: settings.download_retries,
                rate_limit: rate_limit(settings).map(str::to_owned),
                timeout: std::time::Duration::from_secs(settings.download_timeout_seconds),
                captions_sleep: std::time::Duration::from_secs(settings.captions_sleep_seconds),
            },
            download_concurrency: settings.download_concurrency,
            download_stale_after: Duration::seconds(
                i64::try_from(settings.download_stale_seconds).unwrap_or(20),
            ),
            download_dir: settings.data_dir.join("downloads"),
            scheduler_interval: std::time::Duration::from_millis(settings.scheduler_interval_ms),
            default_model: settings.default_model.clone(),
            max_active_download_jobs_per_user: settings.max_active_download_jobs_per_user,
            youtube_api_base: settings.youtube_api_base.trim_end_matches('/').to_owned(),
            youtube_api_keys,
            youtube_daily_quota: settings.youtube_daily_quota,
            youtube_units_per_user_per_day: settings.youtube_units_per_user_per_day,
            youtube_cache_for: Duration::seconds(cache_seconds),
        })
    }
}

/// `value` within `range`, else `key` is refused with `expected`.
fn check_range<T: PartialOrd>(
    key: &'static str,
    value: T,
    range: std::ops::RangeInclusive<T>,
    expected: &str,
) -> Result<(), SettingsError> {
    if range.contains(&value) {
        Ok(())
    } else {
        Err(SettingsError::invalid(key, expected))
    }
}

/// The YouTube Data API's base, budgets and watch URL.
fn check_youtube(settings: &Settings) -> Result<(), SettingsError> {
    if !settings.youtube_api_base.starts_with("http") {
        return Err(SettingsError::invalid(
            "SCRIBEVAULT_YOUTUBE_API_BASE",
            "an http(s) URL",
        ));
    }
    check_range(
        "SCRIBEVAULT_YOUTUBE_UNITS_PER_USER_PER_DAY",
        settings.youtube_units_per_user_per_day,
        1..=u64::MAX,
        "must be at least 1",
    )?;
    check_range(
        "SCRIBEVAULT_YOUTUBE_DAILY_QUOTA",
        settings.youtube_daily_quota,
        1..=u64::MAX,
        "must be at least 1",
    )?;
    if !settings.youtube_watch_url.contains("{id}")
        || !settings.youtube_watch_url.starts_with("http")
    {
        return Err(SettingsError::invalid(
            "SCRIBEVAULT_YOUTUBE_WATCH_URL",
            "an http(s) URL containing {id}",
        ));
    }
    Ok(())
}

/// `SCRIBEVAULT_DOWNLOAD_RATE_LIMIT`, when set to something.
fn rate_limit(settings: &Settings) -> Option<&str> {
    settings
        .download_rate_limit
        .as_deref()
        .map(str::trim)
        .filter(|rate| !rate.is_empty())
}

/// yt-dlp and the download jobs: the program, its limits, the scheduler and the per-user cap.
fn check_downloads(settings: &Settings) -> Result<(), SettingsError> {
    if settings.ytdlp_path.trim().is_empty() {
        return Err(SettingsError::invalid(
            "SCRIBEVAULT_YTDLP_PATH",
            "a path to yt-dlp, or its name on the PATH",
        ));
    }
    check_range(
        "SCRIBEVAULT_DOWNLOAD_CONCURRENCY",
        settings.download_concurrency,
        1..=32,
        "must be 1 to 32",
    )?;
    check_range(
        "SCRIBEVAULT_DOWNLOAD_RETRIES",
        settings.download_retries,
        0..=100,
        "must be at most 100",
    )?;
    if let Some(rate) = rate_limit(settings) {
        let digits = rate.trim_end_matches(['K', 'M', 'G', 'k', 'm', 'g']);
        if digits.is_empty() || digits.parse::<f64>().map_or(true, |value| value <= 0.0) {
            return Err(SettingsError::invalid(
                "SCRIBEVAULT_DOWNLOAD_RATE_LIMIT",
                "bytes per second like 500K or 2M",
            ));
        }
    }
    check_range(
        "SCRIBEVAULT_DOWNLOAD_TIMEOUT_SECONDS",
        settings.download_timeout_seconds,
        1..=86_400,
        "must be 1 to 86400",
    )?;
    check_range(
        "SCRIBEVAULT_DOWNLOAD_STALE_SECONDS",
        settings.download_stale_seconds,
        3..=3_600,
        "must be 3 to 3600",
    )?;
    check_range(
        "SCRIBEVAULT_CAPTIONS_SLEEP_SECONDS",
        settings.captions_sleep_seconds,
        0..=600,
        "must be at most 600",
    )?;
    check_range(
        "SCRIBEVAULT_SCHEDULER_INTERVAL_MS",
        settings.scheduler_interval_ms,
        100..=3_600_000,
        "must be 100 to 3600000",
    )?;
    check_range(
        "SCRIBEVAULT_MAX_ACTIVE_DOWNLOAD_JOBS_PER_USER",
        settings.max_active_download_jobs_per_user,
        1..=u64::MAX,
        "must be at least 1",
    )
}
