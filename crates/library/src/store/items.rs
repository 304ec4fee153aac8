//! Items: one item, ingest, edits and delete (the list and its search window are in
//! `listing.rs`).

use std::collections::HashMap;

use chrono::{DateTime, Utc};
use sea_orm::sea_query::{Expr, ExprTrait as _, OnConflict, Order, Query, SelectStatement};
use sea_orm::{
    ActiveModelTrait as _, ColumnTrait as _, ConnectionTrait, DbErr, EntityTrait as _,
    FromQueryResult, QueryFilter as _, Set,
};

use super::LibraryStore;
use crate::domain::tags::{gwth_level_of, gwth_tag};
use crate::domain::{
    Change, LibraryItem, MetadataChanges, NewLibraryItem, Segment, SourceType, TranscriptReview,
    TranscriptSource,
};
use crate::entity::library_export_item::{Column as ExportItemColumn, Entity as ExportItems};
use crate::entity::library_item::{self, Column, Entity as Items};
use crate::entity::library_item_tag::{Column as ItemTagColumn, Entity as ItemTags};
use crate::entity::library_section::{Column as SectionColumn, Entity as Sections};
use crate::entity::library_segment::{self, Entity as Segments};
use crate::entity::library_tag::{Column as TagColumn, Entity as Tags};

/// An item with the integer key the index and the join tables use.
#[derive(Debug, Clone)]
pub struct StoredItem {
    pub seq: i64,
    pub item: LibraryItem,
}

/// An item with its text and segments, for exports and suggestions.
#[derive(Debug, Clone)]
pub struct ItemText {
    pub item: LibraryItem,
    pub content: String,
    pub segments: Vec<Segment>,
}

/// What a metadata edit found.
#[derive(Debug)]
pub enum Edited {
    /// The item as it is now.
    Item(Box<LibraryItem>),
    /// The user has no such item.
    NoSuchItem,
    /// The section named is not one of the user's; nothing was changed.
    NoSuchSection,
}

/// The columns of a list row: everything but the text.
#[derive(Debug, FromQueryResult)]
pub(super) struct ItemRow {
    pub(super) seq: i64,
    id: String,
    user_id: String,
    source_ref: String,
    title: String,
    author: String,
    source_type: String,
    rating: Option<i32>,
    is_starred: bool,
    gwth_level: Option<i32>,
    duration_seconds: Option<f64>,
    created_at: DateTime<Utc>,
    last_exported: Option<DateTime<Utc>>,
    section_id: Option<String>,
    file_name: Option<String>,
    source_url: Option<String>,
    transcript_source: Option<String>,
    whisper_job_id: Option<String>,
    language: Option<String>,
    review: Option<String>,
}

const ROW_COLUMNS: [Column; 20] = [
    Column::Seq,
    Column::Id,
    Column::UserId,
    Column::SourceRef,
    Column::Title,
    Column::Author,
    Column::SourceType,
    Column::Rating,
    Column::IsStarred,
    Column::GwthLevel,
    Column::DurationSeconds,
    Column::CreatedAt,
    Column::LastExported,
    Column::SectionId,
    Column::FileName,
    Column::SourceUrl,
    Column::TranscriptSource,
    Column::WhisperJobId,
    Column::Language,
    Column::Review,
];

pub(super) fn row_select() -> SelectStatement {
    let mut select = Query::select();
    for column in ROW_COLUMNS {
        select.column((Items, column));
    }
    select.from(Items).to_owned()
}

impl ItemRow {
    /// # Errors
    /// The row's source type is none this build knows: refused rather than shown as another.
    fn into_stored(self, tags: Vec<String>) -> Result<StoredItem, DbErr> {
        let source_type = SourceType::parse(&self.source_type).ok_or_else(|| {
            DbErr::Type(format!(
                "library item {} has an unknown source type {:?}",
                self.id, self.source_type
            ))
        })?;
        let review = parse_review(&self.id, self.review.as_deref());
        Ok(StoredItem {
            seq: self.seq,
            item: LibraryItem {
                id: self.id,
                user_id: self.user_id,
                source_ref: self.source_ref,
                title: self.title,
                author: self.author,
                source_type,
                rating: self.rating,
                is_starred: self.is_starred,
                tags,
                gwth_level: self.gwth_level,
                duration_seconds: self.duration_seconds,
                created_at: self.created_at,
                last_exported: self.last_exported,
                section_id: self.section_id,
                file_name: self.file_name,
                source_url: self.source_url,
                // An unknown spelling (a newer build's) shows as no source rather than failing
                // the whole list.
                transcript_source: self
                    .transcript_source
                    .as_deref()
                    .and_then(TranscriptSource::parse),
                whisper_job_id: self.whisper_job_id,
                language: self.language,
                review,
            },
        })
    }
}

#[derive(FromQueryResult)]
struct TagNameRow {
    item_seq: i64,
    name: String,
}

/// A stored review as the domain has it. A review that does not parse (written by a newer
/// build) is logged and shown as none rather than failing the whole list.
fn parse_review(id: &str, json: Option<&str>) -> Option<TranscriptReview> {
    let review = serde_json::from_str::<TranscriptReview>(json?)
        .inspect_err(|error| tracing::warn!(error = %error, item = id, "review unreadable"))
        .ok()?;
    review.if_needed()
}

/// A review as stored: JSON when anything is left to check, NULL otherwise (the
/// `needsReview` filter tests for NULL).
pub(super) fn review_json(review: Option<&TranscriptReview>) -> Result<Option<String>, DbErr> {
    review
        .filter(|review| review.needs_review())
        .map(serde_json::to_string)
        .transpose()
        .map_err(|error| DbErr::Custom(error.to_string()))
}

pub(super) fn parse_segments(seq: i64, json: &str) -> Result<Vec<Segment>, DbErr> {
    serde_json::from_str(json)
        .map_err(|error| DbErr::Type(format!("item {seq}: segments are not valid JSON: {error}")))
}

impl LibraryStore {
    /// The tag names of `seqs`, by item, each list in name order.
    pub(super) async fn tag_names(
        connection: &impl ConnectionTrait,
        seqs: &[i64],
    ) -> Result<HashMap<i64, Vec<String>>, DbErr> {
        if seqs.is_empty() {
            return Ok(HashMap::new());
        }
        let select = Query::select()
            .column((ItemTags, ItemTagColumn::ItemSeq))
            .column((Tags, TagColumn::Name))
            .from(ItemTags)
            .inner_join(
                Tags,
                Expr::col((Tags, TagColumn::Id)).equals((ItemTags, ItemTagColumn::TagId)),
            )
            .and_where(Expr::col((ItemTags, ItemTagColumn::ItemSeq)).is_in(seqs.iter().copied()))
            .order_by((Tags, TagColumn::NameKey), Order::Asc)
            .to_owned();
        let mut names: HashMap<i64, Vec<String>> = HashMap::new();
        for row in Self::rows::<TagNameRow>(connection, &select).await? {
            names.entry(row.item_seq).or_default().push(row.name);
        }
        Ok(names)
    }

    pub(super) async fn with_tags(
        connection: &impl ConnectionTrait,
        rows: Vec<ItemRow>,
    ) -> Result<Vec<StoredItem>, DbErr> {
        let seqs: Vec<i64> = rows.iter().map(|row| row.seq).collect();
        let mut names = Self::tag_names(connection, &seqs).await?;
        rows.into_iter()
            .map(|row| {
                let tags = names.remove(&row.seq).unwrap_or_default();
                row.into_stored(tags)
            })
            .collect()
    }

    /// One of `user_id`'s items.
    ///
    /// # Errors
    /// Database failure.
    pub async fn find(&self, user_id: &str, id: &str) -> Result<Option<StoredItem>, DbErr> {
        Self::find_in(&self.db, user_id, id).await
    }

    async fn find_in(
        connection: &impl ConnectionTrait,
        user_id: &str,
        id: &str,
    ) -> Result<Option<StoredItem>, DbErr> {
        Self::find_where(connection, user_id, Column::Id, id).await
    }

    /// The user's item whose `column` is `value`, without its text.
    pub(super) async fn find_where(
        connection: &impl ConnectionTrait,
        user_id: &str,
        column: Column,
        value: impl Into<sea_orm::Value>,
    ) -> Result<Option<StoredItem>, DbErr> {
        let select = row_select()
            .and_where(Expr::col((Items, Column::UserId)).eq(user_id))
            .and_where(Expr::col((Items, column)).eq(value.into()))
            .to_owned();
        let rows: Vec<ItemRow> = Self::rows(connection, &select).await?;
        Ok(Self::with_tags(connection, rows).await?.pop())
    }

    /// `user_id`'s items among `ids`, in the order of `ids`; unknown ids are left out.
    ///
    /// # Errors
    /// Database failure.
    pub async fn find_many(&self, user_id: &str, ids: &[String]) -> Result<Vec<StoredItem>, DbErr> {
        let select = row_select()
            .and_where(Expr::col((Items, Column::UserId)).eq(user_id))
            .and_where(Expr::col((Items, Column::Id)).is_in(ids.iter().cloned()))
            .to_owned();
        let rows: Vec<ItemRow> = Self::rows(&self.db, &select).await?;
        let mut found: HashMap<String, StoredItem> = Self::with_tags(&self.db, rows)
            .await?
            .into_iter()
            .map(|stored| (stored.item.id.clone(), stored))
            .collect();
        Ok(ids.iter().filter_map(|id| found.remove(id)).collect())
    }

    /// An item's text, read on its own.
    ///
    /// # Errors
    /// Database failure.
    pub async fn content(&self, user_id: &str, id: &str) -> Result<Option<String>, DbErr> {
        Ok(Items::find()
            .filter(Column::UserId.eq(user_id))
            .filter(Column::Id.eq(id))
            .one(&self.db)
            .await?
            .map(|row| row.content))
    }

    /// An item with its text and segments.
    ///
    /// # Errors
    /// Database failure.
    pub async fn text(&self, stored: StoredItem) -> Result<Option<ItemText>, DbErr> {
        let Some(row) = Items::find_by_id(stored.seq).one(&self.db).await? else {
            return Ok(None);
        };
        let segments = match Segments::find_by_id(stored.seq).one(&self.db).await? {
            Some(row) => parse_segments(row.item_seq, &row.segments)?,
            None => Vec::new(),
        };
        Ok(Some(ItemText {
            item: stored.item,
            content: row.content,
            segments,
        }))
    }

    /// Inserts the item unless the user has one from the same source, with its segments, in
    /// one transaction. Returns the item that is there now and whether this call created it.
    ///
    /// # Errors
    /// Database failure.
    pub async fn insert_once(
        &self,
        user_id: &str,
        item: NewLibraryItem,
    ) -> Result<(LibraryItem, bool), DbErr> {
        let transaction = self.write_transaction().await?;
        let now = Utc::now();
        let row = library_item::ActiveModel {
            id: Set(uuid::Uuid::now_v7().to_string()),
            user_id: Set(user_id.to_owned()),
            source_ref: Set(item.source_ref.clone()),
            title: Set(item.title),
            author: Set(String::new()),
            source_type: Set(item.source_type.as_str().to_owned()),
            rating: Set(None),
            is_starred: Set(false),
            gwth_level: Set(None),
            duration_seconds: Set(item.duration_seconds),
            created_at: Set(item.created_at.unwrap_or(now)),
            updated_at: Set(now),
            last_exported: Set(None),
            section_id: Set(None),
            file_name: Set(item.file_name),
            source_url: Set(None),
            tags_text: Set(String::new()),
            content_bytes: Set(i64::try_from(item.content.len()).unwrap_or(i64::MAX)),
            keywords: Set(None),
            suggested_tags: Set(None),
            suggested_rating: Set(None),
            processed_at: Set(None),
            audio_path: Set(item.audio_path),
            transcript_source: Set(item
                .transcript_source
                .map(|source| source.as_str().to_owned())),
            whisper_job_id: Set(None),
            language: Set(item.language),
            review: Set(review_json(item.review.as_ref())?),
            content: Set(item.content),
            ..Default::default()
        };
        let inserted = Items::insert(row)
            .on_conflict(
                OnConflict::columns([Column::UserId, Column::SourceRef])
                    .do_nothing()
                    .to_owned(),
            )
            .exec_without_returning(&transaction)
            .await?;
        let existing = Items::find()
            .filter(Column::UserId.eq(user_id))
            .filter(Column::SourceRef.eq(item.source_ref))
            .one(&transaction)
            .await?
            .ok_or_else(|| DbErr::RecordNotFound("ingested item".into()))?;
        if inserted > 0 && !item.segments.is_empty() {
            let json = serde_json::to_string(&item.segments)
                .map_err(|error| DbErr::Custom(error.to_string()))?;
            Segments::insert(library_segment::ActiveModel {
                item_seq: Set(existing.seq),
                segments: Set(json),
            })
            .exec_without_returning(&transaction)
            .await?;
        }
        let stored = Self::find_in(&transaction, user_id, &existing.id)
            .await?
            .ok_or_else(|| DbErr::RecordNotFound("ingested item".into()))?;
        transaction.commit().await?;
        Ok((stored.item, inserted > 0))
    }

    /// Applies metadata edits in one transaction, unless the user has no such item or the
    /// named section is not the user's.
    ///
    /// The gwth level and the gwth tags stay one fact (ADR 0012): setting the level puts its
    /// tag on the item and takes the other gwth tags off; replacing the tags sets the level
    /// from the gwth tag among them, or clears it.
    ///
    /// # Errors
    /// Database failure.
    pub async fn update_metadata(
        &self,
        user_id: &str,
        id: &str,
        changes: MetadataChanges,
    ) -> Result<Edited, DbErr> {
        let transaction = self.write_transaction().await?;
        let Some(stored) = Self::find_in(&transaction, user_id, id).await? else {
            return Ok(Edited::NoSuchItem);
        };
        if let Change::Set(section) = &changes.section_id {
            let owned = Sections::find()
                .filter(SectionColumn::Id.eq(section.as_str()))
                .filter(SectionColumn::UserId.eq(user_id))
                .one(&transaction)
                .await?;
            if owned.is_none() {
                return Ok(Edited::NoSuchSection);
            }
        }
        let mut row = library_item::ActiveModel {
            seq: Set(stored.seq),
            updated_at: Set(Utc::now()),
            ..Default::default()
        };
        if let Some(title) = changes.title {
            row.title = Set(title);
            row.processed_at = Set(None);
        }
        if let Some(author) = changes.author {
            row.author = Set(author);
        }
        if let Some(starred) = changes.is_starred {
            row.is_starred = Set(starred);
        }
        match changes.rating {
            Change::Keep => {}
            Change::Clear => row.rating = Set(None),
            Change::Set(rating) => row.rating = Set(Some(rating)),
        }
        match changes.section_id {
            Change::Keep => {}
            Change::Clear => row.section_id = Set(None),
            Change::Set(section) => row.section_id = Set(Some(section)),
        }
        let mut tags = changes.tags.clone();
        match changes.gwth_level {
            Change::Keep => {
                if let Some(tags) = &tags {
                    row.gwth_level = Set(tags.iter().rev().find_map(|tag| gwth_level_of(tag)));
                }
            }
            Change::Clear => {
                row.gwth_level = Set(None);
                let mut kept = tags.unwrap_or_else(|| stored.item.tags.clone());
                kept.retain(|tag| gwth_level_of(tag).is_none());
                tags = Some(kept);
            }
            Change::Set(level) => {
                row.gwth_level = Set(Some(level));
                let mut kept = tags.unwrap_or_else(|| stored.item.tags.clone());
                kept.retain(|tag| gwth_level_of(tag).is_none());
                kept.push(gwth_tag(level));
                tags = Some(kept);
            }
        }
        if let Some(tags) = tags {
            let names = Self::replace_tags(&transaction, user_id, stored.seq, &tags).await?;
            row.tags_text = Set(names.join("\n"));
        }
        row.update(&transaction).await?;
        let item = Self::find_in(&transaction, user_id, id).await?;
        transaction.commit().await?;
        Ok(item.map_or(Edited::NoSuchItem, |stored| {
            Edited::Item(Box::new(stored.item))
        }))
    }

    /// Sets an item's rating.
    ///
    /// # Errors
    /// Database failure.
    pub async fn set_rating(&self, user_id: &str, id: &str, rating: i32) -> Result<Edited, DbErr> {
        self.update_metadata(
            user_id,
            id,
            MetadataChanges {
                rating: Change::Set(rating),
                ..MetadataChanges::default()
            },
        )
        .await
    }

    /// Replaces an item's text (the index follows in the same statement, by trigger or
    /// generated column). `None` when the user has no such item.
    ///
    /// # Errors
    /// Database failure.
    pub async fn set_content(
        &self,
        user_id: &str,
        id: &str,
        content: String,
    ) -> Result<Option<LibraryItem>, DbErr> {
        let Some(stored) = self.find(user_id, id).await? else {
            return Ok(None);
        };
        library_item::ActiveModel {
            seq: Set(stored.seq),
            content_bytes: Set(i64::try_from(content.len()).unwrap_or(i64::MAX)),
            content: Set(content),
            updated_at: Set(Utc::now()),
            processed_at: Set(None),
            ..Default::default()
        }
        .update(&self.db)
        .await?;
        Ok(self.find(user_id, id).await?.map(|stored| stored.item))
    }

    /// Records that `seqs` were exported at `at`.
    ///
    /// # Errors
    /// Database failure.
    pub async fn mark_exported(
        &self,
        user_id: &str,
        seqs: &[i64],
        at: DateTime<Utc>,
    ) -> Result<(), DbErr> {
        Items::update_many()
            .col_expr(Column::LastExported, Expr::value(at))
            .filter(Column::UserId.eq(user_id))
            .filter(Column::Seq.is_in(seqs.iter().copied()))
            .exec(&self.db)
            .await?;
        Ok(())
    }

    /// Deletes one of the user's items with its tags, segments and its place in exports, in
    /// one transaction. Returns whether there was one.
    ///
    /// # Errors
    /// Database failure.
    pub async fn delete(&self, user_id: &str, id: &str) -> Result<bool, DbErr> {
        let transaction = self.write_transaction().await?;
        let Some(row) = Items::find()
            .filter(Column::UserId.eq(user_id))
            .filter(Column::Id.eq(id))
            .one(&transaction)
            .await?
        else {
            return Ok(false);
        };
        ItemTags::delete_many()
            .filter(ItemTagColumn::ItemSeq.eq(row.seq))
            .exec(&transaction)
            .await?;
        Segments::delete_by_id(row.seq).exec(&transaction).await?;
        super::vectors::delete_for_items(&transaction, self.vectors, &row.seq.to_string()).await?;
        ExportItems::delete_many()
            .filter(ExportItemColumn::ItemSeq.eq(row.seq))
            .exec(&transaction)
            .await?;
        Items::delete_by_id(row.seq).exec(&transaction).await?;
        transaction.commit().await?;
        Ok(true)
    }

    /// The user's item made from `source_ref`, if any.
    ///
    /// # Errors
    /// Database failure.
    pub async fn find_by_source(
        &self,
        user_id: &str,
        source_ref: &str,
    ) -> Result<Option<StoredItem>, DbErr> {
        Self::find_where(&self.db, user_id, Column::SourceRef, source_ref).await
    }
}
