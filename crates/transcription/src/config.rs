//! The transcription service's own settings, taken from the process-wide [`Settings`].

use std::path::PathBuf;
use std::time::Duration;

use scribevault_core::{Settings, SettingsError};

/// Tunables of the service.
#[derive(Debug, Clone)]
pub struct TranscriptionConfig {
    /// Where `ggml-<model>.bin` files are.
    pub model_dir: PathBuf,
    /// The models on offer when they are configured rather than found in `model_dir`.
    pub offered_models: Option<Vec<String>>,
    /// Automatic retries before a file is `failed`.
    pub max_retries: u32,
    /// First retry delay; doubles each retry, capped at `retry_max_delay`.
    pub retry_base_delay: Duration,
    /// Longest delay between two automatic retries.
    pub retry_max_delay: Duration,
    /// The model used when a request names none.
    pub default_model: String,
    /// How often the housekeeping pass runs.
    pub housekeeping_interval: Duration,
    /// At start, files completed this recently are handed to the library again.
    pub resend_ingests_within: Duration,
    /// A transcribing file whose worker has not reported for this long is given to another.
    pub stale_after: Duration,
    /// The take-back (its worker went silent) at which a file fails for good instead of being
    /// queued again.
    pub max_take_backs: u32,
    /// Files one user may have waiting (pending, scheduled, transcribing, retrying).
    pub max_waiting_files_per_user: u64,
}

impl TranscriptionConfig {
    /// The delay before the automatic retry that follows `failures_so_far` failed attempts.
    #[must_use]
    pub fn retry_delay(&self, failures_so_far: u32) -> Duration {
        self.retry_base_delay
            .saturating_mul(2u32.saturating_pow(failures_so_far))
            .min(self.retry_max_delay)
    }
}

impl TryFrom<&Settings> for TranscriptionConfig {
    type Error = SettingsError;

    fn try_from(settings: &Settings) -> Result<Self, Self::Error> {
        let offered_models = match &settings.whisper_models {
            Some(list) => {
                let mut models: Vec<String> = list
                    .split(',')
                    .map(str::trim)
                    .filter(|name| !name.is_empty())
                    .map(str::to_owned)
                    .collect();
                if models.is_empty() {
                    return Err(SettingsError::invalid(
                        "SCRIBEVAULT_WHISPER_MODELS",
                        "a comma-separated list of model names such as small,base.en",
                    ));
                }
                models.sort();
                Some(models)
            }
            None => None,
        };
        if settings.retry_max_delay_seconds < settings.retry_base_delay_seconds {
            return Err(SettingsError::invalid(
                "SCRIBEVAULT_RETRY_MAX_DELAY_SECONDS",
                "must be at least SCRIBEVAULT_RETRY_BASE_DELAY_SECONDS",
            ));
        }
        if settings.worker_stale_seconds == 0 {
            return Err(SettingsError::invalid(
                "SCRIBEVAULT_WORKER_STALE_SECONDS",
                "must be at least 1",
            ));
        }
        if settings.max_take_backs == 0 {
            return Err(SettingsError::invalid(
                "SCRIBEVAULT_MAX_TAKE_BACKS",
                "must be at least 1",
            ));
        }
        if settings.max_waiting_files_per_user == 0 {
            return Err(SettingsError::invalid(
                "SCRIBEVAULT_MAX_WAITING_FILES_PER_USER",
                "must be at least 1",
            ));
        }
        Ok(Self {
            model_dir: settings.effective_model_dir(),
            offered_models,
            max_retries: settings.max_retries,
            retry_base_delay: Duration::from_secs(settings.retry_base_delay_seconds),
            retry_max_delay: Duration::from_secs(settings.retry_max_delay_seconds),
            default_model: settings.default_model.clone(),
            housekeeping_interval: Duration::from_millis(settings.housekeeping_interval_ms),
            resend_ingests_within: Duration::from_secs(settings.resend_ingests_within_seconds),
            stale_after: Duration::from_secs(settings.worker_stale_seconds),
            max_take_backs: settings.max_take_backs,
            max_waiting_files_per_user: settings.max_waiting_files_per_user,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings(pairs: &[(&str, &str)]) -> Settings {
        Settings::load_from(
            None,
            pairs
                .iter()
                .map(|(key, value)| ((*key).to_owned(), (*value).to_owned()))
                .collect::<Vec<_>>(),
        )
        .expect("valid settings")
    }

    #[test]
    fn the_offered_models_are_trimmed_and_sorted() {
        let config = TranscriptionConfig::try_from(&settings(&[(
            "SCRIBEVAULT_WHISPER_MODELS",
            " small, base.en ,",
        )]))
        .expect("valid");
        assert_eq!(
            config.offered_models,
            Some(vec!["base.en".to_owned(), "small".to_owned()])
        );
    }

    #[test]
    fn a_retry_cap_below_the_first_delay_is_refused_by_name() {
        let error = TranscriptionConfig::try_from(&settings(&[
            ("SCRIBEVAULT_RETRY_BASE_DELAY_SECONDS", "60"),
            ("SCRIBEVAULT_RETRY_MAX_DELAY_SECONDS", "10"),
        ]))
        .expect_err("refused");
        assert!(
            error
                .to_string()
                .contains("SCRIBEVAULT_RETRY_MAX_DELAY_SECONDS")
        );
    }

    #[test]
    fn zero_take_backs_or_waiting_files_are_refused_by_name() {
        for key in [
            "SCRIBEVAULT_MAX_TAKE_BACKS",
            "SCRIBEVAULT_MAX_WAITING_FILES_PER_USER",
        ] {
            let error =
                TranscriptionConfig::try_from(&settings(&[(key, "0")])).expect_err("refused");
            assert!(error.to_string().contains(key), "{error}");
        }
    }

    #[test]
    fn retry_delays_double_up_to_the_cap() {
        let config = TranscriptionConfig::try_from(&settings(&[
            ("SCRIBEVAULT_RETRY_BASE_DELAY_SECONDS", "5"),
            ("SCRIBEVAULT_RETRY_MAX_DELAY_SECONDS", "30"),
        ]))
        .expect("valid");
        let delays: Vec<u64> = (0..5).map(|n| config.retry_delay(n).as_secs()).collect();
        assert_eq!(delays, [5, 10, 20, 30, 30]);
    }
}
