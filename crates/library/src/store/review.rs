//! 'Mark as reviewed': the owner has listened to what the quality guard flagged and corrected
//! what needed it, so the item stops asking for review. The review is dropped, not kept
//! beside a flag, because the `needsReview` filter is a NULL test on the column (see
//! `migration/review.rs`) and nothing reads a dismissed review.

use chrono::Utc;
use sea_orm::sea_query::Expr;
use sea_orm::{ColumnTrait as _, DbErr, EntityTrait as _, QueryFilter as _};

use super::LibraryStore;
use crate::domain::LibraryItem;
use crate::entity::library_item::{Column, Entity as Items};

/// What clearing a review found.
#[derive(Debug)]
pub enum ReviewCleared {
    /// The item needed review and no longer does.
    Cleared(LibraryItem),
    /// The item needed no review (never flagged, or cleared before): left as it was.
    AlreadyClear(LibraryItem),
}

impl LibraryStore {
    /// Sets the user's item's review to NULL. One conditional update (`review IS NOT NULL`),
    /// so a repeated or concurrent call changes nothing and tells the caller so. `None` when
    /// the user has no item `id`.
    ///
    /// # Errors
    /// Database failure.
    pub async fn clear_review(
        &self,
        user_id: &str,
        id: &str,
    ) -> Result<Option<ReviewCleared>, DbErr> {
        let updated = Items::update_many()
            .col_expr(Column::Review, Expr::value(Option::<String>::None))
            .col_expr(Column::UpdatedAt, Expr::value(Utc::now()))
            .filter(Column::UserId.eq(user_id))
            .filter(Column::Id.eq(id))
            .filter(Column::Review.is_not_null())
            .exec(&self.db)
            .await?;
        let Some(stored) = self.find(user_id, id).await? else {
            return Ok(None);
        };
        Ok(Some(if updated.rows_affected > 0 {
            ReviewCleared::Cleared(stored.item)
        } else {
            ReviewCleared::AlreadyClear(stored.item)
        }))
    }
}
