//! What the transcription service puts on the bus.

use serde::{Deserialize, Serialize};

/// The work queue workers consume.
pub const WORK_QUEUE: &str = "transcription.work";
/// The library's ingest queue (see the library crate).
pub const LIBRARY_INGEST_QUEUE: &str = "library.ingest";

/// "Transcribe this file": the database holds everything else.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct TranscriptionWork {
    pub user_id: String,
    pub job_id: String,
    pub file_id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub traceparent: Option<String>,
}

/// A finished transcript for the Vault.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LibraryIngest {
    pub user_id: String,
    pub source_ref: String,
    pub title: String,
    pub source_type: String,
    pub content: String,
    pub duration_seconds: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub traceparent: Option<String>,
}
