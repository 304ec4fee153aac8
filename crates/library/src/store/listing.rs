//! The list and its search window (ADR 0016): a search lists the newest [`SEARCH_WINDOW`]
//! matches, ranked within that window, so neither its count nor its ranking reads every match
//! of a common word.

use std::collections::HashMap;

use sea_orm::sea_query::{
    Alias, Expr, ExprTrait as _, NullOrdering, Order, Query, SelectStatement,
};
use sea_orm::{
    ColumnTrait as _, ConnectionTrait as _, DbErr, EntityTrait as _, FromQueryResult,
    QueryFilter as _, TransactionTrait as _,
};

use super::LibraryStore;
use super::items::{ItemRow, StoredItem, parse_segments, row_select};
use crate::domain::listing::{ListQuery, SortKey, SortOrder};
use crate::domain::{LibraryItem, SEARCH_WINDOW, Segment};
use crate::entity::library_item::{Column, Entity as Items};
use crate::entity::library_segment::{self, Entity as Segments};
use crate::search::{NEWEST_SLICE, SearchQuery};

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
pub(super) fn order_page(select: &mut SelectStatement, query: &ListQuery) {
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

impl LibraryStore {
    /// One page of `user_id`'s items as `query` asks, without search context.
    ///
    /// # Errors
    /// Database failure.
    pub async fn page_without_context(
        &self,
        user_id: &str,
        query: &ListQuery,
    ) -> Result<(Vec<LibraryItem>, PageTotal), DbErr> {
        let (stored, total) = self.page(user_id, query).await?;
        Ok((
            stored.into_iter().map(|stored| stored.item).collect(),
            total,
        ))
    }

    /// One page of `user_id`'s items as `query` asks (a search's in its window), and how many
    /// match in all. The hits' context (highlights, matching segments) is the service's to
    /// put together, from [`LibraryStore::snippets`] and [`LibraryStore::segments_of`].
    ///
    /// # Errors
    /// Database failure.
    pub async fn page(
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
        let window = self.window_select(user_id, &query.filter, search, walk_rank.as_ref());
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

    /// The newest [`SEARCH_WINDOW`] keyword matches of `search` under `filter`, best first, and
    /// whether there were more: the keyword side of a hybrid search.
    ///
    /// # Errors
    /// Database failure.
    pub(super) async fn keyword_ranking(
        &self,
        user_id: &str,
        filter: &crate::domain::listing::ItemFilter,
        search: &SearchQuery,
    ) -> Result<(Vec<i64>, bool), DbErr> {
        let walk_rank = self.search.window_rank();
        let window = self.window_select(user_id, filter, search, walk_rank.as_ref());
        let walked = self.walk_window(&window, search).await?;
        let mut ranks: HashMap<i64, f64> = walked
            .iter()
            .map(|row| (row.seq, row.rank.unwrap_or(f64::MIN)))
            .collect();
        let mut seqs: Vec<i64> = walked.into_iter().map(|row| row.seq).collect();
        let capped = seqs.len() as u64 > SEARCH_WINDOW;
        seqs.truncate(usize::try_from(SEARCH_WINDOW).unwrap_or(usize::MAX));
        if walk_rank.is_none() {
            ranks = self.search.ranks(&self.db, search, &seqs).await?;
        }
        let rank = |seq: &i64| ranks.get(seq).copied().unwrap_or(f64::MIN);
        seqs.sort_by(|a, b| rank(b).total_cmp(&rank(a)).then(b.cmp(a)));
        Ok((seqs, capped))
    }

    /// The window query: the newest [`SEARCH_WINDOW`] + 1 matches of `search` under `filter`,
    /// with `rank` where the engine ranks as it walks.
    fn window_select(
        &self,
        user_id: &str,
        filter: &crate::domain::listing::ItemFilter,
        search: &SearchQuery,
        rank: Option<&sea_orm::sea_query::SimpleExpr>,
    ) -> SelectStatement {
        let mut window = Query::select();
        window.expr_as(Expr::col((Items, Column::Seq)), Alias::new("seq"));
        match rank {
            Some(rank) => window.expr_as(rank.clone(), Alias::new("rank")),
            None => window.expr_as(
                Expr::cust("CAST(NULL AS DOUBLE PRECISION)"),
                Alias::new("rank"),
            ),
        };
        window.from(Items);
        super::filters::apply(&mut window, user_id, filter);
        self.search.restrict(&mut window, search);
        window
            .order_by_expr(self.search.newest_first(), Order::Desc)
            .limit(SEARCH_WINDOW + 1);
        window
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

    /// The marked title and snippet of each of `seqs` where `search` matched it.
    ///
    /// # Errors
    /// Database failure.
    pub async fn snippets(
        &self,
        search: &SearchQuery,
        seqs: &[i64],
    ) -> Result<HashMap<i64, (String, String)>, DbErr> {
        self.search.snippets(&self.db, search, seqs).await
    }

    /// The segments of each of `seqs` that has any.
    ///
    /// # Errors
    /// Database failure or unreadable segments.
    pub async fn segments_of(&self, seqs: &[i64]) -> Result<HashMap<i64, Vec<Segment>>, DbErr> {
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
}
