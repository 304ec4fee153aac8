//! The stats cards' figures as SQL aggregates: four queries over the covering index
//! `library_items_user_figures`, none of which reads an item's text.

use std::collections::BTreeMap;

use chrono::{DateTime, Datelike as _, TimeZone as _, Utc};
use sea_orm::sea_query::{Alias, Expr, ExprTrait as _, Query, SelectStatement};
use sea_orm::{DbErr, FromQueryResult};

use super::LibraryStore;
use crate::domain::{Distributions, ExportStats, LibraryStats, TOP_RATED_FROM, TOP_SCORE};
use crate::entity::library_item::{Column, Entity as Items};

#[derive(FromQueryResult)]
struct TotalsRow {
    total: i64,
    duration: Option<f64>,
    bytes: Option<i64>,
    avg_rating: Option<f64>,
    this_month: Option<i64>,
    exported: Option<i64>,
    top_rated: Option<i64>,
}

#[derive(FromQueryResult)]
struct GroupRow {
    key: Option<String>,
    total: i64,
    exported: Option<i64>,
}

fn count(value: Option<i64>) -> u64 {
    value
        .and_then(|value| u64::try_from(value).ok())
        .unwrap_or(0)
}

fn owned(user_id: &str) -> SelectStatement {
    Query::select()
        .from(Items)
        .and_where(Expr::col(Column::UserId).eq(user_id))
        .to_owned()
}

const EXPORTED: &str = "CAST(SUM(CASE WHEN last_exported IS NOT NULL THEN 1 ELSE 0 END) AS BIGINT)";

/// 1–5 with zero counts, so charts have every bar.
fn every_score() -> BTreeMap<String, u64> {
    (1..=TOP_SCORE)
        .map(|score| (score.to_string(), 0))
        .collect()
}

impl LibraryStore {
    /// The user's stats. `this_month` counts items created since the first of `now`'s month
    /// (UTC).
    ///
    /// # Errors
    /// Database failure.
    pub async fn stats(&self, user_id: &str, now: DateTime<Utc>) -> Result<LibraryStats, DbErr> {
        let month_start = Utc
            .with_ymd_and_hms(now.year(), now.month(), 1, 0, 0, 0)
            .single()
            .unwrap_or(now);
        // sea-query's custom expressions take `$1` on PostgreSQL and `?` elsewhere.
        let value = match self.db.get_database_backend() {
            sea_orm::DatabaseBackend::Postgres => "$1",
            _ => "?",
        };
        let totals = owned(user_id)
            .expr_as(Expr::cust("COUNT(*)"), Alias::new("total"))
            .expr_as(Expr::cust("SUM(duration_seconds)"), Alias::new("duration"))
            .expr_as(
                Expr::cust("CAST(SUM(content_bytes) AS BIGINT)"),
                Alias::new("bytes"),
            )
            .expr_as(
                Expr::cust("CAST(AVG(rating) AS DOUBLE PRECISION)"),
                Alias::new("avg_rating"),
            )
            .expr_as(
                Expr::cust_with_values(
                    format!(
                        "CAST(SUM(CASE WHEN created_at >= {value} THEN 1 ELSE 0 END) AS BIGINT)"
                    ),
                    [month_start],
                ),
                Alias::new("this_month"),
            )
            .expr_as(Expr::cust(EXPORTED), Alias::new("exported"))
            .expr_as(
                Expr::cust_with_values(
                    format!("CAST(SUM(CASE WHEN rating >= {value} THEN 1 ELSE 0 END) AS BIGINT)"),
                    [TOP_RATED_FROM],
                ),
                Alias::new("top_rated"),
            )
            .to_owned();
        let totals = Self::rows::<TotalsRow>(&self.db, &totals)
            .await?
            .pop()
            .ok_or_else(|| DbErr::RecordNotFound("stats".into()))?;

        let mut stats = LibraryStats {
            total_transcripts: count(Some(totals.total)),
            total_duration: totals.duration.unwrap_or(0.0),
            storage_used: count(totals.bytes),
            avg_rating: totals.avg_rating.unwrap_or(0.0),
            this_month: count(totals.this_month),
            export: ExportStats {
                total_exported: count(totals.exported),
                top_rated_count: count(totals.top_rated),
                by_gwth_level: BTreeMap::new(),
                by_source_type: BTreeMap::new(),
            },
            distributions: Distributions {
                rating: every_score(),
                gwth_level: every_score(),
                source_type: BTreeMap::new(),
            },
        };
        for (column, key) in [
            (Column::SourceType, "source_type"),
            (Column::GwthLevel, "CAST(gwth_level AS TEXT)"),
            (Column::Rating, "CAST(rating AS TEXT)"),
        ] {
            let select = owned(user_id)
                .expr_as(Expr::cust(key), Alias::new("key"))
                .expr_as(Expr::cust("COUNT(*)"), Alias::new("total"))
                .expr_as(Expr::cust(EXPORTED), Alias::new("exported"))
                .and_where(Expr::col(column).is_not_null())
                .group_by_col(column)
                .to_owned();
            for row in Self::rows::<GroupRow>(&self.db, &select).await? {
                let Some(key) = row.key else { continue };
                let exported = count(row.exported);
                let total = count(Some(row.total));
                match column {
                    Column::SourceType => {
                        stats.distributions.source_type.insert(key.clone(), total);
                        if exported > 0 {
                            stats.export.by_source_type.insert(key, exported);
                        }
                    }
                    Column::GwthLevel => {
                        stats.distributions.gwth_level.insert(key.clone(), total);
                        if exported > 0 {
                            stats.export.by_gwth_level.insert(key, exported);
                        }
                    }
                    _ => {
                        stats.distributions.rating.insert(key, total);
                    }
                }
            }
        }
        Ok(stats)
    }
}
