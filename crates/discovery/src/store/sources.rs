//! Sources and the videos read into them when they were added.

use sea_orm::sea_query::OnConflict;
use sea_orm::{
    ColumnTrait as _, DbErr, EntityTrait as _, QueryFilter as _, QueryOrder as _, QuerySelect as _,
    Set, TransactionTrait as _,
};

use crate::domain::{Source, Video};
use crate::entity::{source, source_video};

use super::{DiscoveryStore, INSERT_CHUNK, source_from_row};

impl DiscoveryStore {
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
