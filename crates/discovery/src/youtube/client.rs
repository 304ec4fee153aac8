//! [`YouTubeApi`] over HTTP with `reqwest`.
//!
//! The key travels in the query string, so no URL is ever logged or put in an error: reqwest
//! errors are stripped of theirs.

use std::time::Duration;

use chrono::{DateTime, Utc};
use serde::de::DeserializeOwned;

use super::keys::KeyRing;
use super::wire::{
    ChannelItem, ErrorEnvelope, ListResponse, PlaylistItem, PlaylistResource, SearchItem, VideoItem,
};
use super::{ChannelLookup, KeySpend, PlaylistEntry, PlaylistPage, YouTubeApi, YouTubeError};
use crate::domain::{Broadcast, Channel, Playlist, Video, VideoDetails};

/// Longest wait for one API answer.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(30);
/// Most entries and ids one call may carry (the API's maximum).
pub const PAGE_SIZE: usize = 50;

/// Reasons Google gives for a spent daily quota.
const QUOTA_REASONS: [&str; 2] = ["quotaExceeded", "dailyLimitExceeded"];
/// Reasons Google gives for a key it will not serve: invalid, expired, not enabled for the
/// API, or missing.
const KEY_REASONS: [&str; 8] = [
    "API_KEY_INVALID",
    "keyInvalid",
    "keyExpired",
    "API_KEY_SERVICE_BLOCKED",
    "accessNotConfigured",
    "SERVICE_DISABLED",
    "forbidden",
    "ipRefererBlocked",
];

/// The YouTube Data API v3 at `base`.
pub struct YouTubeClient {
    http: reqwest::Client,
    base: String,
    keys: KeyRing,
}

impl YouTubeClient {
    /// A client of the API at `base` (no trailing slash) using `keys` in turn.
    ///
    /// # Errors
    /// The HTTP client cannot be built (no TLS roots).
    pub fn new(base: &str, keys: KeyRing) -> Result<Self, reqwest::Error> {
        let http = reqwest::Client::builder()
            .timeout(REQUEST_TIMEOUT)
            .connect_timeout(Duration::from_secs(10))
            .build()?;
        Ok(Self {
            http,
            base: base.trim_end_matches('/').to_owned(),
            keys,
        })
    }

    /// One GET of `endpoint` costing `units`, moving to the next key when one's quota is spent.
    async fn get<T: DeserializeOwned>(
        &self,
        endpoint: &str,
        params: &[(&str, &str)],
        units: u64,
    ) -> Result<T, YouTubeError> {
        loop {
            let now = Utc::now();
            let (index, key) = self.keys.pick(now)?;
            let mut url = url::Url::parse(&format!("{}/{endpoint}", self.base))
                .map_err(|error| YouTubeError::Upstream(format!("bad API base URL: {error}")))?;
            url.query_pairs_mut()
                .extend_pairs(params)
                .append_pair("key", key.expose());
            let response = self
                .http
                .get(url)
                .send()
                .await
                .map_err(|error| transport_error(endpoint, error))?;
            let status = response.status();
            let body = response
                .bytes()
                .await
                .map_err(|error| transport_error(endpoint, error))?;
            let reasons: Vec<String> = (!status.is_success())
                .then(|| serde_json::from_slice::<ErrorEnvelope>(&body).ok())
                .flatten()
                .map(|envelope| envelope.error.reasons().map(str::to_owned).collect())
                .unwrap_or_default();
            let rejected_key = reasons
                .iter()
                .find(|reason| KEY_REASONS.contains(&reason.as_str()))
                .cloned();
            let out_of_quota = reasons
                .iter()
                .any(|reason| QUOTA_REASONS.contains(&reason.as_str()));
            if rejected_key.is_none() && !out_of_quota {
                // Google charges every call it serves, failed or not; a refused key or a spent
                // quota is refused before it is served.
                self.keys.spend(index, units, now);
            }
            if status.is_success() {
                return serde_json::from_slice(&body).map_err(|error| {
                    YouTubeError::Upstream(format!("unreadable {endpoint} answer: {error}"))
                });
            }
            if let Some(reason) = rejected_key {
                tracing::error!(key = key.id(), reason, "YouTube refused an API key");
                return Err(YouTubeError::KeyRejected(reason));
            }
            if out_of_quota {
                tracing::warn!(
                    key = key.id(),
                    "YouTube API key out of quota; parked until midnight Pacific"
                );
                self.keys.park(index, now);
                continue;
            }
            if reasons.iter().any(|reason| reason == "playlistNotFound") {
                return Err(YouTubeError::PlaylistNotFound);
            }
            return Err(YouTubeError::Upstream(format!(
                "{endpoint} answered HTTP {}{}",
                status.as_u16(),
                if reasons.is_empty() {
                    String::new()
                } else {
                    format!(" ({})", reasons.join(", "))
                }
            )));
        }
    }
}

fn transport_error(endpoint: &str, error: reqwest::Error) -> YouTubeError {
    let error = error.without_url();
    if error.is_timeout() {
        YouTubeError::Upstream(format!("{endpoint} timed out"))
    } else {
        YouTubeError::Upstream(format!("{endpoint} could not be reached: {error}"))
    }
}

fn parse_time(value: Option<&str>) -> Option<DateTime<Utc>> {
    value
        .and_then(|text| DateTime::parse_from_rfc3339(text).ok())
        .map(|at| at.with_timezone(&Utc))
}

/// Seconds of an ISO-8601 duration (`PT1H2M3S`, `P1DT2H`, `P0D`).
fn duration_seconds(text: &str) -> Option<u64> {
    iso8601::duration(text)
        .ok()
        .map(|duration| Duration::from(duration).as_secs())
}

fn channel_from(item: ChannelItem) -> Channel {
    let statistics = item.statistics;
    let count = |value: Option<&String>| value.and_then(|text| text.parse::<u64>().ok());
    let uploads = item
        .content_details
        .and_then(|details| details.related_playlists)
        .and_then(|playlists| playlists.uploads)
        .unwrap_or_else(|| format!("UU{}", item.id.get(2..).unwrap_or_default()));
    Channel {
        thumbnail_url: item.snippet.thumbnails.best_url(),
        title: item.snippet.title,
        subscriber_count: statistics.as_ref().and_then(|statistics| {
            if statistics.hidden_subscriber_count {
                None
            } else {
                count(statistics.subscriber_count.as_ref())
            }
        }),
        video_count: statistics
            .as_ref()
            .and_then(|statistics| count(statistics.video_count.as_ref()))
            .unwrap_or(0),
        uploads_playlist: uploads,
        id: item.id,
    }
}

fn video_from(item: VideoItem) -> Option<VideoDetails> {
    let Some(published_at) = parse_time(item.snippet.published_at.as_deref()) else {
        tracing::warn!(
            video = item.id,
            "video without a readable publishedAt; left out"
        );
        return None;
    };
    let broadcast = match item.snippet.live_broadcast_content.as_deref() {
        Some("upcoming") => Broadcast::Upcoming,
        Some("live") => Broadcast::Live,
        _ => Broadcast::None,
    };
    let duration_seconds = item
        .content_details
        .and_then(|details| details.duration)
        .and_then(|text| duration_seconds(&text))
        .unwrap_or(0);
    Some(VideoDetails {
        video: Video {
            youtube_video_id: item.id,
            title: item.snippet.title,
            channel_id: item.snippet.channel_id,
            channel_title: item.snippet.channel_title,
            duration_seconds,
            published_at,
        },
        broadcast,
    })
}

#[async_trait::async_trait]
impl YouTubeApi for YouTubeClient {
    async fn find_channel(
        &self,
        lookup: ChannelLookup<'_>,
    ) -> Result<Option<Channel>, YouTubeError> {
        let filter = match lookup {
            ChannelLookup::Id(id) => ("id", id.to_owned()),
            ChannelLookup::Handle(handle) => ("forHandle", format!("@{handle}")),
            ChannelLookup::Username(name) => ("forUsername", name.to_owned()),
        };
        let response: ListResponse<ChannelItem> = self
            .get(
                "channels",
                &[
                    ("part", "snippet,contentDetails,statistics"),
                    (filter.0, &filter.1),
                ],
                1,
            )
            .await?;
        Ok(response.items.into_iter().next().map(channel_from))
    }

    async fn search_channel(&self, query: &str) -> Result<Option<String>, YouTubeError> {
        let response: ListResponse<SearchItem> = self
            .get(
                "search",
                &[
                    ("part", "snippet"),
                    ("type", "channel"),
                    ("q", query),
                    ("maxResults", "1"),
                ],
                100,
            )
            .await?;
        Ok(response
            .items
            .into_iter()
            .find_map(|item| item.id.channel_id))
    }

    async fn find_playlist(&self, playlist_id: &str) -> Result<Option<Playlist>, YouTubeError> {
        let response: ListResponse<PlaylistResource> = self
            .get("playlists", &[("part", "snippet"), ("id", playlist_id)], 1)
            .await?;
        Ok(response.items.into_iter().next().map(|item| Playlist {
            id: item.id,
            channel_id: item.snippet.channel_id,
            thumbnail_url: item.snippet.thumbnails.best_url(),
            title: item.snippet.title,
        }))
    }

    async fn playlist_page(
        &self,
        playlist_id: &str,
        page_token: Option<&str>,
    ) -> Result<PlaylistPage, YouTubeError> {
        let size = PAGE_SIZE.to_string();
        let mut params = vec![
            ("part", "contentDetails,status"),
            ("playlistId", playlist_id),
            ("maxResults", size.as_str()),
        ];
        if let Some(token) = page_token {
            params.push(("pageToken", token));
        }
        let response: ListResponse<PlaylistItem> = self.get("playlistItems", &params, 1).await?;
        let entries = response
            .items
            .into_iter()
            .filter_map(|item| {
                let details = item.content_details?;
                let privacy = item
                    .status
                    .and_then(|status| status.privacy_status)
                    .unwrap_or_default();
                let available = details.video_published_at.is_some()
                    && matches!(privacy.as_str(), "" | "public" | "unlisted");
                Some(PlaylistEntry {
                    video_id: details.video_id?,
                    available,
                })
            })
            .collect();
        Ok(PlaylistPage {
            entries,
            next_page_token: response.next_page_token.filter(|token| !token.is_empty()),
        })
    }

    async fn videos(&self, ids: &[String]) -> Result<Vec<VideoDetails>, YouTubeError> {
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        let joined = ids.join(",");
        // No maxResults: the API refuses it together with `id`.
        let response: ListResponse<VideoItem> = self
            .get(
                "videos",
                &[("part", "snippet,contentDetails"), ("id", &joined)],
                1,
            )
            .await?;
        Ok(response.items.into_iter().filter_map(video_from).collect())
    }

    fn take_spending(&self) -> Vec<KeySpend> {
        self.keys.take_spending()
    }

    fn restore_spending(&self, spent: &[KeySpend]) {
        self.keys.restore(spent, Utc::now());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iso_durations_read_as_seconds() {
        assert_eq!(duration_seconds("PT1H2M3S"), Some(3_723));
        assert_eq!(duration_seconds("PT4M5S"), Some(245));
        assert_eq!(duration_seconds("PT45S"), Some(45));
        assert_eq!(duration_seconds("P1DT2H"), Some(93_600));
        assert_eq!(duration_seconds("P0D"), Some(0));
        assert_eq!(duration_seconds("an hour"), None);
    }
}
