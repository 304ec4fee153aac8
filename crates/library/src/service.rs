//! The Vault's domain logic. No transport types here: the gRPC adapter translates.

use chrono::{DateTime, Datelike as _, Utc};
use scribevault_core::UserId;
use sea_orm::sea_query::OnConflict;
use sea_orm::{
    ActiveModelTrait as _, ColumnTrait as _, DatabaseConnection, EntityTrait as _,
    IntoActiveModel as _, PaginatorTrait as _, QueryFilter as _, QueryOrder as _, QuerySelect as _,
    Set,
};
use sea_orm_migration::MigratorTrait as _;

use crate::entity::library_item::{self, Column, Entity as LibraryItem};
use crate::error::LibraryError;
use crate::migration::Migrator;

/// Largest page a client may ask for.
pub const MAX_PAGE_SIZE: u32 = 100;
/// Page size when the client does not say.
pub const DEFAULT_PAGE_SIZE: u32 = 20;

/// The Vault of every user, each scoped to its owner.
#[derive(Clone)]
pub struct Library {
    db: DatabaseConnection,
}

/// One page of a user's items.
pub struct TranscriptPage {
    /// The items on this page.
    pub items: Vec<library_item::Model>,
    /// 1-based page number.
    pub page: u32,
    /// Page size used.
    pub limit: u32,
    /// Items in total.
    pub total: u64,
    /// Whether a later page exists.
    pub has_more: bool,
}

/// What a producer hands over to become a Vault item.
pub struct NewLibraryItem {
    /// Idempotency key: one item per (user, source).
    pub source_ref: String,
    /// Shown in lists.
    pub title: String,
    /// `AUDIO`, `PDF`, …
    pub source_type: String,
    /// The text.
    pub content: String,
    /// Audio length, when known.
    pub duration_seconds: Option<f64>,
    /// When the item was made; now when unknown.
    pub created_at: Option<DateTime<Utc>>,
}

/// The result of an ingest.
pub struct IngestedTranscript {
    /// The item (new or the one that already existed).
    pub item: library_item::Model,
    /// False when it existed already (a redelivery).
    pub created: bool,
}

/// Sort keys the list accepts.
fn sort_column(sort_by: &str) -> Result<Column, LibraryError> {
    match sort_by {
        "" | "createdAt" => Ok(Column::CreatedAt),
        "title" => Ok(Column::Title),
        "rating" => Ok(Column::Rating),
        other => Err(LibraryError::InvalidArgument(format!(
            "cannot sort by {other:?}"
        ))),
    }
}

impl Library {
    /// Applies the library's migrations and returns the service.
    ///
    /// # Errors
    /// The migrations fail.
    pub async fn start(db: DatabaseConnection) -> Result<Self, LibraryError> {
        Migrator::up(&db, None).await?;
        Ok(Self { db })
    }

    /// Whether the database answers (for readiness).
    ///
    /// # Errors
    /// The database is unreachable.
    pub async fn check_ready(&self) -> Result<(), LibraryError> {
        self.db.ping().await.map_err(LibraryError::from)
    }

    /// A page of the caller's items, newest first unless asked otherwise.
    ///
    /// # Errors
    /// Unknown sort key or sort order, or a database failure.
    pub async fn list(
        &self,
        user: &UserId,
        page: u32,
        limit: u32,
        sort_by: &str,
        sort_order: &str,
    ) -> Result<TranscriptPage, LibraryError> {
        let page = page.max(1);
        let limit = if limit == 0 {
            DEFAULT_PAGE_SIZE
        } else {
            limit.min(MAX_PAGE_SIZE)
        };
        let column = sort_column(sort_by)?;
        let order = match sort_order {
            "" | "desc" => sea_orm::Order::Desc,
            "asc" => sea_orm::Order::Asc,
            other => {
                return Err(LibraryError::InvalidArgument(format!(
                    "sortOrder must be asc or desc, not {other:?}"
                )));
            }
        };
        let owned = LibraryItem::find().filter(Column::UserId.eq(user.as_str()));
        let total = owned.clone().count(&self.db).await?;
        let items = owned
            .order_by(column, order.clone())
            .order_by(Column::Id, order)
            .offset(u64::from(page - 1) * u64::from(limit))
            .limit(u64::from(limit))
            .all(&self.db)
            .await?;
        let has_more = u64::from(page) * u64::from(limit) < total;
        Ok(TranscriptPage {
            items,
            page,
            limit,
            total,
            has_more,
        })
    }

    /// One of the caller's items.
    ///
    /// # Errors
    /// [`LibraryError::NotFound`] when the id is unknown or belongs to another user.
    pub async fn get(&self, user: &UserId, id: &str) -> Result<library_item::Model, LibraryError> {
        LibraryItem::find_by_id(id.to_owned())
            .filter(Column::UserId.eq(user.as_str()))
            .one(&self.db)
            .await?
            .ok_or(LibraryError::NotFound)
    }

    /// Makes `item` a Vault item of `user`, once: a second call with the same `source_ref`
    /// returns the existing item.
    ///
    /// # Errors
    /// Validation or database failures.
    pub async fn ingest(
        &self,
        user: &UserId,
        item: NewLibraryItem,
    ) -> Result<IngestedTranscript, LibraryError> {
        if item.source_ref.is_empty() {
            return Err(LibraryError::InvalidArgument(
                "source reference is required".into(),
            ));
        }
        let title = if item.title.trim().is_empty() {
            "Untitled".to_owned()
        } else {
            item.title.trim().to_owned()
        };
        let row = library_item::ActiveModel {
            id: Set(uuid::Uuid::now_v7().to_string()),
            user_id: Set(user.as_str().to_owned()),
            source_ref: Set(item.source_ref.clone()),
            title: Set(title),
            author: Set(String::new()),
            content: Set(item.content),
            source_type: Set(if item.source_type.is_empty() {
                "AUDIO".into()
            } else {
                item.source_type
            }),
            rating: Set(None),
            is_starred: Set(false),
            tags: Set("[]".into()),
            gwth_level: Set(None),
            duration_seconds: Set(item.duration_seconds),
            created_at: Set(item.created_at.unwrap_or_else(Utc::now)),
            last_exported: Set(None),
        };
        let inserted = LibraryItem::insert(row)
            .on_conflict(
                OnConflict::columns([Column::UserId, Column::SourceRef])
                    .do_nothing()
                    .to_owned(),
            )
            .exec_without_returning(&self.db)
            .await?;
        let existing = LibraryItem::find()
            .filter(Column::UserId.eq(user.as_str()))
            .filter(Column::SourceRef.eq(item.source_ref))
            .one(&self.db)
            .await?
            .ok_or_else(|| {
                LibraryError::Database(sea_orm::DbErr::RecordNotFound("ingested item".into()))
            })?;
        Ok(IngestedTranscript {
            item: existing,
            created: inserted > 0,
        })
    }

    /// Sets the caller's rating (1–5) of an item.
    ///
    /// # Errors
    /// Out-of-range rating, unknown item, database failure.
    pub async fn rate(
        &self,
        user: &UserId,
        id: &str,
        rating: i32,
    ) -> Result<library_item::Model, LibraryError> {
        if !(1..=5).contains(&rating) {
            return Err(LibraryError::InvalidArgument(
                "rating must be between 1 and 5".into(),
            ));
        }
        let mut item = self.get(user, id).await?.into_active_model();
        item.rating = Set(Some(rating));
        Ok(item.update(&self.db).await?)
    }

    /// Replaces an item's text.
    ///
    /// # Errors
    /// Unknown item or database failure.
    pub async fn update_content(
        &self,
        user: &UserId,
        id: &str,
        content: String,
    ) -> Result<library_item::Model, LibraryError> {
        let mut item = self.get(user, id).await?.into_active_model();
        item.content = Set(content);
        Ok(item.update(&self.db).await?)
    }

    /// Deletes one of the caller's items.
    ///
    /// # Errors
    /// Unknown item or database failure.
    pub async fn delete(&self, user: &UserId, id: &str) -> Result<(), LibraryError> {
        let result = LibraryItem::delete_many()
            .filter(Column::Id.eq(id))
            .filter(Column::UserId.eq(user.as_str()))
            .exec(&self.db)
            .await?;
        if result.rows_affected == 0 {
            return Err(LibraryError::NotFound);
        }
        Ok(())
    }

    /// Counts for the stats cards. `this_month` counts items created since the first of the
    /// current month (UTC).
    ///
    /// # Errors
    /// Database failure.
    pub async fn stats(&self, user: &UserId) -> Result<LibraryStats, LibraryError> {
        let items = LibraryItem::find()
            .filter(Column::UserId.eq(user.as_str()))
            .all(&self.db)
            .await?;
        let now = Utc::now();
        let rated: Vec<i32> = items.iter().filter_map(|item| item.rating).collect();
        Ok(LibraryStats {
            total_transcripts: items.len() as u64,
            total_duration: items.iter().filter_map(|item| item.duration_seconds).sum(),
            storage_used: items.iter().map(|item| item.content.len() as u64).sum(),
            avg_rating: if rated.is_empty() {
                0.0
            } else {
                f64::from(rated.iter().sum::<i32>()) / rated.len() as f64
            },
            this_month: items
                .iter()
                .filter(|item| {
                    item.created_at.year() == now.year() && item.created_at.month() == now.month()
                })
                .count() as u64,
            total_exported: items
                .iter()
                .filter(|item| item.last_exported.is_some())
                .count() as u64,
            top_rated_count: rated.iter().filter(|rating| **rating >= 4).count() as u64,
        })
    }
}

/// Figures for the Vault's stats cards.
pub struct LibraryStats {
    pub total_transcripts: u64,
    pub total_duration: f64,
    pub storage_used: u64,
    pub avg_rating: f64,
    pub this_month: u64,
    pub total_exported: u64,
    pub top_rated_count: u64,
}
