//! PostgreSQL: the generated, weighted `search_tsv` column with its GIN index (created by the
//! library's migration), `websearch_to_tsquery`, `ts_rank_cd`, and `ts_headline` run only on
//! the page of hits, since it re-parses each document.

use std::collections::HashMap;

use sea_orm::sea_query::{Expr, SelectStatement, SimpleExpr};
use sea_orm::{DatabaseConnection, DbErr, FromQueryResult, Statement};

use super::{FullTextIndex, SearchQuery};

pub struct PostgresFullText;

#[derive(FromQueryResult)]
struct RankRow {
    seq: i64,
    rank: f64,
}

#[derive(FromQueryResult)]
struct SnippetRow {
    seq: i64,
    title: Option<String>,
    snippet: Option<String>,
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
                "NOT (library_items.search_tsv @@ websearch_to_tsquery('english', $1))",
                [excluded],
            ));
        }
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
        let ids: Vec<String> = seqs.iter().map(i64::to_string).collect();
        let sql = format!(
            "SELECT i.seq, CAST(ts_rank_cd(i.search_tsv, q) AS DOUBLE PRECISION) AS rank \
             FROM library_items i, websearch_to_tsquery('english', $1) q WHERE i.seq IN ({})",
            ids.join(",")
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

    async fn snippets(
        &self,
        db: &DatabaseConnection,
        query: &SearchQuery,
        seqs: &[i64],
    ) -> Result<HashMap<i64, (String, String)>, DbErr> {
        let Some(positive) = query.websearch_positive() else {
            return Ok(HashMap::new());
        };
        if seqs.is_empty() {
            return Ok(HashMap::new());
        }
        let ids: Vec<String> = seqs.iter().map(i64::to_string).collect();
        let sql = format!(
            "SELECT i.seq, \
             ts_headline('english', i.title, q, format('StartSel=%s,StopSel=%s,HighlightAll=true', chr(57344), chr(57345))) AS title, \
             ts_headline('english', left(i.content, 400000), q, format('StartSel=%s,StopSel=%s,MaxWords=30,MinWords=12,MaxFragments=2,FragmentDelimiter=\" … \"', chr(57344), chr(57345))) AS snippet \
             FROM library_items i, websearch_to_tsquery('english', $1) q WHERE i.seq IN ({})",
            ids.join(",")
        );
        let rows = SnippetRow::find_by_statement(Statement::from_sql_and_values(
            sea_orm::DatabaseBackend::Postgres,
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
