//! What batch processing stores: each item's keywords and suggestions, and the ratings of the
//! items most like it.

use chrono::{DateTime, Utc};
use sea_orm::sea_query::Expr;
use sea_orm::sea_query::Order;
use sea_orm::{
    ActiveModelTrait as _, ColumnTrait as _, DbErr, EntityTrait as _, PaginatorTrait as _,
    QueryFilter as _, QueryOrder as _, QuerySelect as _, Set,
};

use super::LibraryStore;
use crate::domain::listing::{ItemFilter, ListQuery, SortKey, SortOrder};
use crate::entity::library_item::{self, Column, Entity as Items};
use crate::search::SearchQuery;

/// What processing found for one item.
#[derive(Debug, Clone)]
pub struct Processed {
    pub keywords: Vec<String>,
    pub suggested_tags: Vec<String>,
    pub suggested_rating: i32,
}

/// A rated item similar to another, best match first.
#[derive(Debug, Clone, Copy)]
pub struct SimilarRating {
    pub rating: i32,
}

impl LibraryStore {
    /// Ids of up to `limit` of the user's items not processed since they last changed, oldest
    /// first, and how many such items there are.
    ///
    /// # Errors
    /// Database failure.
    pub async fn unprocessed(
        &self,
        user_id: &str,
        limit: u64,
    ) -> Result<(Vec<String>, u64), DbErr> {
        let pending = Items::find()
            .filter(Column::UserId.eq(user_id))
            .filter(Column::ProcessedAt.is_null());
        let total = pending.clone().count(&self.db).await?;
        let ids = pending
            .select_only()
            .column(Column::Id)
            .order_by(Column::Seq, Order::Asc)
            .limit(limit)
            .into_tuple::<String>()
            .all(&self.db)
            .await?;
        Ok((ids, total))
    }

    /// Stores what processing found for item `seq`.
    ///
    /// # Errors
    /// Database failure.
    pub async fn store_processed(
        &self,
        seq: i64,
        processed: &Processed,
        at: DateTime<Utc>,
    ) -> Result<(), DbErr> {
        let json =
            |values: &[String]| serde_json::to_string(values).unwrap_or_else(|_| "[]".into());
        library_item::ActiveModel {
            seq: Set(seq),
            keywords: Set(Some(json(&processed.keywords))),
            suggested_tags: Set(Some(json(&processed.suggested_tags))),
            suggested_rating: Set(Some(processed.suggested_rating)),
            processed_at: Set(Some(at)),
            ..Default::default()
        }
        .update(&self.db)
        .await?;
        Ok(())
    }

    /// Ratings of the user's rated items that best match `query`, other than `except_seq`,
    /// best match first.
    ///
    /// # Errors
    /// Database failure.
    pub async fn similar_ratings(
        &self,
        user_id: &str,
        query: SearchQuery,
        except_id: &str,
        limit: u32,
    ) -> Result<Vec<SimilarRating>, DbErr> {
        let list = ListQuery {
            page: 1,
            limit: limit + 1,
            sort: SortKey::Relevance,
            order: SortOrder::Desc,
            search_text: None,
            search_mode: crate::domain::listing::SearchMode::Keyword,
            filter: ItemFilter {
                min_rating: Some(1),
                ..ItemFilter::default()
            },
            search: Some(query),
        };
        let (items, _) = self.page_without_context(user_id, &list).await?;
        Ok(items
            .into_iter()
            .filter(|item| item.id != except_id)
            .filter_map(|item| item.rating.map(|rating| SimilarRating { rating }))
            .take(limit as usize)
            .collect())
    }

    /// The user's tag names.
    ///
    /// # Errors
    /// Database failure.
    pub async fn tag_names_of(&self, user_id: &str) -> Result<Vec<String>, DbErr> {
        Ok(self
            .tags(user_id)
            .await?
            .into_iter()
            .map(|tag| tag.name)
            .collect())
    }

    /// The user's average rating over rated items, if any is rated.
    ///
    /// # Errors
    /// Database failure.
    pub async fn average_rating(&self, user_id: &str) -> Result<Option<f64>, DbErr> {
        Items::find()
            .select_only()
            .expr(Expr::cust("CAST(AVG(rating) AS DOUBLE PRECISION)"))
            .filter(Column::UserId.eq(user_id))
            .into_tuple::<Option<f64>>()
            .one(&self.db)
            .await
            .map(Option::flatten)
    }
}
