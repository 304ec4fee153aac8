//! Sources: channels and playlists a user follows. A source's videos are read once, when it is
//! added, so paging through them later spends no quota.

use std::collections::HashSet;

use chrono::Utc;
use scribevault_bus::EventEnvelope;
use scribevault_bus::contract::{Event, SourceChange, SourceRef, SourceUpdate};
use scribevault_core::UserId;

use super::Discovery;
use super::catalog::parse_target;
use super::playlist_read::{ReadPlan, read_playlist};
use crate::domain::channel_url::YouTubeTarget;
use crate::domain::{
    SOURCE_PAGE_SIZE, Source, SourceKind, SourcePageToken, SourceVideoPage, VideoLimit,
};
use crate::error::DiscoveryError;
use crate::youtube::{ChannelLookup, YouTubeError};

impl Discovery {
    /// The caller's sources.
    ///
    /// # Errors
    /// Database failure.
    pub async fn sources(&self, user: &UserId) -> Result<Vec<Source>, DiscoveryError> {
        Ok(self.store.sources(user.as_str()).await?)
    }

    /// Adds the channel or playlist `url` names as a source of the caller, with its videos.
    ///
    /// # Errors
    /// Bad URL, unknown channel or playlist, a source the caller already has, API or database
    /// failures.
    #[tracing::instrument(skip_all, fields(user = %user))]
    pub async fn add_source(
        &self,
        user: &UserId,
        url: &str,
        reuse_existing: bool,
    ) -> Result<Source, DiscoveryError> {
        let target = parse_target(url)?;
        let (metered, units) = self.metered_for(user).await?;
        let added = metered
            .add_source_for(user, url.trim(), &target, reuse_existing)
            .await;
        self.charge(user, &units).await;
        self.record_spending().await;
        let (source, created) = added?;
        if created {
            self.announce(user, SourceChange::Created, &source).await;
        }
        Ok(source)
    }

    /// The source `target` names, as the API describes it, not stored yet.
    async fn describe_source(
        &self,
        user: &UserId,
        url: &str,
        target: &YouTubeTarget,
    ) -> Result<Source, DiscoveryError> {
        let now = Utc::now();
        let source = match target {
            YouTubeTarget::Playlist(id) => {
                let playlist = self
                    .youtube
                    .find_playlist(id)
                    .await
                    .map_err(|error| self.api_error(error))?
                    .ok_or(DiscoveryError::PlaylistNotFound)?;
                Source {
                    id: String::new(),
                    user_id: user.as_str().to_owned(),
                    kind: SourceKind::Playlist,
                    list_id: playlist.id.clone(),
                    playlist_id: playlist.id,
                    url: url.to_owned(),
                    title: playlist.title,
                    thumbnail_url: playlist.thumbnail_url,
                    created_at: now,
                }
            }
            channel_target => {
                let resolved = self.resolve(channel_target, now).await?;
                let channel = match resolved.channel {
                    Some(channel) => channel,
                    None => self
                        .youtube
                        .find_channel(ChannelLookup::Id(&resolved.channel_id))
                        .await
                        .map_err(|error| self.api_error(error))?
                        .ok_or(DiscoveryError::ChannelNotFound)?,
                };
                Source {
                    id: String::new(),
                    user_id: user.as_str().to_owned(),
                    kind: SourceKind::Channel,
                    list_id: channel.id,
                    playlist_id: channel.uploads_playlist,
                    url: url.to_owned(),
                    title: channel.title,
                    thumbnail_url: channel.thumbnail_url,
                    created_at: now,
                }
            }
        };
        Ok(source)
    }

    /// The source, and whether it is new (an existing one is answered, synced, only when
    /// `reuse_existing` is set).
    async fn add_source_for(
        &self,
        user: &UserId,
        url: &str,
        target: &YouTubeTarget,
        reuse_existing: bool,
    ) -> Result<(Source, bool), DiscoveryError> {
        let mut source = self.describe_source(user, url, target).await?;
        // Checked before the read, so adding a source twice spends nothing on its videos; the
        // unique index decides if two adds race.
        if let Some(existing) = self
            .store
            .source_for_list(user.as_str(), &source.list_id)
            .await?
        {
            if !reuse_existing {
                return Err(DiscoveryError::SourceExists);
            }
            self.sync_source(&existing).await?;
            return Ok((existing, false));
        }
        let read = read_playlist(
            &self.youtube,
            &source.playlist_id,
            ReadPlan {
                limit: VideoLimit::All,
                known: &HashSet::new(),
                stop_at_known: false,
                known_is_complete: false,
            },
        )
        .await
        .map_err(|error| match error {
            YouTubeError::PlaylistNotFound if source.kind == SourceKind::Channel => {
                DiscoveryError::ChannelNotFound
            }
            other => self.api_error(other),
        })?;
        self.store.put_videos(&read.described).await?;
        source.id = uuid::Uuid::now_v7().to_string();
        if self.store.insert_source(&source, &read.order).await? {
            Ok((source, true))
        } else {
            Err(DiscoveryError::SourceExists)
        }
    }

    /// Adds the videos published (or put in the playlist) since the source was last read and
    /// answers their ids, newest first for a channel. A channel's uploads are read only up to
    /// the first known video (2 new videos cost 2 units); a playlist, whose new entries may be
    /// anywhere, is read whole, but only new entries are described.
    ///
    /// # Errors
    /// API or database failures.
    pub(crate) async fn sync_source(&self, source: &Source) -> Result<Vec<String>, DiscoveryError> {
        let known = self.store.source_video_ids(&source.id).await?;
        let is_channel = source.kind == SourceKind::Channel;
        let owner = UserId::new(source.user_id.clone());
        let (metered, units) = self.metered_for(&owner).await?;
        let read = read_playlist(
            &metered.youtube,
            &source.playlist_id,
            ReadPlan {
                limit: VideoLimit::All,
                known: &known,
                stop_at_known: is_channel,
                known_is_complete: is_channel,
            },
        )
        .await;
        self.charge(&owner, &units).await;
        self.record_spending().await;
        let read = read.map_err(|error| self.api_error(error))?;
        self.store.put_videos(&read.described).await?;
        let new: Vec<String> = read
            .order
            .into_iter()
            .filter(|id| !known.contains(id))
            .collect();
        self.store
            .add_source_videos(&source.id, &new, is_channel)
            .await?;
        Ok(new)
    }

    /// Deletes one of the caller's sources.
    ///
    /// # Errors
    /// [`DiscoveryError::SourceNotFound`] for an id that is not the caller's; database failure.
    #[tracing::instrument(skip_all, fields(user = %user, source = id))]
    pub async fn delete_source(&self, user: &UserId, id: &str) -> Result<(), DiscoveryError> {
        let source = self
            .store
            .delete_source(user.as_str(), id)
            .await?
            .ok_or(DiscoveryError::SourceNotFound)?;
        self.announce(user, SourceChange::Deleted, &source).await;
        Ok(())
    }

    /// A page of one of the caller's sources' videos, from the database.
    ///
    /// # Errors
    /// Unknown source, a page token this service did not give, database failure.
    pub async fn source_videos(
        &self,
        user: &UserId,
        id: &str,
        page_token: &str,
    ) -> Result<SourceVideoPage, DiscoveryError> {
        let start = SourcePageToken::decode(page_token).map_err(DiscoveryError::InvalidArgument)?;
        let source = self
            .store
            .source(user.as_str(), id)
            .await?
            .ok_or(DiscoveryError::SourceNotFound)?;
        let (videos, has_more) = self
            .store
            .source_videos(&source.id, start.0, SOURCE_PAGE_SIZE)
            .await?;
        Ok(SourceVideoPage {
            videos,
            next_page_token: has_more
                .then(|| SourcePageToken(start.0.saturating_add(SOURCE_PAGE_SIZE)).encode()),
        })
    }

    /// Tells the owner's sockets a source came or went. A bus failure is logged: the change
    /// itself has happened.
    pub(crate) async fn announce(&self, user: &UserId, change: SourceChange, source: &Source) {
        let event = Event::SourceUpdate(SourceUpdate {
            change,
            source: SourceRef {
                id: source.id.clone(),
                title: source.title.clone(),
            },
        });
        let envelope = EventEnvelope::for_event(
            &event,
            user.as_str(),
            scribevault_core::telemetry::current_traceparent(),
        );
        if let Err(error) = self.events.publish(&envelope).await {
            tracing::warn!(error = %error, "sourceUpdate event not published");
        }
    }
}
