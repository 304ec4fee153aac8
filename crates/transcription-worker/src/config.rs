//! The worker's own settings, taken from the process-wide [`Settings`].

use std::path::PathBuf;
use std::time::Duration;

use scribevault_core::{Settings, SettingsError};

/// What a worker needs to know.
#[derive(Debug, Clone)]
pub struct WorkerConfig {
    /// Where `ggml-<model>.bin` files are.
    pub model_dir: PathBuf,
    /// whisper.cpp threads per file.
    pub threads: u32,
    /// Files transcribed at once.
    pub concurrency: u32,
    /// The spoken language Whisper expects (`auto` detects it).
    pub language: String,
    /// Decode each 30 s stretch without the previous text as prompt.
    pub no_context: bool,
    /// Tokens of earlier text given to whisper as its prompt.
    pub max_text_context: u32,
    /// The Silero VAD model when silence is skipped; `None` transcribes everything.
    pub vad_model: Option<PathBuf>,
    /// The longest window transcribed at once, in seconds.
    pub window_seconds: u32,
    /// Longer audio is refused.
    pub max_audio_seconds: u64,
    /// A file whose progress has not moved for this long means whisper is stuck: the liveness
    /// probe fails and the orchestrator restarts the worker.
    pub stall_after: Duration,
}

impl TryFrom<&Settings> for WorkerConfig {
    type Error = SettingsError;

    fn try_from(settings: &Settings) -> Result<Self, Self::Error> {
        if settings.whisper_stall_seconds == 0 {
            return Err(SettingsError::invalid(
                "SCRIBEVAULT_WHISPER_STALL_SECONDS",
                "must be at least 1",
            ));
        }
        Ok(Self {
            model_dir: settings.effective_model_dir(),
            threads: settings.whisper_threads,
            concurrency: settings.whisper_concurrency,
            language: settings.whisper_language.clone(),
            no_context: settings.whisper_no_context,
            max_text_context: settings.whisper_max_text_context,
            vad_model: settings.vad.then(|| settings.effective_vad_model()),
            window_seconds: settings.whisper_window_seconds,
            max_audio_seconds: settings.max_audio_seconds,
            stall_after: Duration::from_secs(settings.whisper_stall_seconds),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings(env: &[(&str, &str)]) -> Settings {
        Settings::load_from(
            None,
            env.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())),
        )
        .expect("valid settings")
    }

    #[test]
    fn a_worker_that_could_never_be_found_stuck_is_refused_by_name() {
        let refused =
            WorkerConfig::try_from(&settings(&[("SCRIBEVAULT_WHISPER_STALL_SECONDS", "0")]))
                .unwrap_err();
        assert!(
            refused
                .to_string()
                .contains("SCRIBEVAULT_WHISPER_STALL_SECONDS"),
            "{refused}"
        );
        let config = WorkerConfig::try_from(&settings(&[
            ("SCRIBEVAULT_WHISPER_STALL_SECONDS", "90"),
            ("SCRIBEVAULT_VAD", "false"),
        ]))
        .expect("valid");
        assert_eq!(config.stall_after, Duration::from_secs(90));
        assert!(config.vad_model.is_none());
    }
}
