//! The JSON the YouTube Data API v3 sends, as far as the service reads it. Every collection is
//! optional: the API leaves `items` out when nothing matches, and parts out it was not asked for.

use serde::Deserialize;

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ListResponse<T> {
    #[serde(default = "Vec::new")]
    pub items: Vec<T>,
    pub next_page_token: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
pub struct Thumbnail {
    pub url: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
pub struct Thumbnails {
    pub high: Option<Thumbnail>,
    pub medium: Option<Thumbnail>,
    pub default: Option<Thumbnail>,
}

impl Thumbnails {
    /// The largest of the sizes the SPA shows.
    pub fn best_url(&self) -> String {
        [&self.high, &self.medium, &self.default]
            .into_iter()
            .flatten()
            .find_map(|thumbnail| thumbnail.url.clone())
            .unwrap_or_default()
    }
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Snippet {
    #[serde(default)]
    pub title: String,
    #[serde(default)]
    pub channel_id: String,
    #[serde(default)]
    pub channel_title: String,
    pub published_at: Option<String>,
    #[serde(default)]
    pub thumbnails: Thumbnails,
    pub live_broadcast_content: Option<String>,
}

#[derive(Debug, Deserialize)]
pub struct ChannelItem {
    pub id: String,
    #[serde(default)]
    pub snippet: Snippet,
    #[serde(rename = "contentDetails")]
    pub content_details: Option<ChannelContentDetails>,
    pub statistics: Option<ChannelStatistics>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ChannelContentDetails {
    pub related_playlists: Option<RelatedPlaylists>,
}

#[derive(Debug, Deserialize)]
pub struct RelatedPlaylists {
    pub uploads: Option<String>,
}

/// Counts come as JSON strings (`"subscriberCount": "1234"`).
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ChannelStatistics {
    pub subscriber_count: Option<String>,
    pub video_count: Option<String>,
    #[serde(default)]
    pub hidden_subscriber_count: bool,
}

#[derive(Debug, Deserialize)]
pub struct PlaylistItem {
    #[serde(rename = "contentDetails")]
    pub content_details: Option<PlaylistItemContentDetails>,
    pub status: Option<PlaylistItemStatus>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PlaylistItemContentDetails {
    pub video_id: Option<String>,
    /// Absent for private and deleted videos.
    pub video_published_at: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PlaylistItemStatus {
    pub privacy_status: Option<String>,
}

#[derive(Debug, Deserialize)]
pub struct PlaylistResource {
    pub id: String,
    #[serde(default)]
    pub snippet: Snippet,
}

#[derive(Debug, Deserialize)]
pub struct VideoItem {
    pub id: String,
    #[serde(default)]
    pub snippet: Snippet,
    #[serde(rename = "contentDetails")]
    pub content_details: Option<VideoContentDetails>,
}

#[derive(Debug, Deserialize)]
pub struct VideoContentDetails {
    pub duration: Option<String>,
}

#[derive(Debug, Deserialize)]
pub struct SearchItem {
    pub id: SearchId,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SearchId {
    pub channel_id: Option<String>,
}

/// Google's error envelope: `{"error": {"code", "message", "errors": [{"reason"}], "details":
/// [{"reason"}]}}`.
#[derive(Debug, Deserialize)]
pub struct ErrorEnvelope {
    pub error: ErrorBody,
}

#[derive(Debug, Deserialize)]
pub struct ErrorBody {
    #[serde(default)]
    pub errors: Vec<ErrorReason>,
    #[serde(default)]
    pub details: Vec<ErrorReason>,
}

#[derive(Debug, Deserialize)]
pub struct ErrorReason {
    #[serde(default)]
    pub reason: String,
}

impl ErrorBody {
    /// Every reason the envelope gives, legacy (`errors[].reason`) and current
    /// (`details[].reason`).
    pub fn reasons(&self) -> impl Iterator<Item = &str> {
        self.errors
            .iter()
            .chain(&self.details)
            .map(|reason| reason.reason.as_str())
    }
}
