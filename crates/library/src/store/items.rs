//! Items: the list (with search), one item, ingest, edits and delete.

use std::collections::HashMap;

use chrono::{DateTime, Utc};
use sea_orm::sea_query::{
    Alias, Expr, ExprTrait as _, NullOrdering, OnConflict, Order, Query, SelectStatement,
};
use sea_orm::{
    ActiveModelTrait as _, ColumnTrait as _, ConnectionTrait, DbErr, EntityTrait as _,
    FromQueryResult, QueryFilter as _, Set, TransactionTrait as _,
};

use super::LibraryStore;
use crate::domain::{
    Change, HitContext, LibraryItem, ListedItem, MetadataChanges, NewLibraryItem, SEARCH_WINDOW,
    Segment,
};
use crate::entity::library_export_item::{Column as ExportItemColumn, Entity as ExportItems};
use crate::entity::library_item::{self, Column, Entity as Items};
use crate::entity::library_item_tag::{Column as ItemTagColumn, Entity as ItemTags};
use crate::entity::library_section::{Column as SectionColumn, Entity as Sections};
use crate::entity::library_segment::{self, Entity as Segments};
use crate::entity::library_tag::{Column as TagColumn, Entity as Tags};
use crate::listing::{ListQuery, SortKey, SortOrder};
use crate::search::{NEWEST_SLICE, SearchQuery, highlights, matching_segments};
use crate::tags::{gwth_level_of, gwth_tag};

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

/// The columns of a list row: everything but the text.
#[derive(Debug, FromQueryResult)]
struct ItemRow {
    seq: i64,
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
}

const ROW_COLUMNS: [Column; 16] = [
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
];

/// How many items a list matched.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PageTotal {
    pub count: u64,
    /// A search matched more than it lists ([`SEARCH_WINDOW`]).
    pub capped: bool,
}

#[derive(FromQueryResult)]
struct WindowRow {
    seq: i64,
    rank: Option<f64>,
}

#[derive(FromQueryResult)]
struct NewestRow {
    seq: Option<i64>,
}

/// Orders `select` as the list asks (items without a value last) and cuts its page.
fn order_page(select: &mut SelectStatement, query: &ListQuery) {
    let order = match query.order {
        SortOrder::Asc => Order::Asc,
        SortOrder::Desc => Order::Desc,
    };
    match query.sort {
        SortKey::Relevance | SortKey::CreatedAt => {
            select.order_by((Items, Column::CreatedAt), order.clone());
        }
        SortKey::Title => {
            select.order_by((Items, Column::Title), order.clone());
        }
        SortKey::Rating => {
            select.order_by_with_nulls((Items, Column::Rating), order.clone(), NullOrdering::Last);
        }
        SortKey::LastExported => {
            select.order_by_with_nulls(
                (Items, Column::LastExported),
                order.clone(),
                NullOrdering::Last,
            );
        }
    }
    select
        .order_by((Items, Column::Seq), order)
        .offset(query.offset())
        .limit(u64::from(query.limit));
}

fn row_select() -> SelectStatement {
    let mut select = Query::select();
    for column in ROW_COLUMNS {
        select.column((Items, column));
    }
    select.from(Items).to_owned()
}

impl ItemRow {
    fn into_stored(self, tags: Vec<String>) -> StoredItem {
        StoredItem {
            seq: self.seq,
            item: LibraryItem {
                id: self.id,
                user_id: self.user_id,
                source_ref: self.source_ref,
                title: self.title,
                author: self.author,
                source_type: self.source_type,
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
            },
        }
    }
}

#[derive(FromQueryResult)]
struct TagNameRow {
    item_seq: i64,
    name: String,
}

fn parse_segments(seq: i64, json: &str) -> Result<Vec<Segment>, DbErr> {
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

    async fn with_tags(
        connection: &impl ConnectionTrait,
        rows: Vec<ItemRow>,
    ) -> Result<Vec<StoredItem>, DbErr> {
        let seqs: Vec<i64> = rows.iter().map(|row| row.seq).collect();
        let mut names = Self::tag_names(connection, &seqs).await?;
        Ok(rows
            .into_iter()
            .map(|row| {
                let tags = names.remove(&row.seq).unwrap_or_default();
                row.into_stored(tags)
            })
            .collect())
    }

    /// One page of `user_id`'s items as `query` asks, without search context.
    ///
    /// # Errors
    /// Database failure.
    pub async fn page_without_context(
        &self,
        user_id: &str,
        query: &ListQuery,
    ) -> Result<(Vec<LibraryItem>, PageTotal), DbErr> {
        let (stored, total) = self.page_rows(user_id, query).await?;
        Ok((
            stored.into_iter().map(|stored| stored.item).collect(),
            total,
        ))
    }

    async fn page_rows(
        &self,
        user_id: &str,
        query: &ListQuery,
    ) -> Result<(Vec<StoredItem>, PageTotal), DbErr> {
        if let Some(search) = query
            .search
            .as_ref()
            .filter(|search| search.has_positive_terms())
        {
            return self.search_page_rows(user_id, query, search).await;
        }
        let mut select = row_select();
        super::filters::apply(&mut select, user_id, &query.filter);
        if let Some(search) = &query.search {
            self.search.restrict(&mut select, search);
        }
        let total = Self::count(&self.db, select.clone()).await?;
        order_page(&mut select, query);
        let rows: Vec<ItemRow> = Self::rows(&self.db, &select).await?;
        Ok((
            Self::with_tags(&self.db, rows).await?,
            PageTotal {
                count: total,
                capped: false,
            },
        ))
    }

    /// A search lists the newest [`SEARCH_WINDOW`] matches (ADR 0016): the engine walks its
    /// hits newest first and stops there, so neither the count nor the ranking reads every
    /// match of a common word. Relevance is then ranked within that window.
    async fn search_page_rows(
        &self,
        user_id: &str,
        query: &ListQuery,
        search: &SearchQuery,
    ) -> Result<(Vec<StoredItem>, PageTotal), DbErr> {
        let by_relevance = query.sort == SortKey::Relevance;
        let walk_rank = if by_relevance {
            self.search.window_rank()
        } else {
            None
        };
        let mut window = Query::select();
        window.expr_as(Expr::col((Items, Column::Seq)), Alias::new("seq"));
        match &walk_rank {
            Some(rank) => window.expr_as(rank.clone(), Alias::new("rank")),
            None => window.expr_as(
                Expr::cust("CAST(NULL AS DOUBLE PRECISION)"),
                Alias::new("rank"),
            ),
        };
        window.from(Items);
        super::filters::apply(&mut window, user_id, &query.filter);
        self.search.restrict(&mut window, search);
        window
            .order_by_expr(self.search.newest_first(), Order::Desc)
            .limit(SEARCH_WINDOW + 1);
        let walked = self.walk_window(&window, search).await?;
        let mut ranks: HashMap<i64, f64> = walked
            .iter()
            .map(|row| (row.seq, row.rank.unwrap_or(f64::MIN)))
            .collect();
        let mut seqs: Vec<i64> = walked.into_iter().map(|row| row.seq).collect();
        let capped = seqs.len() as u64 > SEARCH_WINDOW;
        seqs.truncate(usize::try_from(SEARCH_WINDOW).unwrap_or(usize::MAX));
        let total = PageTotal {
            count: seqs.len() as u64,
            capped,
        };
        let offset = usize::try_from(query.offset()).unwrap_or(usize::MAX);
        let limit = query.limit as usize;
        if offset >= seqs.len() {
            return Ok((Vec::new(), total));
        }
        if by_relevance {
            if walk_rank.is_none() {
                ranks = self.search.ranks(&self.db, search, &seqs).await?;
            }
            let rank = |seq: &i64| ranks.get(seq).copied().unwrap_or(f64::MIN);
            seqs.sort_by(|a, b| {
                let by_rank = rank(a).total_cmp(&rank(b));
                let ordered = match query.order {
                    SortOrder::Asc => by_rank,
                    SortOrder::Desc => by_rank.reverse(),
                };
                ordered.then(b.cmp(a))
            });
            let page: Vec<i64> = seqs.into_iter().skip(offset).take(limit).collect();
            let mut select = row_select();
            select.and_where(Expr::col((Items, Column::Seq)).is_in(page.iter().copied()));
            let mut rows: Vec<ItemRow> = Self::rows(&self.db, &select).await?;
            rows.sort_by_key(|row| page.iter().position(|seq| *seq == row.seq));
            return Ok((Self::with_tags(&self.db, rows).await?, total));
        }
        let mut select = row_select();
        select.and_where(Expr::col((Items, Column::Seq)).is_in(seqs.iter().copied()));
        order_page(&mut select, query);
        let rows: Vec<ItemRow> = Self::rows(&self.db, &select).await?;
        Ok((Self::with_tags(&self.db, rows).await?, total))
    }

    /// The rows of the window query `window`: the newest [`SEARCH_WINDOW`] + 1 matches, from
    /// the newest [`NEWEST_SLICE`] items when they hold that many and the engine can look
    /// there first, else from every match.
    async fn walk_window(
        &self,
        window: &SelectStatement,
        search: &SearchQuery,
    ) -> Result<Vec<WindowRow>, DbErr> {
        let Some(setting) = self.search.window_setting() else {
            return Self::rows(&self.db, window).await;
        };
        let transaction = self.db.begin().await?;
        // Before the setting, which would keep this off the primary key's index.
        let newest: Vec<NewestRow> = Self::rows(
            &transaction,
            Query::select()
                .expr_as(Expr::col(Column::Seq).max(), Alias::new("seq"))
                .from(Items),
        )
        .await?;
        transaction.execute_unprepared(setting).await?;
        let newer = newest
            .first()
            .and_then(|row| row.seq)
            .and_then(|newest| self.search.newer_than(search, newest - NEWEST_SLICE));
        if let Some(newer) = newer {
            let mut slice = window.clone();
            slice.and_where(newer);
            let rows: Vec<WindowRow> = Self::rows(&transaction, &slice).await?;
            if rows.len() as u64 > SEARCH_WINDOW {
                transaction.commit().await?;
                return Ok(rows);
            }
        }
        let rows = Self::rows(&transaction, window).await?;
        transaction.commit().await?;
        Ok(rows)
    }

    /// One page of `user_id`'s items as `query` asks, and how many match in all; a search's
    /// hits come with their highlights and, for audio, the segments that matched.
    ///
    /// # Errors
    /// Database failure.
    pub async fn page(
        &self,
        user_id: &str,
        query: &ListQuery,
    ) -> Result<(Vec<ListedItem>, PageTotal), DbErr> {
        let (stored, total) = self.page_rows(user_id, query).await?;
        let Some(search) = &query.search else {
            return Ok((
                stored
                    .into_iter()
                    .map(|stored| ListedItem {
                        item: stored.item,
                        hit: None,
                    })
                    .collect(),
                total,
            ));
        };
        let seqs: Vec<i64> = stored.iter().map(|stored| stored.seq).collect();
        let mut snippets = self.search.snippets(&self.db, search, &seqs).await?;
        let audio: Vec<i64> = stored
            .iter()
            .filter(|stored| stored.item.source_type == "AUDIO")
            .map(|stored| stored.seq)
            .collect();
        let mut segments = self.segments_of(&audio).await?;
        let listed = stored
            .into_iter()
            .map(|stored| {
                let (title, snippet) = snippets.remove(&stored.seq).unwrap_or_default();
                let matches = segments
                    .remove(&stored.seq)
                    .map(|segments| matching_segments(search, &segments))
                    .unwrap_or_default();
                ListedItem {
                    item: stored.item,
                    hit: Some(HitContext {
                        highlights: highlights(&title, &snippet),
                        matches,
                    }),
                }
            })
            .collect();
        Ok((listed, total))
    }

    async fn segments_of(&self, seqs: &[i64]) -> Result<HashMap<i64, Vec<Segment>>, DbErr> {
        if seqs.is_empty() {
            return Ok(HashMap::new());
        }
        Segments::find()
            .filter(library_segment::Column::ItemSeq.is_in(seqs.iter().copied()))
            .all(&self.db)
            .await?
            .into_iter()
            .map(|row| Ok((row.item_seq, parse_segments(row.item_seq, &row.segments)?)))
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
            source_type: Set(item.source_type),
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

    /// Applies metadata edits in one transaction. `None` when the user has no such item;
    /// `Err(DbErr::RecordNotFound)` when the named section is not the user's.
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
    ) -> Result<Option<LibraryItem>, DbErr> {
        let transaction = self.write_transaction().await?;
        let Some(stored) = Self::find_in(&transaction, user_id, id).await? else {
            return Ok(None);
        };
        if let Change::Set(section) = &changes.section_id {
            let owned = Sections::find()
                .filter(SectionColumn::Id.eq(section.as_str()))
                .filter(SectionColumn::UserId.eq(user_id))
                .one(&transaction)
                .await?;
            if owned.is_none() {
                return Err(DbErr::RecordNotFound("section".into()));
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
        let item = Self::find_in(&transaction, user_id, id)
            .await?
            .map(|s| s.item);
        transaction.commit().await?;
        Ok(item)
    }

    /// Sets an item's rating. `None` when the user has no such item.
    ///
    /// # Errors
    /// Database failure.
    pub async fn set_rating(
        &self,
        user_id: &str,
        id: &str,
        rating: i32,
    ) -> Result<Option<LibraryItem>, DbErr> {
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
