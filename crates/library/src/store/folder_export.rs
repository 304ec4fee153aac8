//! The reads of the folder export (`scribevault export`): every item of one user, a batch at a
//! time in `seq` order, so a Vault of any size is walked with one batch in memory.

use std::collections::HashMap;

use chrono::{DateTime, Utc};
use sea_orm::sea_query::{Expr, ExprTrait as _, Order};
use sea_orm::{ColumnTrait as _, DbErr, EntityTrait as _, QueryFilter as _, QuerySelect as _};

use super::items::{ItemRow, row_select};
use super::{LibraryStore, StoredItem};
use crate::entity::library_item::{Column, Entity as Items};

impl LibraryStore {
    /// Up to `limit` of `user_id`'s items with a `seq` above `after_seq`, in `seq` order.
    ///
    /// # Errors
    /// Database failure.
    pub async fn items_after(
        &self,
        user_id: &str,
        after_seq: i64,
        limit: u64,
    ) -> Result<Vec<StoredItem>, DbErr> {
        let select = row_select()
            .and_where(Expr::col((Items, Column::UserId)).eq(user_id))
            .and_where(Expr::col((Items, Column::Seq)).gt(after_seq))
            .order_by((Items, Column::Seq), Order::Asc)
            .limit(limit)
            .to_owned();
        let rows: Vec<ItemRow> = Self::rows(&self.db, &select).await?;
        Self::with_tags(&self.db, rows).await
    }

    /// When each of `seqs` was last edited (metadata or text), which the domain's item does not
    /// carry because no screen shows it.
    ///
    /// # Errors
    /// Database failure.
    pub async fn updated_at_of(
        &self,
        user_id: &str,
        seqs: &[i64],
    ) -> Result<HashMap<i64, DateTime<Utc>>, DbErr> {
        if seqs.is_empty() {
            return Ok(HashMap::new());
        }
        let rows: Vec<(i64, DateTime<Utc>)> = Items::find()
            .select_only()
            .column(Column::Seq)
            .column(Column::UpdatedAt)
            .filter(Column::UserId.eq(user_id))
            .filter(Column::Seq.is_in(seqs.iter().copied()))
            .into_tuple()
            .all(&self.db)
            .await?;
        Ok(rows.into_iter().collect())
    }
}
