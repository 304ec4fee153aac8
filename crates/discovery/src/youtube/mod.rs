//! The YouTube Data API v3, behind [`YouTubeApi`] so the service's rules do not know the wire.
//!
//! Costs (Google's quota calculator): every `*.list` call here is 1 unit, `search.list` is 100;
//! a failed call costs its units too. The service lists a channel through its uploads playlist
//! (`playlistItems.list`, 50 a page) and `videos.list` (50 ids a call) and never searches,
//! except for a legacy `/c/` name no lookup parameter resolves.

mod client;
mod keys;
mod metered;
mod wire;

use chrono::{DateTime, NaiveDate, Utc};

pub use client::YouTubeClient;
pub use keys::{ApiKey, KeyRing, next_pacific_midnight, pacific_day};
pub use metered::{Metered, UnitCount};

use crate::domain::{Channel, Playlist, VideoDetails};

/// How a channel is looked up in `channels.list`.
#[derive(Debug, Clone, Copy)]
pub enum ChannelLookup<'a> {
    Id(&'a str),
    Handle(&'a str),
    Username(&'a str),
}

/// One entry of a playlist page.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlaylistEntry {
    pub video_id: String,
    /// `false` for private and deleted videos, which the API still lists but will not describe.
    pub available: bool,
}

/// One page of a playlist.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlaylistPage {
    pub entries: Vec<PlaylistEntry>,
    pub next_page_token: Option<String>,
}

/// Units one key spent on one day, not yet written down.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeySpend {
    /// A fingerprint of the key, never the key.
    pub key_id: String,
    /// The Pacific day the units count against.
    pub day: NaiveDate,
    pub units: u64,
    /// Google said the key's quota is spent for the day.
    pub exhausted: bool,
}

/// What can go wrong talking to YouTube.
#[derive(Debug, Clone, thiserror::Error, PartialEq, Eq)]
pub enum YouTubeError {
    /// No key is configured.
    #[error("no YouTube API key is configured")]
    NoKey,
    /// Every key's quota is spent until `resets_at`.
    #[error("the YouTube API quota is exhausted until {resets_at}")]
    QuotaExhausted { resets_at: DateTime<Utc> },
    /// The user the calls are for has spent their `limit` units of the day (the call was not
    /// made).
    #[error("the user's {limit} YouTube API units for today are spent")]
    UserUnitsSpent {
        limit: u64,
        resets_at: DateTime<Utc>,
    },
    /// Google refused the key (invalid, or the API is not enabled for it); the text is Google's
    /// reason code.
    #[error("the YouTube API key was refused: {0}")]
    KeyRejected(String),
    /// `playlistItems.list` on a playlist that does not exist.
    #[error("playlist not found")]
    PlaylistNotFound,
    /// A transport failure, a 5xx, or an answer we cannot read.
    #[error("{0}")]
    Upstream(String),
}

/// The calls the service makes.
#[async_trait::async_trait]
pub trait YouTubeApi: Send + Sync {
    /// `channels.list` (1 unit); `None` when nothing matches.
    async fn find_channel(
        &self,
        lookup: ChannelLookup<'_>,
    ) -> Result<Option<Channel>, YouTubeError>;

    /// `search.list?type=channel` (100 units): the best match's channel id.
    async fn search_channel(&self, query: &str) -> Result<Option<String>, YouTubeError>;

    /// `playlists.list` (1 unit).
    async fn find_playlist(&self, playlist_id: &str) -> Result<Option<Playlist>, YouTubeError>;

    /// `playlistItems.list`, 50 entries (1 unit).
    async fn playlist_page(
        &self,
        playlist_id: &str,
        page_token: Option<&str>,
    ) -> Result<PlaylistPage, YouTubeError>;

    /// `videos.list` for at most 50 ids (1 unit); ids the API does not describe (private,
    /// deleted) are left out.
    async fn videos(&self, ids: &[String]) -> Result<Vec<VideoDetails>, YouTubeError>;

    /// The units spent since the last call, per key and day, to be written down.
    fn take_spending(&self) -> Vec<KeySpend>;

    /// What was written down earlier today (after a restart), so exhausted keys stay parked.
    fn restore_spending(&self, spent: &[KeySpend]);
}
