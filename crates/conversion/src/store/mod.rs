//! Every query of the conversion service. Rows come out as domain types. The store's handle
//! is here; the users' templates in `templates.rs`, and the deletion of an account's rows in
//! `user_data.rs`.

mod templates;
mod user_data;

use sea_orm::{DatabaseConnection, DbErr};
use sea_orm_migration::MigratorTrait as _;

use crate::migration::Migrator;

pub use templates::TemplateWriteError;

/// Conversion's tables.
#[derive(Clone)]
pub struct ConversionStore {
    db: DatabaseConnection,
}

impl ConversionStore {
    /// The store over `db`, with conversion's migrations applied.
    ///
    /// # Errors
    /// Migration failure.
    pub async fn open(db: DatabaseConnection) -> Result<Self, DbErr> {
        Migrator::up(&db, None).await?;
        Ok(Self { db })
    }
}
