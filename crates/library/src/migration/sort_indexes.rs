//! Indexes that serve the list's sorts to the last page on PostgreSQL, where a `(user_id,
//! rating)` index cannot give "rating descending, unrated last" and the list then sorted every
//! item (the list p95 of the 100,000-item benchmark). SQLite's planner sorts the rated items
//! alone from the existing index; it gets nothing here.

use sea_orm::{ConnectionTrait as _, DatabaseBackend};
use sea_orm_migration::prelude::*;

pub struct SortIndexes;

impl MigrationName for SortIndexes {
    fn name(&self) -> &'static str {
        "m20261124_000003_sort_indexes"
    }
}

#[async_trait::async_trait]
impl MigrationTrait for SortIndexes {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        if manager.get_database_backend() != DatabaseBackend::Postgres {
            return Ok(());
        }
        let db = manager.get_connection();
        for statement in [
            "CREATE INDEX IF NOT EXISTS library_items_user_rating_desc \
             ON library_items (user_id, rating DESC NULLS LAST, seq DESC)",
            "CREATE INDEX IF NOT EXISTS library_items_user_rating_asc \
             ON library_items (user_id, rating ASC NULLS LAST, seq ASC)",
            "CREATE INDEX IF NOT EXISTS library_items_user_title_seq \
             ON library_items (user_id, title, seq)",
            "CREATE INDEX IF NOT EXISTS library_items_user_created_seq \
             ON library_items (user_id, created_at, seq)",
        ] {
            db.execute_unprepared(statement).await?;
        }
        Ok(())
    }
}
