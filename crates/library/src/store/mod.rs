//! Every query of the library, one module per table group. Rows come out as domain types; the
//! item text is read only by the calls that need it (content, export, suggestions), never by
//! lists or stats.

mod audio;
mod exports;
mod filters;
mod folder_export;
mod items;
mod listing;
mod meaning_listing;
mod retranscribe;
mod review;
mod sections;
mod stats;
mod suggestions;
mod tags;
mod user_data;
mod vectors;

use std::sync::Arc;

use sea_orm::sea_query::{Alias, Expr, Func, SelectStatement};
use sea_orm::{
    ConnectionTrait, DatabaseConnection, DbErr, FromQueryResult, StatementBuilder,
    TransactionTrait as _,
};
use sea_orm_migration::MigratorTrait as _;

use crate::migration::Migrator;
use crate::search::{FullTextIndex, index_for};

pub use audio::ItemAudio;
pub use exports::{ExportRecord, NewExport};
pub use items::{Edited, ItemText, StoredItem};
pub use listing::PageTotal;
pub use review::ReviewCleared;
pub use sections::ReorderRefusal;
pub use suggestions::Processed;
pub use vectors::{NearChunk, VectorSupport};

/// The library's tables and its search index.
#[derive(Clone)]
pub struct LibraryStore {
    db: DatabaseConnection,
    search: Arc<dyn FullTextIndex>,
    vectors: VectorSupport,
}

/// One `COUNT(*)`.
#[derive(FromQueryResult)]
struct CountRow {
    count: i64,
}

impl LibraryStore {
    /// The store over `db`, with the library's migrations applied.
    ///
    /// # Errors
    /// Migration failure.
    pub async fn open(db: DatabaseConnection) -> Result<Self, DbErr> {
        Migrator::up(&db, None).await?;
        let search = Arc::from(index_for(db.get_database_backend()));
        let vectors = vectors::prepare(&db).await;
        Ok(Self {
            db,
            search,
            vectors,
        })
    }

    /// A transaction that writes. On SQLite it is `BEGIN IMMEDIATE`: a deferred transaction
    /// that reads first and then writes cannot wait for another writer (SQLite refuses the
    /// upgrade at once with "database is locked" instead of calling its busy handler), while
    /// an immediate one takes the write lock up front and waits its turn.
    async fn write_transaction(&self) -> Result<sea_orm::DatabaseTransaction, DbErr> {
        self.db
            .begin_with_options(sea_orm::TransactionOptions {
                sqlite_transaction_mode: Some(sea_orm::SqliteTransactionMode::Immediate),
                ..sea_orm::TransactionOptions::default()
            })
            .await
    }

    /// Runs a select built with sea-query and reads its rows as `T`.
    async fn rows<T: FromQueryResult>(
        connection: &impl ConnectionTrait,
        select: &impl StatementBuilder,
    ) -> Result<Vec<T>, DbErr> {
        let statement = connection.get_database_backend().build(select);
        T::find_by_statement(statement).all(connection).await
    }

    /// `COUNT(*)` of a select's rows.
    async fn count(
        connection: &impl ConnectionTrait,
        mut select: SelectStatement,
    ) -> Result<u64, DbErr> {
        select
            .clear_selects()
            .expr_as(Func::count(Expr::cust("*")), Alias::new("count"));
        let rows: Vec<CountRow> = Self::rows(connection, &select).await?;
        Ok(rows
            .first()
            .map_or(0, |row| u64::try_from(row.count).unwrap_or(0)))
    }
}
