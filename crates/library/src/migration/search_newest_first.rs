//! PostgreSQL's full-text index also holds each item's `seq` (ADR 0016), so a search can ask
//! for the matches among the newest items and have the index answer it without reading the
//! rows of older matches. A GIN index holds a `bigint` through `btree_gin`, a contrib extension
//! that PostgreSQL (13 and later) lets a database's owner create. The column is `seq + 0`, an
//! expression no other index has, so the planner cannot take the range from the primary key
//! and then test each item's `tsvector` instead. SQLite's FTS5 walks its hits by rowid already.

use sea_orm::{ConnectionTrait as _, DatabaseBackend};
use sea_orm_migration::prelude::*;

pub struct SearchNewestFirst;

impl MigrationName for SearchNewestFirst {
    fn name(&self) -> &'static str {
        "m20261124_000004_search_newest_first"
    }
}

#[async_trait::async_trait]
impl MigrationTrait for SearchNewestFirst {
    /// `SET LOCAL` holds for the transaction only.
    fn use_transaction(&self) -> Option<bool> {
        Some(true)
    }

    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        if manager.get_database_backend() != DatabaseBackend::Postgres {
            return Ok(());
        }
        let db = manager.get_connection();
        // The build reads every item's `tsvector`: 47–57 s for 100,000 items of 2,000 words
        // with this much memory (the default 64 MB spills to disk). Migrations run at start,
        // so the library's startup probe allows for it (k8s/base/library/deployment.yaml).
        for statement in [
            "SET LOCAL maintenance_work_mem = '256MB'",
            "CREATE EXTENSION IF NOT EXISTS btree_gin",
            "CREATE INDEX IF NOT EXISTS library_items_search_seq \
             ON library_items USING GIN (search_tsv, (seq + 0))",
            "DROP INDEX IF EXISTS library_items_search",
        ] {
            db.execute_unprepared(statement).await?;
        }
        Ok(())
    }
}
