//! Videos, channels and playlists as the service reads them from YouTube, and what a channel
//! search asks for and answers.

use chrono::{DateTime, Utc};

/// Videos a search returns when the caller names no limit (docs/product-spec.md §9).
pub const DEFAULT_VIDEO_LIMIT: usize = 100;

/// A video of a channel or playlist, as the SPA lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Video {
    pub youtube_video_id: String,
    pub title: String,
    pub channel_id: String,
    pub channel_title: String,
    pub duration_seconds: u64,
    pub published_at: DateTime<Utc>,
}

impl Video {
    /// The watch URL the SPA opens and exports.
    #[must_use]
    pub fn url(&self) -> String {
        watch_url(&self.youtube_video_id)
    }
}

/// `https://www.youtube.com/watch?v=<id>`.
#[must_use]
pub fn watch_url(video_id: &str) -> String {
    format!("https://www.youtube.com/watch?v={video_id}")
}

/// Whether a video can be listed: a scheduled premiere or a running stream has no audio to
/// attach or download yet, so only finished uploads are shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Broadcast {
    /// An ordinary upload or a finished stream.
    None,
    /// Scheduled, not started (its duration is `P0D`).
    Upcoming,
    /// Streaming now.
    Live,
}

/// A video as the API describes it, before the service decides whether to list it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VideoDetails {
    pub video: Video,
    pub broadcast: Broadcast,
}

/// A YouTube channel.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Channel {
    /// `UC…`.
    pub id: String,
    pub title: String,
    pub thumbnail_url: String,
    /// `None` when the channel hides it.
    pub subscriber_count: Option<u64>,
    pub video_count: u64,
    /// `UU…`: every public upload, newest first.
    pub uploads_playlist: String,
}

/// A YouTube playlist.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Playlist {
    pub id: String,
    pub channel_id: String,
    pub title: String,
    pub thumbnail_url: String,
}

/// How many of a channel's videos a search wants.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VideoLimit {
    /// The newest `n`.
    Newest(usize),
    /// Every video (`limit=-1`).
    All,
}

impl VideoLimit {
    /// The limit of a request: 100, 200, 500 or -1 (all); 0 is the default, 100.
    ///
    /// # Errors
    /// Any other number, with a message naming the allowed ones.
    pub fn from_request(limit: i32) -> Result<Self, String> {
        match limit {
            0 => Ok(Self::Newest(DEFAULT_VIDEO_LIMIT)),
            -1 => Ok(Self::All),
            100 | 200 | 500 => Ok(Self::Newest(limit.unsigned_abs() as usize)),
            _ => Err("limit must be 100, 200, 500 or -1 (all)".to_owned()),
        }
    }

    /// Whether `count` videos are enough.
    #[must_use]
    pub fn is_met_by(self, count: usize) -> bool {
        match self {
            Self::Newest(wanted) => count >= wanted,
            Self::All => false,
        }
    }
}

/// A channel search's answer.
#[derive(Debug, Clone)]
pub struct ChannelVideos {
    pub channel: Channel,
    /// Newest first.
    pub videos: Vec<Video>,
    /// Videos this search found that the cache did not know before.
    pub new_count: u32,
}

/// Whether `id` has the shape of a YouTube video id (11 of `[0-9A-Za-z_-]`).
#[must_use]
pub fn is_video_id(id: &str) -> bool {
    id.len() == 11
        && id
            .bytes()
            .all(|byte| byte.is_ascii_alphanumeric() || byte == b'-' || byte == b'_')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_are_the_spec_ones() {
        assert_eq!(VideoLimit::from_request(0), Ok(VideoLimit::Newest(100)));
        assert_eq!(VideoLimit::from_request(500), Ok(VideoLimit::Newest(500)));
        assert_eq!(VideoLimit::from_request(-1), Ok(VideoLimit::All));
        assert!(VideoLimit::from_request(50).is_err());
        assert!(VideoLimit::from_request(-2).is_err());
        assert!(!VideoLimit::All.is_met_by(usize::MAX));
        assert!(VideoLimit::Newest(100).is_met_by(100));
        assert!(!VideoLimit::Newest(100).is_met_by(99));
    }

    #[test]
    fn video_ids_have_eleven_url_safe_characters() {
        assert!(is_video_id("dQw4w9WgXcQ"));
        assert!(is_video_id("-abc_DEF123"));
        assert!(!is_video_id("dQw4w9WgXc"));
        assert!(!is_video_id("dQw4w9WgXc!"));
        assert!(!is_video_id("../../etc/p"));
    }
}
