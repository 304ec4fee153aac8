//! Full-text search over the Vault, one trait with an engine per database backend (notes §2):
//! SQLite's FTS5 and PostgreSQL's `tsvector`. Both read the same parsed [`SearchQuery`], so the
//! user's syntax means the same on either, and `tests/api/search.rs` runs one conformance suite
//! against both.

mod highlight;
mod matches;
mod postgres;
mod query;
mod snippet;
mod sqlite;

use std::collections::HashMap;

use sea_orm::sea_query::{SelectStatement, SimpleExpr};
use sea_orm::{DatabaseBackend, DatabaseConnection, DbErr};

pub use highlight::{has_mark, marked_html};
pub use matches::matching_segments;
pub use query::{SearchQuery, words_of};

/// A database's full-text engine, as the item queries use it.
#[async_trait::async_trait]
pub trait FullTextIndex: Send + Sync {
    /// Restricts `select` (a query over `library_items`) to the items `query` matches.
    fn restrict(&self, select: &mut SelectStatement, query: &SearchQuery);

    /// The order a restricted select walks its hits newest first in, cheaply: the engine's
    /// own order where it has one, so a window of the newest hits stops early.
    fn newest_first(&self) -> SimpleExpr;

    /// A rank the window query itself can select (larger is better), for engines that rank
    /// hits as they walk them; `None`: [`FullTextIndex::ranks`] ranks the window afterwards.
    fn window_rank(&self) -> Option<SimpleExpr>;

    /// Statements to run, in the window query's own transaction, before it (PostgreSQL: keep
    /// the planner off plans that read every candidate's `tsvector`, a cost it does not see).
    fn window_setting(&self) -> Option<&'static str> {
        None
    }

    /// For engines whose window visits the row of every match (PostgreSQL's bitmap scans): a
    /// restriction to the items with a `seq` above `floor`, applied by the full-text index
    /// itself, before any row is read. The window tries the newest [`NEWEST_SLICE`] items
    /// first and walks every match only when they hold fewer than a window's worth, so a word
    /// in most items costs a few thousand row visits instead of tens of thousands.
    fn newer_than(&self, _query: &SearchQuery, _floor: i64) -> Option<SimpleExpr> {
        None
    }

    /// How well each of the items `seqs` matches the positive part of `query` (larger is
    /// better), for engines without a [`FullTextIndex::window_rank`]. Only a window of hits is
    /// ranked, never every match (ADR 0016).
    async fn ranks(
        &self,
        _db: &DatabaseConnection,
        _query: &SearchQuery,
        _seqs: &[i64],
    ) -> Result<HashMap<i64, f64>, DbErr> {
        Ok(HashMap::new())
    }

    /// Highlighted title and text snippets of the items `seqs`, as raw engine output with
    /// `highlight::MARK_START`/`MARK_END` around the hits: `(title, snippet)` per item.
    async fn snippets(
        &self,
        db: &DatabaseConnection,
        query: &SearchQuery,
        seqs: &[i64],
    ) -> Result<HashMap<i64, (String, String)>, DbErr>;
}

/// How many of the newest items (by `seq`) a window looks in first, where the engine has
/// [`FullTextIndex::newer_than`]: a word in a quarter of the items fills a window there.
pub const NEWEST_SLICE: i64 = 4096;

/// `seqs` as a comma-separated SQL list (integers only, so nothing needs quoting).
fn id_list(seqs: &[i64]) -> String {
    seqs.iter()
        .map(i64::to_string)
        .collect::<Vec<_>>()
        .join(",")
}

/// The engine of `backend`.
#[must_use]
pub fn index_for(backend: DatabaseBackend) -> Box<dyn FullTextIndex> {
    match backend {
        DatabaseBackend::Postgres => Box::new(postgres::PostgresFullText),
        _ => Box::new(sqlite::SqliteFullText),
    }
}

/// The `highlights` of a hit: the title when a word of it matched, then the text's snippet;
/// HTML-escaped with `<mark>` around the hits.
#[must_use]
pub fn highlights(title: &str, snippet: &str) -> Vec<String> {
    let mut highlights = Vec::new();
    if has_mark(title) {
        highlights.push(marked_html(title));
    }
    if has_mark(snippet) || (highlights.is_empty() && !snippet.trim().is_empty()) {
        highlights.push(marked_html(snippet.trim()));
    }
    highlights
}
