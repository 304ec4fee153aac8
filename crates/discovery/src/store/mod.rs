//! Every query of the discovery service. Rows come out as domain types.

use std::collections::{HashMap, HashSet};

use chrono::{DateTime, NaiveDate, Utc};
use sea_orm::sea_query::{Alias, Expr, ExprTrait as _, OnConflict};
use sea_orm::{
    ColumnTrait as _, DatabaseConnection, DbErr, EntityTrait as _, QueryFilter as _,
    QueryOrder as _, QuerySelect as _, Set, TransactionTrait as _,
};
use sea_orm_migration::MigratorTrait as _;

use crate::domain::{Channel, Source, SourceKind, Video};
use crate::entity::{
    channel, channel_alias, quota_spend, source, source_video, user_quota_spend, video,
};
use crate::migration::Migrator;
use crate::youtube::KeySpend;

mod downloads;
mod preferences;
mod schedules;
mod user_data;

pub use downloads::{Cancelled, JobGuard, JobUpdate};

/// Rows one statement inserts at most (SQLite's bound-parameter limit is 32,766).
pub(crate) const INSERT_CHUNK: usize = 500;

/// A cached channel and how current its uploads are.
#[derive(Debug, Clone)]
pub struct CachedChannel {
    pub channel: Channel,
    pub fetched_at: DateTime<Utc>,
    pub complete: bool,
}

/// The discovery service's tables.
#[derive(Clone)]
pub struct DiscoveryStore {
    pub(crate) db: DatabaseConnection,
}

fn video_from_row(row: video::Model) -> Video {
    Video {
        youtube_video_id: row.id,
        title: row.title,
        channel_id: row.channel_id,
        channel_title: row.channel_title,
        duration_seconds: u64::try_from(row.duration_seconds).unwrap_or(0),
        published_at: row.published_at,
    }
}

pub(crate) fn source_from_row(row: source::Model) -> Result<Source, DbErr> {
    let kind = SourceKind::parse(&row.kind)
        .ok_or_else(|| DbErr::Type(format!("source {}: unknown kind {}", row.id, row.kind)))?;
    Ok(Source {
        id: row.id,
        user_id: row.user_id,
        kind,
        list_id: row.list_id,
        playlist_id: row.playlist_id,
        url: row.url,
        title: row.title,
        thumbnail_url: row.thumbnail_url,
        created_at: row.created_at,
    })
}

fn to_i64(value: u64) -> i64 {
    i64::try_from(value).unwrap_or(i64::MAX)
}

impl DiscoveryStore {
    /// The store over `db`, with the discovery migrations applied.
    ///
    /// # Errors
    /// Migration failure.
    pub async fn open(db: DatabaseConnection) -> Result<Self, DbErr> {
        Migrator::up(&db, None).await?;
        Ok(Self { db })
    }

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

    /// Adds units spent (and exhaustion) to the day's rows.
    ///
    /// # Errors
    /// Database failure.
    pub async fn add_spending(&self, spent: &[KeySpend]) -> Result<(), DbErr> {
        let excluded = Alias::new("excluded");
        for spend in spent {
            quota_spend::Entity::insert(quota_spend::ActiveModel {
                key_id: Set(spend.key_id.clone()),
                day: Set(spend.day.to_string()),
                units: Set(to_i64(spend.units)),
                exhausted: Set(spend.exhausted),
            })
            .on_conflict(
                OnConflict::columns([quota_spend::Column::KeyId, quota_spend::Column::Day])
                    .value(
                        quota_spend::Column::Units,
                        Expr::col((quota_spend::Entity, quota_spend::Column::Units))
                            .add(Expr::col((excluded.clone(), quota_spend::Column::Units))),
                    )
                    .value(
                        quota_spend::Column::Exhausted,
                        Expr::col((quota_spend::Entity, quota_spend::Column::Exhausted)).or(
                            Expr::col((excluded.clone(), quota_spend::Column::Exhausted)),
                        ),
                    )
                    .to_owned(),
            )
            .exec_without_returning(&self.db)
            .await?;
        }
        Ok(())
    }

    /// Adds `units` to what `user_id` spent on `day`; the day's total after it.
    ///
    /// # Errors
    /// Database failure.
    pub async fn add_user_spending(
        &self,
        user_id: &str,
        day: NaiveDate,
        units: u64,
    ) -> Result<u64, DbErr> {
        let excluded = Alias::new("excluded");
        user_quota_spend::Entity::insert(user_quota_spend::ActiveModel {
            user_id: Set(user_id.to_owned()),
            day: Set(day.to_string()),
            units: Set(to_i64(units)),
        })
        .on_conflict(
            OnConflict::columns([
                user_quota_spend::Column::UserId,
                user_quota_spend::Column::Day,
            ])
            .value(
                user_quota_spend::Column::Units,
                Expr::col((user_quota_spend::Entity, user_quota_spend::Column::Units)).add(
                    Expr::col((excluded.clone(), user_quota_spend::Column::Units)),
                ),
            )
            .to_owned(),
        )
        .exec_without_returning(&self.db)
        .await?;
        self.user_spending_on(user_id, day).await
    }

    /// What `user_id` spent on `day`.
    ///
    /// # Errors
    /// Database failure.
    pub async fn user_spending_on(&self, user_id: &str, day: NaiveDate) -> Result<u64, DbErr> {
        Ok(
            user_quota_spend::Entity::find_by_id((user_id.to_owned(), day.to_string()))
                .one(&self.db)
                .await?
                .map_or(0, |row| u64::try_from(row.units).unwrap_or(0)),
        )
    }

    /// What every key spent on `day`.
    ///
    /// # Errors
    /// Database failure.
    pub async fn spending_on(&self, day: NaiveDate) -> Result<Vec<KeySpend>, DbErr> {
        Ok(quota_spend::Entity::find()
            .filter(quota_spend::Column::Day.eq(day.to_string()))
            .all(&self.db)
            .await?
            .into_iter()
            .map(|row| KeySpend {
                key_id: row.key_id,
                day,
                units: u64::try_from(row.units).unwrap_or(0),
                exhausted: row.exhausted,
            })
            .collect())
    }

    /// Adds a source with its videos (ids in the source's order), unless the user already has
    /// one for the same list: then `false`, and nothing changes.
    ///
    /// # Errors
    /// Database failure.
    pub async fn insert_source(
        &self,
        source: &Source,
        video_ids: &[String],
    ) -> Result<bool, DbErr> {
        let transaction = self.db.begin().await?;
        let inserted = source::Entity::insert(source::ActiveModel {
            id: Set(source.id.clone()),
            user_id: Set(source.user_id.clone()),
            kind: Set(source.kind.as_str().to_owned()),
            list_id: Set(source.list_id.clone()),
            playlist_id: Set(source.playlist_id.clone()),
            url: Set(source.url.clone()),
            title: Set(source.title.clone()),
            thumbnail_url: Set(source.thumbnail_url.clone()),
            created_at: Set(source.created_at),
        })
        .on_conflict(
            OnConflict::columns([source::Column::UserId, source::Column::ListId])
                .do_nothing()
                .to_owned(),
        )
        .exec_without_returning(&transaction)
        .await?;
        if inserted == 0 {
            transaction.rollback().await?;
            return Ok(false);
        }
        let rows: Vec<source_video::ActiveModel> = video_ids
            .iter()
            .enumerate()
            .map(|(position, video_id)| source_video::ActiveModel {
                source_id: Set(source.id.clone()),
                position: Set(i32::try_from(position).unwrap_or(i32::MAX)),
                video_id: Set(video_id.clone()),
            })
            .collect();
        for chunk in rows.chunks(INSERT_CHUNK) {
            source_video::Entity::insert_many(chunk.to_vec())
                .exec_without_returning(&transaction)
                .await?;
        }
        transaction.commit().await?;
        Ok(true)
    }

    /// The user's sources, oldest first.
    ///
    /// # Errors
    /// Database failure or an unreadable row.
    pub async fn sources(&self, user_id: &str) -> Result<Vec<Source>, DbErr> {
        source::Entity::find()
            .filter(source::Column::UserId.eq(user_id))
            .order_by_asc(source::Column::CreatedAt)
            .order_by_asc(source::Column::Id)
            .all(&self.db)
            .await?
            .into_iter()
            .map(source_from_row)
            .collect()
    }

    /// The user's source for the list `list_id`, if they follow it.
    ///
    /// # Errors
    /// Database failure or an unreadable row.
    pub async fn source_for_list(
        &self,
        user_id: &str,
        list_id: &str,
    ) -> Result<Option<Source>, DbErr> {
        source::Entity::find()
            .filter(source::Column::UserId.eq(user_id))
            .filter(source::Column::ListId.eq(list_id))
            .one(&self.db)
            .await?
            .map(source_from_row)
            .transpose()
    }

    /// One of the user's sources.
    ///
    /// # Errors
    /// Database failure or an unreadable row.
    pub async fn source(&self, user_id: &str, id: &str) -> Result<Option<Source>, DbErr> {
        source::Entity::find_by_id(id.to_owned())
            .filter(source::Column::UserId.eq(user_id))
            .one(&self.db)
            .await?
            .map(source_from_row)
            .transpose()
    }

    /// Deletes one of the user's sources and its videos; the deleted source, if there was one.
    ///
    /// # Errors
    /// Database failure.
    pub async fn delete_source(&self, user_id: &str, id: &str) -> Result<Option<Source>, DbErr> {
        let transaction = self.db.begin().await?;
        let Some(row) = source::Entity::find_by_id(id.to_owned())
            .filter(source::Column::UserId.eq(user_id))
            .one(&transaction)
            .await?
        else {
            return Ok(None);
        };
        source_video::Entity::delete_many()
            .filter(source_video::Column::SourceId.eq(id))
            .exec(&transaction)
            .await?;
        // A schedule cannot outlive what it syncs.
        crate::entity::schedule::Entity::delete_many()
            .filter(crate::entity::schedule::Column::SourceId.eq(id))
            .exec(&transaction)
            .await?;
        source::Entity::delete_by_id(id.to_owned())
            .exec(&transaction)
            .await?;
        transaction.commit().await?;
        source_from_row(row).map(Some)
    }

    /// `count` of a source's videos from `offset`, and whether more follow.
    ///
    /// # Errors
    /// Database failure.
    pub async fn source_videos(
        &self,
        source_id: &str,
        offset: u32,
        count: u32,
    ) -> Result<(Vec<Video>, bool), DbErr> {
        let entries = source_video::Entity::find()
            .filter(source_video::Column::SourceId.eq(source_id))
            .order_by_asc(source_video::Column::Position)
            .offset(u64::from(offset))
            .limit(u64::from(count) + 1)
            .all(&self.db)
            .await?;
        let has_more = entries.len() > count as usize;
        let ids: Vec<String> = entries
            .into_iter()
            .take(count as usize)
            .map(|entry| entry.video_id)
            .collect();
        let mut known = self.videos_by_id(&ids).await?;
        Ok((
            ids.iter().filter_map(|id| known.remove(id)).collect(),
            has_more,
        ))
    }
}
