//! Keywords and suggestions: computed on demand for one item, or stored for a batch.

use chrono::Utc;
use scribevault_core::UserId;

use super::Library;
use crate::domain::suggestions::{keywords, similarity_query, suggest_rating, suggest_tags};
use crate::error::LibraryError;
use crate::search::SearchQuery;
use crate::store::{ItemText, Processed};

/// Similar items whose ratings make the suggested rating.
const SIMILAR_ITEMS: u32 = 5;
/// Largest batch one call processes.
pub const MAX_BATCH: u32 = 200;

impl Library {
    async fn process(&self, user: &UserId, text: &ItemText) -> Result<Processed, LibraryError> {
        let (title, content) = (text.item.title.clone(), text.content.clone());
        let keywords = tokio::task::spawn_blocking(move || keywords(&title, &content))
            .await
            .unwrap_or_default();
        let user_tags = self.store.tag_names_of(user.as_str()).await?;
        let suggested_tags = suggest_tags(
            &text.item.title,
            &text.content,
            &keywords,
            &user_tags,
            &text.item.tags,
        );
        let similar = match SearchQuery::parse(&similarity_query(&keywords)) {
            Some(query) => self
                .store
                .similar_ratings(user.as_str(), query, &text.item.id, SIMILAR_ITEMS)
                .await?
                .into_iter()
                .map(|similar| similar.rating)
                .collect(),
            None => Vec::new(),
        };
        let average = self.store.average_rating(user.as_str()).await?;
        Ok(Processed {
            keywords,
            suggested_tags,
            suggested_rating: suggest_rating(&similar, average),
        })
    }

    /// Tags and a rating to offer for one of the caller's items.
    ///
    /// # Errors
    /// Unknown item, database failure.
    #[tracing::instrument(skip_all, fields(user = %user, item = id))]
    pub async fn suggestions(
        &self,
        user: &UserId,
        id: &str,
    ) -> Result<(Vec<String>, i32), LibraryError> {
        let stored = self
            .store
            .find(user.as_str(), id)
            .await?
            .ok_or(LibraryError::NotFound)?;
        let text = self
            .store
            .text(stored)
            .await?
            .ok_or(LibraryError::NotFound)?;
        let processed = self.process(user, &text).await?;
        Ok((processed.suggested_tags, processed.suggested_rating))
    }

    /// Computes and stores keywords and suggestions for up to `limit` of the caller's items
    /// not processed since they last changed. Returns how many were processed and how many
    /// remain.
    ///
    /// # Errors
    /// A limit out of 1..=200, database failure.
    #[tracing::instrument(skip_all, fields(user = %user, limit))]
    pub async fn process_batch(
        &self,
        user: &UserId,
        limit: u32,
    ) -> Result<(u32, u64), LibraryError> {
        if !(1..=MAX_BATCH).contains(&limit) {
            return Err(LibraryError::InvalidArgument(format!(
                "limit must be between 1 and {MAX_BATCH}"
            )));
        }
        let (ids, pending) = self
            .store
            .unprocessed(user.as_str(), u64::from(limit))
            .await?;
        let mut processed = 0;
        for id in ids {
            let Some(stored) = self.store.find(user.as_str(), &id).await? else {
                continue;
            };
            let seq = stored.seq;
            let Some(text) = self.store.text(stored).await? else {
                continue;
            };
            let found = self.process(user, &text).await?;
            self.store.store_processed(seq, &found, Utc::now()).await?;
            processed += 1;
        }
        Ok((processed, pending.saturating_sub(u64::from(processed))))
    }
}
