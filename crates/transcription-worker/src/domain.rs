//! What the worker handles, free of transport types.

use scribevault_bus::contract::TranscriptReview;
use scribevault_core::UserId;
pub use scribevault_core::language::LanguageChoice;

/// What a file's Vault item holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum OutputFormat {
    /// The markdown rendering: a title heading, then paragraphs.
    #[default]
    Markdown,
    /// The plain text.
    Txt,
}

impl OutputFormat {
    /// The job's format as the transcription service names it (`txt` or `markdown`); the
    /// service checked it at intake, and anything but `txt` is markdown.
    #[must_use]
    pub fn from_wire(value: &str) -> Self {
        if value == "txt" {
            Self::Txt
        } else {
            Self::Markdown
        }
    }
}

/// A file this worker holds a claim on.
#[derive(Debug, Clone)]
pub struct ClaimedFile {
    pub user: UserId,
    pub job_id: String,
    pub file_id: String,
    pub title: String,
    pub mp3_path: String,
    pub model: String,
    pub output_format: OutputFormat,
    /// Proves the claim on every report; a stale one is refused.
    pub claim_token: u32,
    /// The spoken language its owner chose (`auto` or a code); `None` for a job made before
    /// jobs recorded one: the worker's own setting then.
    pub language: Option<LanguageChoice>,
}

/// What the pipeline produced for a file.
#[derive(Debug, Clone)]
pub struct Transcript {
    pub transcript_path: String,
    pub markdown_path: String,
    pub segments_path: String,
    pub processing_time_ms: u64,
    pub duration_seconds: f64,
    pub vault_content: String,
    /// The language the transcript is in (detected, or the one asked for); `None` when
    /// detection heard no speech.
    pub language: Option<String>,
    /// What the quality guard left for a person to check (no ranges: nothing).
    pub review: TranscriptReview,
}
