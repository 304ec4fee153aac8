//! Search by meaning (docs/adr/0026-meaning-search.md): items are cut into chunks by time and
//! embedded off the request path (`jobs/embed.rs`); a search embeds its query on the request
//! path (a few milliseconds) and asks the store for the nearest chunks.

use std::sync::Arc;

use scribevault_bus::contract::LibraryEmbed;
use scribevault_bus::{WorkQueue, enqueue_work};
use scribevault_core::UserId;
use scribevault_embed::{Embedder, MODEL_NAME, Role};

use super::Library;
use crate::domain::chunks::chunks_of;
use crate::error::LibraryError;
use crate::store::{NearChunk, VectorSupport};

/// Items an item's "Related" lists.
const RELATED_ITEMS: usize = 5;

/// Chunks a query reads: enough for the best few hundred items.
const NEAREST_CHUNKS: u32 = 200;

/// The least cosine similarity of a chunk to count as a hit by meaning. e5 puts unrelated
/// texts at 0.65–0.78 and paraphrases at 0.82–0.90 (measured on the model shipped, in
/// `crates/embed/tests` and `tests/api/meaning.rs`); below this a "hit" would only be the
/// nearest of nothing.
pub const MIN_SIMILARITY: f64 = 0.80;

/// How far below the best chunk a chunk may be and still count. e5's similarities are
/// compressed (a text on a neighbouring topic scores 0.80–0.82 against a query whose answer
/// scores 0.87), so a hit is also judged against the best one: a paraphrase in another
/// language sits within 0.04 of it, a neighbouring topic 0.05 or more below.
pub const MAX_BELOW_BEST: f64 = 0.045;

/// How far the back-fill has come for one user.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MeaningProgress {
    /// Whether this server searches by meaning at all (a model and a vector extension).
    pub enabled: bool,
    /// Items with vectors of the current model.
    pub embedded: u64,
    pub total: u64,
}

impl Library {
    /// The service with `embedder` for search by meaning; new and changed items are queued
    /// for embedding on `work`.
    #[must_use]
    pub fn with_embedder(mut self, embedder: Arc<Embedder>, work: Arc<dyn WorkQueue>) -> Self {
        self.embedder = Some(embedder);
        self.embed_work = Some(work);
        self
    }

    /// Queues the user's item `id` for embedding, after its text was made or changed. The old
    /// vectors go first, so a search by meaning never finds text the item no longer has; if
    /// the queue cannot take it, the back-fill will.
    pub(super) async fn queue_embedding(&self, user: &UserId, id: &str, changed: bool) {
        let Some(work) = self
            .embed_work
            .as_ref()
            .filter(|_| self.searches_by_meaning())
        else {
            return;
        };
        if changed && let Err(error) = self.store.clear_vectors(user.as_str(), id).await {
            tracing::warn!(error = %error, item = id, "the item's old vectors stay until it is embedded again");
        }
        let embed = LibraryEmbed {
            user_id: user.as_str().to_owned(),
            item_id: id.to_owned(),
            traceparent: scribevault_core::telemetry::current_traceparent(),
        };
        if let Err(error) = enqueue_work(work.as_ref(), &embed).await {
            tracing::warn!(error = %error, item = id, "embedding not queued; the back-fill embeds the item");
        }
    }

    /// Whether searches can use meaning: a model is loaded and the database stores vectors.
    #[must_use]
    pub fn searches_by_meaning(&self) -> bool {
        self.embedder.is_some() && self.store.vector_support() != VectorSupport::Missing
    }

    /// Why search by meaning is off, in words for the one who asked for it.
    pub(super) fn meaning_off_reason(&self) -> String {
        if self.embedder.is_none() {
            "Search by meaning is off on this server: it has no embedding model \
             (run `scribevault model fetch e5-small` or `make model`)."
                .into()
        } else {
            "Search by meaning is off on this server: its database has no vector extension \
             (pgvector on PostgreSQL)."
                .into()
        }
    }

    /// Cuts the user's item `id` into chunks and stores their vectors. Answers false when the
    /// item is gone or search by meaning is off.
    ///
    /// # Errors
    /// Database or embedding failure.
    pub async fn embed_item(&self, user: &UserId, id: &str) -> Result<bool, LibraryError> {
        let Some(embedder) = self.embedder.clone().filter(|_| self.searches_by_meaning()) else {
            return Ok(false);
        };
        let Some(stored) = self.store.find(user.as_str(), id).await? else {
            return Ok(false);
        };
        let Some(text) = self.store.text(stored).await? else {
            return Ok(false);
        };
        let chunks = chunks_of(&text.item.title, &text.content, &text.segments);
        let passages: Vec<String> = chunks.iter().map(|chunk| chunk.text.clone()).collect();
        let vectors = tokio::task::spawn_blocking(move || {
            let passages: Vec<&str> = passages.iter().map(String::as_str).collect();
            embedder.embed(&passages, Role::Passage)
        })
        .await
        .map_err(|error| LibraryError::Embedding(error.to_string()))?
        .map_err(|error| LibraryError::Embedding(error.to_string()))?;
        Ok(self
            .store
            .put_vectors(user.as_str(), id, MODEL_NAME, &chunks, &vectors)
            .await?)
    }

    /// The user's chunks nearest `query` that are near enough to be hits, nearest first.
    pub(super) async fn near_chunks(
        &self,
        user: &UserId,
        query: &str,
    ) -> Result<Vec<NearChunk>, LibraryError> {
        let Some(embedder) = self.embedder.clone() else {
            return Ok(Vec::new());
        };
        let query = query.to_owned();
        let vector = tokio::task::spawn_blocking(move || embedder.embed_query(&query))
            .await
            .map_err(|error| LibraryError::Embedding(error.to_string()))?
            .map_err(|error| LibraryError::Embedding(error.to_string()))?;
        let near = self
            .store
            .nearest_chunks(user.as_str(), &vector, NEAREST_CHUNKS)
            .await?;
        let best = near.first().map_or(0.0, |chunk| 1.0 - chunk.distance);
        let least = MIN_SIMILARITY.max(best - MAX_BELOW_BEST);
        Ok(near
            .into_iter()
            .filter(|chunk| 1.0 - chunk.distance >= least)
            .collect())
    }

    /// Embeds up to `limit` items that have no vectors of the current model yet, one at a
    /// time with `pause` after each; answers how many it embedded.
    ///
    /// # Errors
    /// Database or embedding failure.
    pub async fn backfill(
        &self,
        limit: u64,
        pause: std::time::Duration,
    ) -> Result<usize, LibraryError> {
        if !self.searches_by_meaning() {
            return Ok(0);
        }
        let mut embedded = 0;
        for item in self.store.unembedded(MODEL_NAME, limit).await? {
            match self.embed_item(&UserId::new(item.user_id), &item.id).await {
                Ok(true) => embedded += 1,
                Ok(false) => {}
                // One item the engine cannot embed must not stop the others behind it.
                Err(LibraryError::Embedding(error)) => {
                    tracing::warn!(error = %error, item = item.id, "an item could not be embedded");
                }
                Err(error) => return Err(error),
            }
            tokio::time::sleep(pause).await;
        }
        Ok(embedded)
    }

    /// The five items of the user's nearest by meaning to their item `id`; none while it has
    /// no vectors yet.
    ///
    /// # Errors
    /// [`LibraryError::NotFound`] for an id that is not the caller's;
    /// [`LibraryError::MeaningOff`] when the server cannot search by meaning.
    pub async fn related(
        &self,
        user: &UserId,
        id: &str,
    ) -> Result<Vec<crate::domain::LibraryItem>, LibraryError> {
        let stored = self
            .store
            .find(user.as_str(), id)
            .await?
            .ok_or(LibraryError::NotFound)?;
        if !self.searches_by_meaning() {
            return Err(LibraryError::MeaningOff(self.meaning_off_reason()));
        }
        Ok(self
            .store
            .related_items(user.as_str(), stored.seq, RELATED_ITEMS)
            .await?
            .into_iter()
            .map(|stored| stored.item)
            .collect())
    }

    /// How many of the user's items can be found by meaning yet.
    ///
    /// # Errors
    /// Database failure.
    pub async fn meaning_progress(&self, user: &UserId) -> Result<MeaningProgress, LibraryError> {
        let (embedded, total) = self
            .store
            .embedded_counts(user.as_str(), MODEL_NAME)
            .await?;
        Ok(MeaningProgress {
            enabled: self.searches_by_meaning(),
            embedded,
            total,
        })
    }
}
