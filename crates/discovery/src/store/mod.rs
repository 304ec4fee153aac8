//! Every query of the discovery service, one module per concern: the channel and video cache
//! (`catalog.rs`), the quota ledger (`quota.rs`), sources (`sources.rs`), download jobs
//! (`downloads.rs`), schedules (`schedules.rs`), sync preferences (`preferences.rs`) and an
//! account's data (`user_data.rs`). Rows come out as domain types.

use sea_orm::{DatabaseConnection, DbErr};
use sea_orm_migration::MigratorTrait as _;

use crate::domain::{Source, SourceKind, Video};
use crate::entity::{source, video};
use crate::migration::Migrator;

mod catalog;
mod downloads;
mod preferences;
mod quota;
mod schedules;
mod sources;
mod user_data;

pub use catalog::CachedChannel;
pub use downloads::{Cancelled, JobGuard, JobUpdate};

/// Rows one statement inserts at most (SQLite's bound-parameter limit is 32,766).
pub(crate) const INSERT_CHUNK: usize = 500;

/// The discovery service's tables.
#[derive(Clone)]
pub struct DiscoveryStore {
    pub(crate) db: DatabaseConnection,
}

fn video_from_row(row: video::Model) -> Video {
    Video {
        youtube_video_id: row.id,
        title: row.title,
        channel_id: row.channel_id,
        channel_title: row.channel_title,
        duration_seconds: u64::try_from(row.duration_seconds).unwrap_or(0),
        published_at: row.published_at,
    }
}

pub(crate) fn source_from_row(row: source::Model) -> Result<Source, DbErr> {
    let kind = SourceKind::parse(&row.kind)
        .ok_or_else(|| DbErr::Type(format!("source {}: unknown kind {}", row.id, row.kind)))?;
    Ok(Source {
        id: row.id,
        user_id: row.user_id,
        kind,
        list_id: row.list_id,
        playlist_id: row.playlist_id,
        url: row.url,
        title: row.title,
        thumbnail_url: row.thumbnail_url,
        created_at: row.created_at,
    })
}

fn to_i64(value: u64) -> i64 {
    i64::try_from(value).unwrap_or(i64::MAX)
}

impl DiscoveryStore {
    /// The store over `db`, with the discovery migrations applied.
    ///
    /// # Errors
    /// Migration failure.
    pub async fn open(db: DatabaseConnection) -> Result<Self, DbErr> {
        Migrator::up(&db, None).await?;
        Ok(Self { db })
    }
}
