//! Every query of the storage service. Rows come out as domain types. The store's handle is
//! here; the stored audio and the per-video MP3 registry in `audio.rs`, the users' policies in
//! `policies.rs`, and the deletion of an account's rows in `user_data.rs`.

mod audio;
mod policies;
mod user_data;

use sea_orm::{DatabaseConnection, DbErr};
use sea_orm_migration::MigratorTrait as _;

use crate::migration::Migrator;

/// Storage's tables.
#[derive(Clone)]
pub struct StorageStore {
    db: DatabaseConnection,
}

fn to_i64(size: u64) -> i64 {
    i64::try_from(size).unwrap_or(i64::MAX)
}

impl StorageStore {
    /// The store over `db`, with storage's migrations applied.
    ///
    /// # Errors
    /// Migration failure.
    pub async fn open(db: DatabaseConnection) -> Result<Self, DbErr> {
        Migrator::up(&db, None).await?;
        Ok(Self { db })
    }
}
