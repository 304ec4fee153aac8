//! What the worker handles, free of transport types.

use scribevault_core::UserId;

/// A file this worker holds a claim on.
#[derive(Debug, Clone)]
pub struct ClaimedFile {
    pub user: UserId,
    pub job_id: String,
    pub file_id: String,
    pub title: String,
    pub mp3_path: String,
    pub model: String,
    /// `txt` or `markdown`: what the Vault item holds.
    pub output_format: String,
    /// Proves the claim on every report; a stale one is refused.
    pub claim_token: u32,
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
}
