//! Storage's vocabulary, free of database and transport types.

use chrono::{DateTime, Utc};

/// The title an upload gets when the uploader sends none.
pub const UNTITLED: &str = "Untitled";

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
    use super::content_type_of;

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
