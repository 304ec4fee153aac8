//! The Vault's use cases: the rules live here, the queries in `store.rs`, the wire in `grpc.rs`.

use chrono::Utc;
use scribevault_core::UserId;

use crate::domain::{
    IngestedTranscript, LibraryItem, LibraryStats, NewLibraryItem, PageRequest, TranscriptPage,
    UNTITLED,
};
use crate::error::LibraryError;
use crate::store::LibraryStore;

/// The Vault of every user, each scoped to its owner.
#[derive(Clone)]
pub struct Library {
    store: LibraryStore,
}

impl Library {
    /// The service over its store.
    #[must_use]
    pub fn new(store: LibraryStore) -> Self {
        Self { store }
    }

    /// A page of the caller's items, newest first unless asked otherwise.
    ///
    /// # Errors
    /// Unknown sort key or sort order, or a database failure.
    #[tracing::instrument(skip_all, fields(user = %user, page, limit))]
    pub async fn list(
        &self,
        user: &UserId,
        page: u32,
        limit: u32,
        sort_by: &str,
        sort_order: &str,
    ) -> Result<TranscriptPage, LibraryError> {
        let request = PageRequest::new(page, limit, sort_by, sort_order)
            .map_err(LibraryError::InvalidArgument)?;
        let (items, total) = self.store.page(user.as_str(), request).await?;
        Ok(TranscriptPage {
            items,
            page: request.page,
            limit: request.limit,
            total,
            has_more: u64::from(request.page) * u64::from(request.limit) < total,
        })
    }

    /// One of the caller's items' text.
    ///
    /// # Errors
    /// [`LibraryError::NotFound`] when the id is unknown or belongs to another user.
    pub async fn content(&self, user: &UserId, id: &str) -> Result<String, LibraryError> {
        self.store
            .content(user.as_str(), id)
            .await?
            .ok_or(LibraryError::NotFound)
    }

    /// Makes `item` a Vault item of `user`, once: a second call with the same `source_ref`
    /// returns the existing item.
    ///
    /// # Errors
    /// Validation or database failures.
    #[tracing::instrument(skip_all, fields(user = %user, source_ref = %item.source_ref))]
    pub async fn ingest(
        &self,
        user: &UserId,
        mut item: NewLibraryItem,
    ) -> Result<IngestedTranscript, LibraryError> {
        if item.source_ref.is_empty() {
            return Err(LibraryError::InvalidArgument(
                "source reference is required".into(),
            ));
        }
        item.title = if item.title.trim().is_empty() {
            UNTITLED.to_owned()
        } else {
            item.title.trim().to_owned()
        };
        if item.source_type.is_empty() {
            item.source_type = "AUDIO".into();
        }
        let (item, created) = self.store.insert_once(user.as_str(), item).await?;
        Ok(IngestedTranscript { item, created })
    }

    /// Sets the caller's rating (1–5) of an item.
    ///
    /// # Errors
    /// Out-of-range rating, unknown item, database failure.
    #[tracing::instrument(skip_all, fields(user = %user, item = id))]
    pub async fn rate(
        &self,
        user: &UserId,
        id: &str,
        rating: i32,
    ) -> Result<LibraryItem, LibraryError> {
        if !(1..=5).contains(&rating) {
            return Err(LibraryError::InvalidArgument(
                "rating must be between 1 and 5".into(),
            ));
        }
        self.store
            .set_rating(user.as_str(), id, rating)
            .await?
            .ok_or(LibraryError::NotFound)
    }

    /// Replaces an item's text.
    ///
    /// # Errors
    /// Unknown item or database failure.
    #[tracing::instrument(skip_all, fields(user = %user, item = id))]
    pub async fn update_content(
        &self,
        user: &UserId,
        id: &str,
        content: String,
    ) -> Result<LibraryItem, LibraryError> {
        self.store
            .set_content(user.as_str(), id, content)
            .await?
            .ok_or(LibraryError::NotFound)
    }

    /// Deletes one of the caller's items.
    ///
    /// # Errors
    /// Unknown item or database failure.
    #[tracing::instrument(skip_all, fields(user = %user, item = id))]
    pub async fn delete(&self, user: &UserId, id: &str) -> Result<(), LibraryError> {
        if self.store.delete(user.as_str(), id).await? {
            Ok(())
        } else {
            Err(LibraryError::NotFound)
        }
    }

    /// Counts for the stats cards.
    ///
    /// # Errors
    /// Database failure.
    pub async fn stats(&self, user: &UserId) -> Result<LibraryStats, LibraryError> {
        Ok(self.store.stats(user.as_str(), Utc::now()).await?)
    }
}
