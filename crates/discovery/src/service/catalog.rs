//! Searching a channel's videos: resolve what the user typed to a channel for at most one unit
//! (remembered, so the next search costs nothing), then answer from the cache while it is
//! fresh, read only the new uploads on a refresh, and read the uploads playlist otherwise.

use chrono::{DateTime, Duration, Utc};
use scribevault_core::UserId;

use super::Discovery;
use super::playlist_read::{ReadPlan, read_playlist};
use crate::domain::channel_url::{TargetError, YouTubeTarget, parse};
use crate::domain::{Channel, ChannelVideos, VideoLimit};
use crate::error::DiscoveryError;
use crate::store::CachedChannel;
use crate::youtube::ChannelLookup;

/// How long a resolved handle, username, video or playlist keeps naming its channel.
const ALIAS_TTL_DAYS: i64 = 30;

/// A channel id, and the channel itself when resolving it fetched it anyway.
pub(crate) struct Resolved {
    pub channel_id: String,
    pub channel: Option<Channel>,
}

impl Discovery {
    /// The newest `limit` videos of the channel `channel_url` names (all for -1), the API
    /// calls charged to `user`.
    ///
    /// # Errors
    /// Bad URL or limit, unknown channel, API failures (quota, key), the user's daily units
    /// spent, database failure.
    #[tracing::instrument(skip_all, fields(user = %user, limit, refresh))]
    pub async fn channel_videos(
        &self,
        user: &UserId,
        channel_url: &str,
        limit: i32,
        refresh: bool,
    ) -> Result<ChannelVideos, DiscoveryError> {
        let target = parse_target(channel_url)?;
        let limit = VideoLimit::from_request(limit).map_err(DiscoveryError::InvalidArgument)?;
        let (metered, units) = self.metered_for(user).await?;
        let answer = metered.search(&target, limit, refresh, Utc::now()).await;
        self.charge(user, &units).await;
        self.record_spending().await;
        answer
    }

    async fn search(
        &self,
        target: &YouTubeTarget,
        limit: VideoLimit,
        refresh: bool,
        now: DateTime<Utc>,
    ) -> Result<ChannelVideos, DiscoveryError> {
        let resolved = self.resolve(target, now).await?;
        let cached = self.store.channel(&resolved.channel_id).await?;
        let wanted = match limit {
            VideoLimit::Newest(count) => Some(count),
            VideoLimit::All => None,
        };
        if !refresh
            && let Some(cached) = cached
                .as_ref()
                .filter(|cached| now - cached.fetched_at < self.policy.cache_for)
        {
            let videos = self
                .store
                .channel_videos(&cached.channel.id, wanted)
                .await?;
            if cached.complete || limit.is_met_by(videos.len()) {
                return Ok(ChannelVideos {
                    channel: cached.channel.clone(),
                    videos,
                    new_count: 0,
                });
            }
        }
        let channel = match resolved.channel {
            Some(channel) => channel,
            None => self
                .youtube
                .find_channel(ChannelLookup::Id(&resolved.channel_id))
                .await
                .map_err(|error| self.api_error(error))?
                .ok_or(DiscoveryError::ChannelNotFound)?,
        };
        let known = self.store.channel_video_ids(&channel.id).await?;
        let incremental = refresh && cached.is_some();
        let read = read_playlist(
            &self.youtube,
            &channel.uploads_playlist,
            ReadPlan {
                limit,
                known: &known,
                stop_at_known: incremental,
                known_is_complete: cached.as_ref().is_some_and(|cached| cached.complete),
            },
        )
        .await
        .map_err(|error| match error {
            // An uploads playlist that does not exist: a channel without uploads.
            crate::youtube::YouTubeError::PlaylistNotFound => DiscoveryError::ChannelNotFound,
            other => self.api_error(other),
        })?;
        let new_count = read
            .described
            .iter()
            .filter(|video| !known.contains(&video.youtube_video_id))
            .count();
        self.store.put_videos(&read.described).await?;
        self.store
            .put_channel(&CachedChannel {
                channel: channel.clone(),
                fetched_at: now,
                complete: read.complete,
            })
            .await?;
        let videos = self.store.channel_videos(&channel.id, wanted).await?;
        Ok(ChannelVideos {
            channel,
            videos,
            new_count: u32::try_from(new_count).unwrap_or(u32::MAX),
        })
    }

    /// The channel `target` names, for at most one unit (100 for a legacy `/c/` name that is
    /// not also a handle), remembered for [`ALIAS_TTL_DAYS`].
    pub(crate) async fn resolve(
        &self,
        target: &YouTubeTarget,
        now: DateTime<Utc>,
    ) -> Result<Resolved, DiscoveryError> {
        let alias = match target {
            YouTubeTarget::ChannelId(id) => {
                return Ok(Resolved {
                    channel_id: id.clone(),
                    channel: None,
                });
            }
            YouTubeTarget::Handle(handle) => format!("handle:{}", handle.to_lowercase()),
            YouTubeTarget::Username(name) => format!("user:{}", name.to_lowercase()),
            YouTubeTarget::CustomName(name) => format!("c:{}", name.to_lowercase()),
            YouTubeTarget::Video(id) => format!("video:{id}"),
            YouTubeTarget::Playlist(id) => format!("playlist:{id}"),
        };
        if let Some(channel_id) = self
            .store
            .alias(&alias, now - Duration::days(ALIAS_TTL_DAYS))
            .await?
        {
            return Ok(Resolved {
                channel_id,
                channel: None,
            });
        }
        let api = |error| self.api_error(error);
        let resolved = match target {
            YouTubeTarget::ChannelId(_) => unreachable!("returned above"),
            YouTubeTarget::Handle(handle) => self
                .youtube
                .find_channel(ChannelLookup::Handle(handle))
                .await
                .map_err(api)?
                .map(Resolved::fetched),
            YouTubeTarget::Username(name) => self
                .youtube
                .find_channel(ChannelLookup::Username(name))
                .await
                .map_err(api)?
                .map(Resolved::fetched),
            YouTubeTarget::CustomName(name) => {
                match self
                    .youtube
                    .find_channel(ChannelLookup::Handle(name))
                    .await
                    .map_err(api)?
                {
                    Some(channel) => Some(Resolved::fetched(channel)),
                    None => self
                        .youtube
                        .search_channel(name)
                        .await
                        .map_err(api)?
                        .map(Resolved::id),
                }
            }
            YouTubeTarget::Video(id) => self
                .youtube
                .videos(std::slice::from_ref(id))
                .await
                .map_err(api)?
                .into_iter()
                .next()
                .map(|details| Resolved::id(details.video.channel_id)),
            YouTubeTarget::Playlist(id) => self
                .youtube
                .find_playlist(id)
                .await
                .map_err(api)?
                .map(|playlist| Resolved::id(playlist.channel_id)),
        }
        .ok_or(DiscoveryError::ChannelNotFound)?;
        self.store
            .put_alias(&alias, &resolved.channel_id, now)
            .await?;
        Ok(resolved)
    }
}

impl Resolved {
    fn fetched(channel: Channel) -> Self {
        Self {
            channel_id: channel.id.clone(),
            channel: Some(channel),
        }
    }

    fn id(channel_id: String) -> Self {
        Self {
            channel_id,
            channel: None,
        }
    }
}

/// The target of a URL, or the service's error for it.
pub(crate) fn parse_target(url: &str) -> Result<YouTubeTarget, DiscoveryError> {
    parse(url).map_err(|error| match error {
        TargetError::Blank => DiscoveryError::BlankUrl,
        TargetError::NotYouTube => DiscoveryError::NotYouTube,
    })
}
