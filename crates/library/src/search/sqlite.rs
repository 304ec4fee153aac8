//! SQLite: FTS5 over `library_items` as external content (the table is created and kept in
//! step by the library's migration). bm25 weighs a title hit 10 and a tag hit 5 times a hit in
//! the text.

use std::collections::HashMap;

use sea_orm::sea_query::{Alias, Expr, JoinType, Query, SelectStatement, SimpleExpr};
use sea_orm::{DatabaseConnection, DbErr, FromQueryResult, Statement};

use super::{FullTextIndex, SearchQuery, id_list};

pub struct SqliteFullText;

#[derive(FromQueryResult)]
struct SnippetRow {
    seq: i64,
    title: Option<String>,
    snippet: Option<String>,
}

#[async_trait::async_trait]
impl FullTextIndex for SqliteFullText {
    /// The hits come first: `FROM (the MATCH) CROSS JOIN library_items`. With the items first,
    /// SQLite's planner walked the owner's items and ran the full-text query once per item.
    fn restrict(&self, select: &mut SelectStatement, query: &SearchQuery) {
        if let Some(positive) = query.fts5_positive() {
            // bm25 weighs a title hit 10 and a tag hit 5 times a text hit. SQLite flattens this
            // subquery, so the rank is computed only for the rows a query selects it for.
            let hits = Query::select()
                .expr_as(Expr::cust("rowid"), Alias::new("fts_rowid"))
                .expr_as(
                    Expr::cust("bm25(library_fts, 10.0, 5.0, 1.0)"),
                    Alias::new("fts_rank"),
                )
                .from(Alias::new("library_fts"))
                .and_where(Expr::cust_with_values("library_fts MATCH ?", [positive]))
                .to_owned();
            select
                .from_clear()
                .from_subquery(hits, Alias::new("hits"))
                .join(
                    JoinType::CrossJoin,
                    Alias::new("library_items"),
                    Expr::cust("hits.fts_rowid = library_items.seq"),
                )
                // sea-query writes a CROSS JOIN without its ON.
                .and_where(Expr::cust("hits.fts_rowid = library_items.seq"));
        } else if let Some(excluded) = query.fts5_excluded_any() {
            select.and_where(Expr::cust_with_values(
                "library_items.seq NOT IN (SELECT rowid FROM library_fts WHERE library_fts MATCH ?)",
                [excluded],
            ));
        }
    }

    /// FTS5 yields hits in rowid order, and a rowid is the item's `seq`: newest first with no
    /// sort, so the window stops after its first thousand.
    fn newest_first(&self) -> SimpleExpr {
        Expr::cust("hits.fts_rowid")
    }

    /// bm25 is smaller for better matches; computed as FTS5 walks the window's hits (a
    /// separate `rowid IN (…)` query would run the MATCH once per listed rowid), so SQLite
    /// keeps the trait's empty `ranks`.
    fn window_rank(&self) -> Option<SimpleExpr> {
        Some(Expr::cust("(0 - hits.fts_rank)"))
    }

    async fn snippets(
        &self,
        db: &DatabaseConnection,
        query: &SearchQuery,
        seqs: &[i64],
    ) -> Result<HashMap<i64, (String, String)>, DbErr> {
        let Some(positive) = query.fts5_positive() else {
            return Ok(HashMap::new());
        };
        if seqs.is_empty() {
            return Ok(HashMap::new());
        }
        let sql = format!(
            "SELECT rowid AS seq, \
             highlight(library_fts, 0, char(57344), char(57345)) AS title, \
             snippet(library_fts, 2, char(57344), char(57345), '…', 24) AS snippet \
             FROM library_fts WHERE library_fts MATCH ? AND rowid IN ({})",
            id_list(seqs)
        );
        let rows = SnippetRow::find_by_statement(Statement::from_sql_and_values(
            sea_orm::DatabaseBackend::Sqlite,
            sql,
            [positive.into()],
        ))
        .all(db)
        .await?;
        Ok(rows
            .into_iter()
            .map(|row| {
                (
                    row.seq,
                    (
                        row.title.unwrap_or_default(),
                        row.snippet.unwrap_or_default(),
                    ),
                )
            })
            .collect())
    }
}
