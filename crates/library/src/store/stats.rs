//! The stats cards' figures as SQL aggregates: one grouped pass over the covering index
//! `library_items_user_figures`, which never reads an item's text.

use std::collections::BTreeMap;

use chrono::{DateTime, Datelike as _, TimeZone as _, Utc};
use sea_orm::sea_query::{Alias, Expr, ExprTrait as _, Query, SelectStatement};
use sea_orm::{DbErr, FromQueryResult};

use super::LibraryStore;
use crate::domain::{Distributions, ExportStats, LibraryStats, TOP_RATED_FROM, TOP_SCORE};
use crate::entity::library_item::{Column, Entity as Items};

/// One group of the user's items: the same source type, growth level and rating.
#[derive(FromQueryResult)]
struct FiguresRow {
    source_type: String,
    gwth_level: Option<i32>,
    rating: Option<i32>,
    total: i64,
    duration: Option<f64>,
    bytes: Option<i64>,
    this_month: Option<i64>,
    exported: Option<i64>,
}

fn count(value: Option<i64>) -> u64 {
    value
        .and_then(|value| u64::try_from(value).ok())
        .unwrap_or(0)
}

/// 1–5 with zero counts, so charts have every bar.
fn every_score() -> BTreeMap<String, u64> {
    (1..=TOP_SCORE)
        .map(|score| (score.to_string(), 0))
        .collect()
}

impl LibraryStore {
    /// The user's stats, from one pass over the covering index `library_items_user_figures`:
    /// the items grouped by source type, growth level and rating (a few dozen groups), each
    /// figure then added up here. `this_month` counts items created since the first of `now`'s
    /// month (UTC).
    ///
    /// # Errors
    /// Database failure.
    pub async fn stats(&self, user_id: &str, now: DateTime<Utc>) -> Result<LibraryStats, DbErr> {
        let month_start = Utc
            .with_ymd_and_hms(now.year(), now.month(), 1, 0, 0, 0)
            .single()
            .unwrap_or(now);
        // sea-query's custom expressions take `$1` on PostgreSQL and `?` elsewhere.
        let placeholder = match self.db.get_database_backend() {
            sea_orm::DatabaseBackend::Postgres => "$1",
            _ => "?",
        };
        let select = figures_query(user_id, month_start, placeholder);
        let groups = Self::rows::<FiguresRow>(&self.db, &select).await?;
        let mut totals = Totals::default();
        for group in groups {
            totals.add(group);
        }
        Ok(totals.stats())
    }
}

/// The grouped pass: per source type, growth level and rating, the items, their length, their
/// text's bytes, how many were made since `month_start` and how many were exported.
fn figures_query(user_id: &str, month_start: DateTime<Utc>, placeholder: &str) -> SelectStatement {
    Query::select()
        .columns([Column::SourceType, Column::GwthLevel, Column::Rating])
        .expr_as(Expr::cust("COUNT(*)"), Alias::new("total"))
        .expr_as(Expr::cust("SUM(duration_seconds)"), Alias::new("duration"))
        .expr_as(
            Expr::cust("CAST(SUM(content_bytes) AS BIGINT)"),
            Alias::new("bytes"),
        )
        .expr_as(
            Expr::cust_with_values(
                format!(
                    "CAST(SUM(CASE WHEN created_at >= {placeholder} THEN 1 ELSE 0 END) AS BIGINT)"
                ),
                [month_start],
            ),
            Alias::new("this_month"),
        )
        .expr_as(
            Expr::cust(
                "CAST(SUM(CASE WHEN last_exported IS NOT NULL THEN 1 ELSE 0 END) AS BIGINT)",
            ),
            Alias::new("exported"),
        )
        .from(Items)
        .and_where(Expr::col(Column::UserId).eq(user_id))
        .group_by_columns([Column::SourceType, Column::GwthLevel, Column::Rating])
        .to_owned()
}

/// The figures added up group by group, with what the average rating needs.
struct Totals {
    stats: LibraryStats,
    rated: u64,
    rating_sum: f64,
}

impl Default for Totals {
    fn default() -> Self {
        Self {
            stats: LibraryStats {
                meaning: None,
                total_transcripts: 0,
                total_duration: 0.0,
                storage_used: 0,
                avg_rating: 0.0,
                this_month: 0,
                export: ExportStats {
                    total_exported: 0,
                    top_rated_count: 0,
                    by_gwth_level: BTreeMap::new(),
                    by_source_type: BTreeMap::new(),
                },
                distributions: Distributions {
                    rating: every_score(),
                    gwth_level: every_score(),
                    source_type: BTreeMap::new(),
                },
            },
            rated: 0,
            rating_sum: 0.0,
        }
    }
}

impl Totals {
    fn add(&mut self, group: FiguresRow) {
        let stats = &mut self.stats;
        let total = count(Some(group.total));
        let exported = count(group.exported);
        stats.total_transcripts += total;
        stats.total_duration += group.duration.unwrap_or(0.0);
        stats.storage_used += count(group.bytes);
        stats.this_month += count(group.this_month);
        stats.export.total_exported += exported;
        *stats
            .distributions
            .source_type
            .entry(group.source_type.clone())
            .or_default() += total;
        if exported > 0 {
            *stats
                .export
                .by_source_type
                .entry(group.source_type)
                .or_default() += exported;
        }
        if let Some(level) = group.gwth_level {
            *stats
                .distributions
                .gwth_level
                .entry(level.to_string())
                .or_default() += total;
            if exported > 0 {
                *stats
                    .export
                    .by_gwth_level
                    .entry(level.to_string())
                    .or_default() += exported;
            }
        }
        if let Some(rating) = group.rating {
            self.rated += total;
            #[allow(clippy::cast_precision_loss)] // counts far below 2^52
            {
                self.rating_sum += f64::from(rating) * total as f64;
            }
            *stats
                .distributions
                .rating
                .entry(rating.to_string())
                .or_default() += total;
            if rating >= TOP_RATED_FROM {
                stats.export.top_rated_count += total;
            }
        }
    }

    fn stats(mut self) -> LibraryStats {
        if self.rated > 0 {
            #[allow(clippy::cast_precision_loss)]
            {
                self.stats.avg_rating = self.rating_sum / self.rated as f64;
            }
        }
        self.stats
    }
}
