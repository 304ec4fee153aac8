//! PostgreSQL: the generated, weighted `search_tsv` column with its GIN index over the column
//! and the item's `seq` (created by the library's migrations), `websearch_to_tsquery`, and
//! `ts_rank_cd` over the window of hits only (ADR 0016). Snippets are made in Rust
//! (`snippet.rs`).

use std::collections::HashMap;

use sea_orm::sea_query::{Expr, SelectStatement, SimpleExpr};
use sea_orm::{DatabaseConnection, DbErr, FromQueryResult, Statement};

use super::snippet::{Stems, fragments, highlight_all};
use super::{FullTextIndex, SearchQuery, id_list};

pub struct PostgresFullText;

#[derive(FromQueryResult)]
struct RankRow {
    seq: i64,
    rank: f64,
}

#[derive(FromQueryResult)]
struct TextRow {
    seq: i64,
    title: String,
    content: String,
}

#[async_trait::async_trait]
impl FullTextIndex for PostgresFullText {
    /// The required words go to the GIN index; excluded words are a `NOT IN` over their own
    /// index scan. Written as one tsquery with `!`, every candidate's `tsvector` would be read
    /// back from TOAST to recheck the exclusion.
    fn restrict(&self, select: &mut SelectStatement, query: &SearchQuery) {
        if let Some(required) = query.websearch_required() {
            select.and_where(Expr::cust_with_values(
                "library_items.search_tsv @@ websearch_to_tsquery('english', $1)",
                [required],
            ));
            if let Some(excluded) = query.websearch_excluded_any() {
                select.and_where(Expr::cust_with_values(
                    "library_items.seq NOT IN (SELECT x.seq FROM library_items x \
                     WHERE x.search_tsv @@ websearch_to_tsquery('english', $1))",
                    [excluded],
                ));
            }
        } else if let Some(excluded) = query.websearch_excluded_any() {
            select.and_where(Expr::cust_with_values(
                "library_items.seq NOT IN (SELECT x.seq FROM library_items x \
                 WHERE x.search_tsv @@ websearch_to_tsquery('english', $1))",
                [excluded],
            ));
        }
    }

    /// `seq + 0` is the second column of the GIN index `library_items_search_seq` (btree_gin),
    /// and no other index has it: the range can only be applied inside the full-text index
    /// scan, together with the words. On plain `seq`, the planner may instead take the range
    /// from the primary key and test every item in it against its `tsvector`.
    fn newer_than(&self, query: &SearchQuery, floor: i64) -> Option<SimpleExpr> {
        query
            .websearch_required()
            .map(|_| Expr::cust_with_values("library_items.seq + 0 > CAST($1 AS BIGINT)", [floor]))
    }

    fn newest_first(&self) -> SimpleExpr {
        Expr::cust("library_items.seq")
    }

    /// PostgreSQL would compute a target-list rank for every hit before the sort and limit.
    fn window_rank(&self) -> Option<SimpleExpr> {
        None
    }

    async fn ranks(
        &self,
        db: &DatabaseConnection,
        query: &SearchQuery,
        seqs: &[i64],
    ) -> Result<HashMap<i64, f64>, DbErr> {
        let Some(positive) = query.websearch_positive() else {
            return Ok(HashMap::new());
        };
        if seqs.is_empty() {
            return Ok(HashMap::new());
        }
        let sql = format!(
            "SELECT i.seq, CAST(ts_rank_cd(i.search_tsv, q) AS DOUBLE PRECISION) AS rank \
             FROM library_items i, websearch_to_tsquery('english', $1) q WHERE i.seq IN ({})",
            id_list(seqs)
        );
        let rows = RankRow::find_by_statement(Statement::from_sql_and_values(
            sea_orm::DatabaseBackend::Postgres,
            sql,
            [positive.into()],
        ))
        .all(db)
        .await?;
        Ok(rows.into_iter().map(|row| (row.seq, row.rank)).collect())
    }

    /// Built in Rust from the page's texts (`snippet.rs`): `ts_headline` re-parses each whole
    /// text, 23 ms for a page of 20 texts of 2,000 words.
    async fn snippets(
        &self,
        db: &DatabaseConnection,
        query: &SearchQuery,
        seqs: &[i64],
    ) -> Result<HashMap<i64, (String, String)>, DbErr> {
        if seqs.is_empty() || !query.has_positive_terms() {
            return Ok(HashMap::new());
        }
        let sql = format!(
            "SELECT seq, title, left(content, 400000) AS content FROM library_items WHERE seq IN ({})",
            id_list(seqs)
        );
        let rows = TextRow::find_by_statement(Statement::from_string(
            sea_orm::DatabaseBackend::Postgres,
            sql,
        ))
        .all(db)
        .await?;
        let stems = Stems::of(query);
        Ok(rows
            .into_iter()
            .map(|row| {
                (
                    row.seq,
                    (
                        highlight_all(&stems, &row.title),
                        fragments(&stems, &row.content),
                    ),
                )
            })
            .collect())
    }

    /// The planner does not cost reading a `tsvector` back from TOAST. Left alone it may walk
    /// the whole table, or the `seq` index backwards, and test each item's `tsvector` on the
    /// way: 18,000 of them for two words that are each common (185 ms, and a second for a
    /// sequential scan). With both off, the only plans left are bitmap scans, where the GIN
    /// index decides the matches and no `tsvector` is read: at most the heap rows of the
    /// matches are visited (26 ms for a word in 60% of 100,000 items).
    fn window_setting(&self) -> Option<&'static str> {
        Some("SET LOCAL enable_seqscan = off; SET LOCAL enable_indexscan = off")
    }
}
