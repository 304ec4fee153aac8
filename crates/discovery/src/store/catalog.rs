//! The channel and video cache (shared by every user) and the aliases users typed for channels.

use std::collections::{HashMap, HashSet};

use chrono::{DateTime, Utc};
use sea_orm::sea_query::OnConflict;
use sea_orm::{
    ColumnTrait as _, DbErr, EntityTrait as _, QueryFilter as _, QueryOrder as _, QuerySelect as _,
    Set, TransactionTrait as _,
};

use crate::domain::{Channel, Video};
use crate::entity::{channel, channel_alias, video};

use super::{DiscoveryStore, INSERT_CHUNK, to_i64, video_from_row};

/// A cached channel and how current its uploads are.
#[derive(Debug, Clone)]
pub struct CachedChannel {
    pub channel: Channel,
    pub fetched_at: DateTime<Utc>,
    pub complete: bool,
}

impl DiscoveryStore {
    /// The channel an alias was resolved to, if it was resolved after `since`.
    ///
    /// # Errors
    /// Database failure.
    pub async fn alias(&self, alias: &str, since: DateTime<Utc>) -> Result<Option<String>, DbErr> {
        Ok(channel_alias::Entity::find_by_id(alias.to_owned())
            .filter(channel_alias::Column::ResolvedAt.gt(since))
            .one(&self.db)
            .await?
            .map(|row| row.channel_id))
    }

    /// Remembers that `alias` names `channel_id`.
    ///
    /// # Errors
    /// Database failure.
    pub async fn put_alias(
        &self,
        alias: &str,
        channel_id: &str,
        now: DateTime<Utc>,
    ) -> Result<(), DbErr> {
        channel_alias::Entity::insert(channel_alias::ActiveModel {
            alias: Set(alias.to_owned()),
            channel_id: Set(channel_id.to_owned()),
            resolved_at: Set(now),
        })
        .on_conflict(
            OnConflict::column(channel_alias::Column::Alias)
                .update_columns([
                    channel_alias::Column::ChannelId,
                    channel_alias::Column::ResolvedAt,
                ])
                .to_owned(),
        )
        .exec_without_returning(&self.db)
        .await?;
        Ok(())
    }

    /// A cached channel.
    ///
    /// # Errors
    /// Database failure.
    pub async fn channel(&self, id: &str) -> Result<Option<CachedChannel>, DbErr> {
        Ok(channel::Entity::find_by_id(id.to_owned())
            .one(&self.db)
            .await?
            .map(|row| CachedChannel {
                channel: Channel {
                    id: row.id,
                    title: row.title,
                    thumbnail_url: row.thumbnail_url,
                    subscriber_count: row.subscriber_count.and_then(|n| u64::try_from(n).ok()),
                    video_count: u64::try_from(row.video_count).unwrap_or(0),
                    uploads_playlist: row.uploads_playlist,
                },
                fetched_at: row.fetched_at,
                complete: row.complete,
            }))
    }

    /// Stores a channel's metadata and how current its cached uploads are.
    ///
    /// # Errors
    /// Database failure.
    pub async fn put_channel(&self, cached: &CachedChannel) -> Result<(), DbErr> {
        let channel = &cached.channel;
        channel::Entity::insert(channel::ActiveModel {
            id: Set(channel.id.clone()),
            title: Set(channel.title.clone()),
            thumbnail_url: Set(channel.thumbnail_url.clone()),
            subscriber_count: Set(channel.subscriber_count.map(to_i64)),
            video_count: Set(to_i64(channel.video_count)),
            uploads_playlist: Set(channel.uploads_playlist.clone()),
            fetched_at: Set(cached.fetched_at),
            complete: Set(cached.complete),
        })
        .on_conflict(
            OnConflict::column(channel::Column::Id)
                .update_columns([
                    channel::Column::Title,
                    channel::Column::ThumbnailUrl,
                    channel::Column::SubscriberCount,
                    channel::Column::VideoCount,
                    channel::Column::UploadsPlaylist,
                    channel::Column::FetchedAt,
                    channel::Column::Complete,
                ])
                .to_owned(),
        )
        .exec_without_returning(&self.db)
        .await?;
        Ok(())
    }

    /// Ids of the channel's cached videos.
    ///
    /// # Errors
    /// Database failure.
    pub async fn channel_video_ids(&self, channel_id: &str) -> Result<HashSet<String>, DbErr> {
        Ok(video::Entity::find()
            .select_only()
            .column(video::Column::Id)
            .filter(video::Column::ChannelId.eq(channel_id))
            .into_tuple::<String>()
            .all(&self.db)
            .await?
            .into_iter()
            .collect())
    }

    /// The channel's cached videos, newest first, at most `limit`.
    ///
    /// # Errors
    /// Database failure.
    pub async fn channel_videos(
        &self,
        channel_id: &str,
        limit: Option<usize>,
    ) -> Result<Vec<Video>, DbErr> {
        let mut query = video::Entity::find()
            .filter(video::Column::ChannelId.eq(channel_id))
            .order_by_desc(video::Column::PublishedAt)
            .order_by_asc(video::Column::Id);
        if let Some(limit) = limit {
            query = query.limit(u64::try_from(limit).unwrap_or(u64::MAX));
        }
        Ok(query
            .all(&self.db)
            .await?
            .into_iter()
            .map(video_from_row)
            .collect())
    }

    /// Stores videos, replacing what was cached of them.
    ///
    /// # Errors
    /// Database failure.
    pub async fn put_videos(&self, videos: &[Video]) -> Result<(), DbErr> {
        let transaction = self.db.begin().await?;
        for chunk in videos.chunks(INSERT_CHUNK) {
            video::Entity::insert_many(chunk.iter().map(|video| video::ActiveModel {
                id: Set(video.youtube_video_id.clone()),
                channel_id: Set(video.channel_id.clone()),
                title: Set(video.title.clone()),
                channel_title: Set(video.channel_title.clone()),
                duration_seconds: Set(to_i64(video.duration_seconds)),
                published_at: Set(video.published_at),
            }))
            .on_conflict(
                OnConflict::column(video::Column::Id)
                    .update_columns([
                        video::Column::ChannelId,
                        video::Column::Title,
                        video::Column::ChannelTitle,
                        video::Column::DurationSeconds,
                        video::Column::PublishedAt,
                    ])
                    .to_owned(),
            )
            .exec_without_returning(&transaction)
            .await?;
        }
        transaction.commit().await
    }

    /// The cached videos among `ids`.
    ///
    /// # Errors
    /// Database failure.
    pub async fn videos_by_id(&self, ids: &[String]) -> Result<HashMap<String, Video>, DbErr> {
        let mut found = HashMap::with_capacity(ids.len());
        for chunk in ids.chunks(INSERT_CHUNK) {
            for row in video::Entity::find()
                .filter(video::Column::Id.is_in(chunk.iter().cloned()))
                .all(&self.db)
                .await?
            {
                found.insert(row.id.clone(), video_from_row(row));
            }
        }
        Ok(found)
    }
}
