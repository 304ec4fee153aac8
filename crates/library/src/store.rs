//! Every query of the library. Rows come out as domain types; the tag column's JSON is read
//! here, and a row that does not hold a JSON array is an error, not an empty list.

use chrono::{DateTime, Datelike as _, TimeZone as _, Utc};
use sea_orm::sea_query::{Expr, OnConflict};
use sea_orm::{
    ActiveModelTrait as _, ColumnTrait as _, DatabaseBackend, DatabaseConnection, DbErr,
    EntityTrait as _, FromQueryResult, IntoActiveModel as _, PaginatorTrait as _, QueryFilter as _,
    QueryOrder as _, QuerySelect as _, Set,
};
use sea_orm_migration::MigratorTrait as _;

use crate::domain::{LibraryItem, LibraryStats, NewLibraryItem, PageRequest, SortKey, SortOrder};
use crate::entity::library_item::{self, Column, Entity as Items};
use crate::migration::Migrator;

/// The library's tables.
#[derive(Clone)]
pub struct LibraryStore {
    db: DatabaseConnection,
}

fn item_from_row(row: library_item::Model) -> Result<LibraryItem, DbErr> {
    let tags: Vec<String> = serde_json::from_str(&row.tags).map_err(|error| {
        DbErr::Type(format!(
            "item {}: tags are not a JSON list: {error}",
            row.id
        ))
    })?;
    Ok(LibraryItem {
        id: row.id,
        user_id: row.user_id,
        source_ref: row.source_ref,
        title: row.title,
        author: row.author,
        source_type: row.source_type,
        rating: row.rating,
        is_starred: row.is_starred,
        tags,
        gwth_level: row.gwth_level,
        duration_seconds: row.duration_seconds,
        created_at: row.created_at,
        last_exported: row.last_exported,
    })
}

/// The columns the stats need, without the content itself.
#[derive(Debug, FromQueryResult)]
struct StatsRow {
    rating: Option<i32>,
    duration_seconds: Option<f64>,
    created_at: DateTime<Utc>,
    last_exported: Option<DateTime<Utc>>,
    content_bytes: Option<i64>,
}

impl LibraryStore {
    /// The store over `db`, with the library's migrations applied.
    ///
    /// # Errors
    /// Migration failure.
    pub async fn open(db: DatabaseConnection) -> Result<Self, DbErr> {
        Migrator::up(&db, None).await?;
        Ok(Self { db })
    }

    /// One page of the user's items and how many there are in all.
    ///
    /// # Errors
    /// Database failure.
    pub async fn page(
        &self,
        user_id: &str,
        request: PageRequest,
    ) -> Result<(Vec<LibraryItem>, u64), DbErr> {
        let column = match request.sort {
            SortKey::CreatedAt => Column::CreatedAt,
            SortKey::Title => Column::Title,
            SortKey::Rating => Column::Rating,
        };
        let order = match request.order {
            SortOrder::Asc => sea_orm::Order::Asc,
            SortOrder::Desc => sea_orm::Order::Desc,
        };
        let owned = Items::find().filter(Column::UserId.eq(user_id));
        let total = owned.clone().count(&self.db).await?;
        let rows = owned
            .order_by(column, order.clone())
            .order_by(Column::Id, order)
            .offset(request.offset())
            .limit(u64::from(request.limit))
            .all(&self.db)
            .await?;
        let items = rows
            .into_iter()
            .map(item_from_row)
            .collect::<Result<_, _>>()?;
        Ok((items, total))
    }

    async fn row(&self, user_id: &str, id: &str) -> Result<Option<library_item::Model>, DbErr> {
        Items::find_by_id(id.to_owned())
            .filter(Column::UserId.eq(user_id))
            .one(&self.db)
            .await
    }

    /// One of the user's items' text.
    ///
    /// # Errors
    /// Database failure.
    pub async fn content(&self, user_id: &str, id: &str) -> Result<Option<String>, DbErr> {
        Ok(self.row(user_id, id).await?.map(|row| row.content))
    }

    /// Inserts the item unless the user has one from the same source. Returns the item that is
    /// there now and whether this call created it.
    ///
    /// # Errors
    /// Database failure.
    pub async fn insert_once(
        &self,
        user_id: &str,
        item: NewLibraryItem,
    ) -> Result<(LibraryItem, bool), DbErr> {
        let row = library_item::ActiveModel {
            id: Set(uuid::Uuid::now_v7().to_string()),
            user_id: Set(user_id.to_owned()),
            source_ref: Set(item.source_ref.clone()),
            title: Set(item.title),
            author: Set(String::new()),
            content: Set(item.content),
            source_type: Set(item.source_type),
            rating: Set(None),
            is_starred: Set(false),
            tags: Set("[]".into()),
            gwth_level: Set(None),
            duration_seconds: Set(item.duration_seconds),
            created_at: Set(item.created_at.unwrap_or_else(Utc::now)),
            last_exported: Set(None),
        };
        let inserted = Items::insert(row)
            .on_conflict(
                OnConflict::columns([Column::UserId, Column::SourceRef])
                    .do_nothing()
                    .to_owned(),
            )
            .exec_without_returning(&self.db)
            .await?;
        let existing = Items::find()
            .filter(Column::UserId.eq(user_id))
            .filter(Column::SourceRef.eq(item.source_ref))
            .one(&self.db)
            .await?
            .ok_or_else(|| DbErr::RecordNotFound("ingested item".into()))?;
        Ok((item_from_row(existing)?, inserted > 0))
    }

    /// Sets an item's rating. `None` when the user has no such item.
    ///
    /// # Errors
    /// Database failure.
    pub async fn set_rating(
        &self,
        user_id: &str,
        id: &str,
        rating: i32,
    ) -> Result<Option<LibraryItem>, DbErr> {
        let Some(row) = self.row(user_id, id).await? else {
            return Ok(None);
        };
        let mut row = row.into_active_model();
        row.rating = Set(Some(rating));
        item_from_row(row.update(&self.db).await?).map(Some)
    }

    /// Replaces an item's text. `None` when the user has no such item.
    ///
    /// # Errors
    /// Database failure.
    pub async fn set_content(
        &self,
        user_id: &str,
        id: &str,
        content: String,
    ) -> Result<Option<LibraryItem>, DbErr> {
        let Some(row) = self.row(user_id, id).await? else {
            return Ok(None);
        };
        let mut row = row.into_active_model();
        row.content = Set(content);
        item_from_row(row.update(&self.db).await?).map(Some)
    }

    /// Deletes one of the user's items. Returns whether there was one.
    ///
    /// # Errors
    /// Database failure.
    pub async fn delete(&self, user_id: &str, id: &str) -> Result<bool, DbErr> {
        let result = Items::delete_many()
            .filter(Column::Id.eq(id))
            .filter(Column::UserId.eq(user_id))
            .exec(&self.db)
            .await?;
        Ok(result.rows_affected > 0)
    }

    /// The stats cards' figures, read without loading any item's text. `this_month` counts
    /// items created since the first of the current month (UTC).
    ///
    /// # Errors
    /// Database failure.
    pub async fn stats(&self, user_id: &str, now: DateTime<Utc>) -> Result<LibraryStats, DbErr> {
        let content_bytes = match self.db.get_database_backend() {
            DatabaseBackend::Postgres => "OCTET_LENGTH(content)",
            _ => "LENGTH(CAST(content AS BLOB))",
        };
        let rows = Items::find()
            .select_only()
            .column(Column::Rating)
            .column(Column::DurationSeconds)
            .column(Column::CreatedAt)
            .column(Column::LastExported)
            .column_as(Expr::cust(content_bytes), "content_bytes")
            .filter(Column::UserId.eq(user_id))
            .into_model::<StatsRow>()
            .all(&self.db)
            .await?;
        let month_start = Utc
            .with_ymd_and_hms(now.year(), now.month(), 1, 0, 0, 0)
            .single()
            .unwrap_or(now);
        let rated: Vec<i32> = rows.iter().filter_map(|row| row.rating).collect();
        Ok(LibraryStats {
            total_transcripts: rows.len() as u64,
            total_duration: rows.iter().filter_map(|row| row.duration_seconds).sum(),
            storage_used: rows
                .iter()
                .filter_map(|row| row.content_bytes)
                .map(|bytes| u64::try_from(bytes).unwrap_or(0))
                .sum(),
            avg_rating: if rated.is_empty() {
                0.0
            } else {
                f64::from(rated.iter().sum::<i32>()) / rated.len() as f64
            },
            this_month: rows
                .iter()
                .filter(|row| row.created_at >= month_start)
                .count() as u64,
            total_exported: rows
                .iter()
                .filter(|row| row.last_exported.is_some())
                .count() as u64,
            top_rated_count: rated.iter().filter(|rating| **rating >= 4).count() as u64,
        })
    }
}
