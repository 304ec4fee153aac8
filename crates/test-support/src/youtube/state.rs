//! What the fake knows: channels, their uploads, playlists and videos, the keys and what they
//! spent, and every call it received.

use std::collections::{HashMap, HashSet};
use std::time::Duration;

use super::model::{FakeChannel, FakePlaylist, FakeVideo, Visibility};

/// What every key may spend in a day unless a test says otherwise.
pub(crate) const DEFAULT_DAILY_QUOTA: u64 = 10_000;

/// One request the fake received.
#[derive(Debug, Clone)]
pub struct RecordedCall {
    /// `channels`, `playlistItems`, `videos`, `playlists`, `search`, or whatever unknown path
    /// segment was asked for.
    pub endpoint: String,
    /// The decoded query parameters, in request order (including `key`).
    pub query: Vec<(String, String)>,
    /// The `key` parameter, if any.
    pub key: Option<String>,
    /// The quota units charged to the key (0 when the key was missing or invalid, or the quota
    /// was already spent).
    pub units: u64,
    /// The HTTP status answered.
    pub status: u16,
}

/// A stored video and the channel that uploaded it.
pub(crate) struct VideoRecord {
    pub(crate) video: FakeVideo,
    pub(crate) owner: String,
}

/// A channel without its videos, and the ids of its uploads, newest first.
pub(crate) struct ChannelRecord {
    pub(crate) channel: FakeChannel,
    pub(crate) uploads: Vec<String>,
}

/// An explicit playlist, entries by video id.
pub(crate) struct PlaylistRecord {
    pub(crate) id: String,
    pub(crate) channel_id: String,
    pub(crate) title: String,
    pub(crate) entries: Vec<String>,
}

/// Everything the fake knows.
#[derive(Default)]
pub(crate) struct State {
    pub(crate) channels: Vec<ChannelRecord>,
    pub(crate) playlists: Vec<PlaylistRecord>,
    pub(crate) videos: HashMap<String, VideoRecord>,
    pub(crate) quota_limits: HashMap<String, u64>,
    pub(crate) quota_used: HashMap<String, u64>,
    pub(crate) invalid_keys: HashSet<String>,
    pub(crate) calls: Vec<RecordedCall>,
    pub(crate) latency: Duration,
}

// Seeding.

impl State {
    fn store_video(&mut self, video: &FakeVideo, owner: &str, keep_existing_owner: bool) {
        if keep_existing_owner && let Some(existing) = self.videos.get_mut(&video.id) {
            existing.video = video.clone();
            return;
        }
        self.videos.insert(
            video.id.clone(),
            VideoRecord {
                video: video.clone(),
                owner: owner.to_string(),
            },
        );
    }

    pub(crate) fn add_channel(&mut self, mut channel: FakeChannel) {
        let videos = std::mem::take(&mut channel.videos);
        for video in &videos {
            self.store_video(video, &channel.id, false);
        }
        let record = ChannelRecord {
            uploads: videos.into_iter().map(|video| video.id).collect(),
            channel,
        };
        match self
            .channels
            .iter_mut()
            .find(|existing| existing.channel.id == record.channel.id)
        {
            Some(existing) => *existing = record,
            None => self.channels.push(record),
        }
    }

    pub(crate) fn add_playlist(&mut self, playlist: FakePlaylist) {
        for video in &playlist.videos {
            self.store_video(video, &playlist.channel_id, true);
        }
        let record = PlaylistRecord {
            entries: playlist.videos.into_iter().map(|video| video.id).collect(),
            id: playlist.id,
            channel_id: playlist.channel_id,
            title: playlist.title,
        };
        match self.playlists.iter_mut().find(|p| p.id == record.id) {
            Some(existing) => *existing = record,
            None => self.playlists.push(record),
        }
    }

    /// Puts `videos` (newest first) in front of the channel's uploads; `false` when there is no
    /// such channel.
    pub(crate) fn publish(&mut self, channel_id: &str, videos: Vec<FakeVideo>) -> bool {
        if !self.channels.iter().any(|c| c.channel.id == channel_id) {
            return false;
        }
        for video in &videos {
            self.store_video(video, channel_id, false);
        }
        if let Some(record) = self
            .channels
            .iter_mut()
            .find(|c| c.channel.id == channel_id)
        {
            let new_ids: Vec<String> = videos.into_iter().map(|video| video.id).collect();
            record.uploads.retain(|id| !new_ids.contains(id));
            record.uploads.splice(0..0, new_ids);
        }
        true
    }

    /// Changes a stored video's visibility everywhere it is listed; `false` when unknown.
    pub(crate) fn set_visibility(&mut self, video_id: &str, visibility: Visibility) -> bool {
        match self.videos.get_mut(video_id) {
            Some(record) => {
                record.video.visibility = visibility;
                true
            }
            None => false,
        }
    }

    pub(crate) fn set_daily_quota(&mut self, key: &str, units: u64) {
        self.quota_limits.insert(key.to_string(), units);
    }

    pub(crate) fn invalidate_key(&mut self, key: &str) {
        self.invalid_keys.insert(key.to_string());
    }

    pub(crate) fn quota_used(&self, key: &str) -> u64 {
        self.quota_used.get(key).copied().unwrap_or(0)
    }

    pub(crate) fn new_day(&mut self) {
        self.quota_used.clear();
    }

    pub(crate) fn channel(&self, id: &str) -> Option<&ChannelRecord> {
        self.channels.iter().find(|c| c.channel.id == id)
    }

    pub(crate) fn channel_title(&self, id: &str) -> String {
        self.channel(id)
            .map(|c| c.channel.title.clone())
            .unwrap_or_default()
    }
}

/// A playlist's owner, title and entries, whether uploads or explicit.
#[derive(Clone)]
pub(crate) struct Listing<'a> {
    pub(crate) id: String,
    pub(crate) channel_id: &'a str,
    pub(crate) title: String,
    pub(crate) entries: &'a [String],
    pub(crate) uploads: bool,
}

pub(crate) fn listing<'a>(state: &'a State, playlist_id: &str) -> Option<Listing<'a>> {
    if let Some(rest) = playlist_id.strip_prefix("UU")
        && let Some(record) = state.channel(&format!("UC{rest}"))
    {
        return Some(Listing {
            id: playlist_id.to_string(),
            channel_id: &record.channel.id,
            title: format!("Uploads from {}", record.channel.title),
            entries: &record.uploads,
            uploads: true,
        });
    }
    state
        .playlists
        .iter()
        .find(|p| p.id == playlist_id)
        .map(|p| Listing {
            id: p.id.clone(),
            channel_id: &p.channel_id,
            title: p.title.clone(),
            entries: &p.entries,
            uploads: false,
        })
}
