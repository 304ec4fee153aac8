//! Tags: a per-user table of names and a join table of items and tags.

use chrono::Utc;
use sea_orm::sea_query::{Alias, Expr, ExprTrait as _, Func, OnConflict, Order, Query};
use sea_orm::{
    ColumnTrait as _, ConnectionTrait, DbErr, EntityTrait as _, FromQueryResult, QueryFilter as _,
    Set,
};

use super::LibraryStore;
use crate::domain::Tag;
use crate::domain::tags::tag_key;
use crate::entity::library_item_tag::{self, Column as ItemTagColumn, Entity as ItemTags};
use crate::entity::library_tag::{self, Column as TagColumn, Entity as Tags};

#[derive(FromQueryResult)]
struct TagCountRow {
    id: String,
    name: String,
    count: i64,
}

impl LibraryStore {
    /// The ids of `names` among `user_id`'s tags, creating the missing ones (a concurrent
    /// creation of the same key is absorbed by the unique index). In the order of `names`.
    async fn ensure_tags(
        connection: &impl ConnectionTrait,
        user_id: &str,
        names: &[String],
    ) -> Result<Vec<(String, String)>, DbErr> {
        let mut tags = Vec::with_capacity(names.len());
        for name in names {
            let key = tag_key(name);
            Tags::insert(library_tag::ActiveModel {
                id: Set(uuid::Uuid::now_v7().to_string()),
                user_id: Set(user_id.to_owned()),
                name: Set(name.clone()),
                name_key: Set(key.clone()),
                created_at: Set(Utc::now()),
            })
            .on_conflict(
                OnConflict::columns([TagColumn::UserId, TagColumn::NameKey])
                    .do_nothing()
                    .to_owned(),
            )
            .exec_without_returning(connection)
            .await?;
            let tag = Tags::find()
                .filter(TagColumn::UserId.eq(user_id))
                .filter(TagColumn::NameKey.eq(key))
                .one(connection)
                .await?
                .ok_or_else(|| DbErr::RecordNotFound("tag".into()))?;
            tags.push((tag.id, tag.name));
        }
        Ok(tags)
    }

    /// Makes `names` the tags of item `seq`; returns the names as stored (an existing tag keeps
    /// its first spelling).
    pub(super) async fn replace_tags(
        connection: &impl ConnectionTrait,
        user_id: &str,
        seq: i64,
        names: &[String],
    ) -> Result<Vec<String>, DbErr> {
        let tags = Self::ensure_tags(connection, user_id, names).await?;
        ItemTags::delete_many()
            .filter(ItemTagColumn::ItemSeq.eq(seq))
            .exec(connection)
            .await?;
        let mut stored = Vec::with_capacity(tags.len());
        for (id, name) in tags {
            ItemTags::insert(library_item_tag::ActiveModel {
                item_seq: Set(seq),
                tag_id: Set(id),
            })
            .on_conflict(
                OnConflict::columns([ItemTagColumn::ItemSeq, ItemTagColumn::TagId])
                    .do_nothing()
                    .to_owned(),
            )
            .exec_without_returning(connection)
            .await?;
            stored.push(name);
        }
        stored.sort_by_key(|name| tag_key(name));
        Ok(stored)
    }

    /// Creates whichever of `names` the user lacks; returns how many were created.
    ///
    /// # Errors
    /// Database failure.
    pub async fn seed_tags(&self, user_id: &str, names: &[String]) -> Result<u32, DbErr> {
        let before = self.tags(user_id).await?.len();
        Self::ensure_tags(&self.db, user_id, names).await?;
        let after = self.tags(user_id).await?.len();
        Ok(u32::try_from(after.saturating_sub(before)).unwrap_or(u32::MAX))
    }

    /// The user's tags by name, each with how many items carry it.
    ///
    /// # Errors
    /// Database failure.
    pub async fn tags(&self, user_id: &str) -> Result<Vec<Tag>, DbErr> {
        let select = Query::select()
            .column((Tags, TagColumn::Id))
            .column((Tags, TagColumn::Name))
            .expr_as(
                Func::count(Expr::col((ItemTags, ItemTagColumn::ItemSeq))),
                Alias::new("count"),
            )
            .from(Tags)
            .left_join(
                ItemTags,
                Expr::col((ItemTags, ItemTagColumn::TagId)).equals((Tags, TagColumn::Id)),
            )
            .and_where(Expr::col((Tags, TagColumn::UserId)).eq(user_id))
            .group_by_col((Tags, TagColumn::Id))
            .group_by_col((Tags, TagColumn::Name))
            .group_by_col((Tags, TagColumn::NameKey))
            .order_by((Tags, TagColumn::NameKey), Order::Asc)
            .to_owned();
        Ok(Self::rows::<TagCountRow>(&self.db, &select)
            .await?
            .into_iter()
            .map(|row| Tag {
                id: row.id,
                name: row.name,
                count: u64::try_from(row.count).unwrap_or(0),
            })
            .collect())
    }
}
