//! Exports: what a signed link points at. The file is made when the link is followed, from the
//! items as they are then; deleting an item takes it out of every export.

use chrono::{DateTime, Utc};
use sea_orm::sea_query::Order;
use sea_orm::{ColumnTrait as _, DbErr, EntityTrait as _, QueryFilter as _, QueryOrder as _, Set};

use super::{LibraryStore, StoredItem};
use crate::entity::library_export::{self, Column, Entity as Exports};
use crate::entity::library_export_item::{self, Column as ItemColumn, Entity as ExportItems};

/// An export to record.
#[derive(Debug, Clone)]
pub struct NewExport {
    pub format: String,
    pub bundle: bool,
    pub filename: String,
    pub expires_at: DateTime<Utc>,
    pub seqs: Vec<i64>,
}

/// A recorded export.
#[derive(Debug, Clone)]
pub struct ExportRecord {
    pub id: String,
    pub user_id: String,
    pub format: String,
    pub bundle: bool,
    pub filename: String,
    pub expires_at: DateTime<Utc>,
}

impl LibraryStore {
    /// Records an export and drops the user's expired ones.
    ///
    /// # Errors
    /// Database failure.
    pub async fn create_export(
        &self,
        user_id: &str,
        export: NewExport,
        now: DateTime<Utc>,
    ) -> Result<ExportRecord, DbErr> {
        let transaction = self.write_transaction().await?;
        let expired: Vec<String> = Exports::find()
            .filter(Column::UserId.eq(user_id))
            .filter(Column::ExpiresAt.lt(now))
            .all(&transaction)
            .await?
            .into_iter()
            .map(|row| row.id)
            .collect();
        if !expired.is_empty() {
            ExportItems::delete_many()
                .filter(ItemColumn::ExportId.is_in(expired.clone()))
                .exec(&transaction)
                .await?;
            Exports::delete_many()
                .filter(Column::Id.is_in(expired))
                .exec(&transaction)
                .await?;
        }
        let id = uuid::Uuid::new_v4().to_string();
        Exports::insert(library_export::ActiveModel {
            id: Set(id.clone()),
            user_id: Set(user_id.to_owned()),
            format: Set(export.format.clone()),
            bundle: Set(export.bundle),
            filename: Set(export.filename.clone()),
            created_at: Set(now),
            expires_at: Set(export.expires_at),
        })
        .exec_without_returning(&transaction)
        .await?;
        for (position, seq) in export.seqs.iter().enumerate() {
            ExportItems::insert(library_export_item::ActiveModel {
                export_id: Set(id.clone()),
                item_seq: Set(*seq),
                position: Set(i32::try_from(position).unwrap_or(i32::MAX)),
            })
            .exec_without_returning(&transaction)
            .await?;
        }
        transaction.commit().await?;
        Ok(ExportRecord {
            id,
            user_id: user_id.to_owned(),
            format: export.format,
            bundle: export.bundle,
            filename: export.filename,
            expires_at: export.expires_at,
        })
    }

    /// An export by id, whoever owns it: the caller has already checked the link's signature.
    ///
    /// # Errors
    /// Database failure.
    pub async fn export(&self, id: &str) -> Result<Option<ExportRecord>, DbErr> {
        Ok(Exports::find_by_id(id.to_owned())
            .one(&self.db)
            .await?
            .map(|row| ExportRecord {
                id: row.id,
                user_id: row.user_id,
                format: row.format,
                bundle: row.bundle,
                filename: row.filename,
                expires_at: row.expires_at,
            }))
    }

    /// The items still in an export, in export order.
    ///
    /// # Errors
    /// Database failure.
    pub async fn export_items(&self, export: &ExportRecord) -> Result<Vec<StoredItem>, DbErr> {
        let seqs: Vec<i64> = ExportItems::find()
            .filter(ItemColumn::ExportId.eq(export.id.as_str()))
            .order_by(ItemColumn::Position, Order::Asc)
            .all(&self.db)
            .await?
            .into_iter()
            .map(|row| row.item_seq)
            .collect();
        let mut items = Vec::with_capacity(seqs.len());
        for seq in seqs {
            if let Some(stored) = self.find_by_seq(&export.user_id, seq).await? {
                items.push(stored);
            }
        }
        Ok(items)
    }

    async fn find_by_seq(&self, user_id: &str, seq: i64) -> Result<Option<StoredItem>, DbErr> {
        Self::find_where(
            &self.db,
            user_id,
            crate::entity::library_item::Column::Seq,
            seq,
        )
        .await
    }
}
