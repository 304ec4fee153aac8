//! Storage's vocabulary and pure rules, free of database and transport types: the types here,
//! what makes a body MP3 (`mp3_check.rs`), and the watch an upload passes as it streams
//! (`inspection.rs`: size limit, quota room, content check, hash).

pub mod inspection;
pub mod mp3_check;

use chrono::{DateTime, Utc};

/// The title an upload gets when the uploader sends none.
pub const UNTITLED: &str = "Untitled";

/// A user's quota and MP3 clean-up, from their settings (docs/product-spec.md §3 defaults until they save).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StoragePolicy {
    /// Most bytes of audio the user may keep.
    pub max_bytes: u64,
    /// MP3s older than this many days are deleted by the daily sweep; `None`: kept.
    pub cleanup_after_days: Option<u32>,
}

impl Default for StoragePolicy {
    fn default() -> Self {
        Self {
            max_bytes: 10 * GIB,
            cleanup_after_days: None,
        }
    }
}

/// Bytes in a GiB, the unit of the quota setting (`maxStorageGB`).
pub const GIB: u64 = 1024 * 1024 * 1024;

/// Bytes as the user reads them: `9.8 GB`, `512 MB`.
#[must_use]
pub fn human_size(bytes: u64) -> String {
    #[allow(clippy::cast_precision_loss)] // a display figure
    let gb = bytes as f64 / GIB as f64;
    if gb >= 1.0 {
        let text = format!("{gb:.1}");
        format!("{} GB", text.strip_suffix(".0").unwrap_or(&text))
    } else {
        format!("{} MB", bytes / (1024 * 1024))
    }
}

/// What the uploader tells about the file.
#[derive(Debug, Clone, Default)]
pub struct Mp3Upload {
    /// YouTube video id; empty for a manual upload.
    pub video_id: String,
    pub title: String,
    pub channel_title: String,
    pub duration_seconds: Option<f64>,
    pub published_at: String,
}

/// A stored upload.
#[derive(Debug, Clone)]
pub struct StoredMp3 {
    /// Opaque, owner-scoped path of the audio.
    pub path: String,
    pub title: String,
    pub size: u64,
    pub content_sha256: String,
    /// The video id (generated `manual-…` for manual uploads).
    pub video_id: String,
    /// True when this user had stored the same audio before.
    pub deduplicated: bool,
}

/// One entry of the per-video MP3 registry.
#[derive(Debug, Clone)]
pub struct RegisteredMp3 {
    pub upload_id: String,
    pub user_id: String,
    /// The YouTube video id, or a generated `manual-…` id.
    pub video_id: String,
    pub manual: bool,
    pub title: String,
    pub channel_title: String,
    pub duration_seconds: Option<f64>,
    pub published_at: String,
    pub path: String,
    pub size: u64,
    pub created_at: DateTime<Utc>,
}

/// The folder of a user's objects that storage owns: the MP3s (`uploads/<id>.mp3`).
pub const UPLOADS_ROOT: &str = "uploads/";

/// What deleting a user's data removed.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct DeletedUserData {
    /// Database rows, of every table keyed by the user.
    pub rows: u64,
    /// Stored objects.
    pub blobs: u64,
}

/// The content type a stored object is served with, from the extension storage gave it.
#[must_use]
pub fn content_type_of(path: &str) -> &'static str {
    match path.rsplit('.').next() {
        Some("mp3") => "audio/mpeg",
        Some("md") => "text/markdown; charset=utf-8",
        Some("json") => "application/json",
        _ => "text/plain; charset=utf-8",
    }
}

#[cfg(test)]
mod tests {
    use super::{GIB, content_type_of, human_size};

    #[test]
    fn sizes_read_as_users_write_them() {
        assert_eq!(human_size(10 * GIB), "10 GB");
        assert_eq!(human_size(GIB * 98 / 10), "9.8 GB");
        assert_eq!(human_size(512 * 1024 * 1024), "512 MB");
        assert_eq!(human_size(0), "0 MB");
    }

    #[test]
    fn objects_are_served_with_the_type_of_their_extension() {
        assert_eq!(content_type_of("uploads/a.mp3"), "audio/mpeg");
        assert_eq!(
            content_type_of("transcripts/j/f.md"),
            "text/markdown; charset=utf-8"
        );
        assert_eq!(
            content_type_of("transcripts/j/f.segments.json"),
            "application/json"
        );
        assert_eq!(
            content_type_of("transcripts/j/f.txt"),
            "text/plain; charset=utf-8"
        );
    }
}
