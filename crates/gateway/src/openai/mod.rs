//! OpenAI's transcription API (`POST /v1/audio/transcriptions`, `GET /v1/models`), so that
//! Open WebUI, the Obsidian Whisper plugin, llama-swap and the `openai` packages can use this
//! instance as their speech-to-text backend. Callers authenticate like everyone else (a
//! personal API token, usually); the file goes through the same queue as every other
//! (ADR 0022), and the result is kept in the Vault unless the caller's token says not to.
//!
//! This module is the endpoint's domain (the form, the transcoder and its permits, the spool, the
//! wait for the queue, the rendering); its HTTP handlers are in `routes/openai.rs`.

pub mod audio;
pub mod error;
pub mod form;
pub mod permits;
pub mod render;
pub mod run;
pub mod spool;

use std::time::Duration;

use self::permits::TranscodePermits;
use self::run::StartedFiles;
use self::spool::Spool;
use crate::config::OpenAiConfig;

/// The model name OpenAI's clients send by default; it means the instance's default model.
pub const OPENAI_MODEL: &str = "whisper-1";

/// What the OpenAI-compatible routes keep between requests.
pub struct OpenAiState {
    pub started: StartedFiles,
    /// Longest a request waits for its transcription (`SCRIBEVAULT_OPENAI_WAIT_SECONDS`).
    pub wait_limit: Duration,
    /// Uploads spooled and transcoded at once.
    pub permits: TranscodePermits,
    /// Where uploads and their transcodes are written.
    pub spool: Spool,
    /// The duration cap the transcoder stops past.
    pub max_audio_seconds: u64,
}

impl OpenAiState {
    #[must_use]
    pub fn new(config: &OpenAiConfig, data_dir: &std::path::Path) -> Self {
        Self {
            started: StartedFiles::default(),
            wait_limit: config.wait,
            permits: TranscodePermits::new(config.transcodes, config.transcodes_per_user),
            spool: Spool::new(data_dir.join("spool")),
            max_audio_seconds: config.max_audio_seconds,
        }
    }
}
