//! Items: list and search, read, ingest, edit, delete.

use chrono::Utc;
use scribevault_blob::{BlobError, collect_body, owned_key};
use scribevault_core::UserId;

use super::Library;
use crate::domain::listing::{ListQuery, ListRequest, SearchMode};
use crate::domain::tags::clean_tags;
use crate::domain::{
    Change, FoundBy, HitContext, IngestedTranscript, ItemPage, LibraryItem, ListedItem,
    MAX_CONTENT_BYTES, MetadataChanges, NewLibraryItem, ReplacementTranscript, Segment, SourceType,
    TranscriptSource, UNTITLED, check_score, clean_name,
};
use crate::error::LibraryError;
use crate::search::{SearchQuery, highlights, matching_segments};
use crate::store::{Edited, PageTotal, StoredItem};
use scribevault_bus::contract::ItemChange;

fn invalid(message: String) -> LibraryError {
    LibraryError::InvalidArgument(message)
}

fn check_content(content: &str) -> Result<(), LibraryError> {
    if content.len() > MAX_CONTENT_BYTES {
        return Err(invalid(format!(
            "content must be at most {} MB",
            MAX_CONTENT_BYTES / (1024 * 1024)
        )));
    }
    Ok(())
}

/// The page `items` are of `query`, with the totals the store counted.
fn page_of(query: &ListQuery, items: Vec<ListedItem>, total: PageTotal) -> ItemPage {
    ItemPage {
        items,
        page: query.page,
        limit: query.limit,
        total: total.count,
        has_more: u64::from(query.page) * u64::from(query.limit) < total.count,
        total_capped: total.capped,
    }
}

/// The item a metadata edit left, or why there is none.
fn edited(outcome: Edited) -> Result<LibraryItem, LibraryError> {
    match outcome {
        Edited::Item(item) => Ok(*item),
        Edited::NoSuchItem => Err(LibraryError::NotFound),
        Edited::NoSuchSection => Err(LibraryError::SectionNotFound),
    }
}

impl Library {
    /// A page of the caller's items as the request asks.
    ///
    /// # Errors
    /// A value out of range (naming its query key), or a database failure.
    #[tracing::instrument(skip_all, fields(user = %user))]
    pub async fn list(
        &self,
        user: &UserId,
        request: ListRequest,
    ) -> Result<ItemPage, LibraryError> {
        let query = ListQuery::check(request).map_err(invalid)?;
        let searched = query
            .search
            .as_ref()
            .filter(|search| search.has_positive_terms());
        if let (Some(search), Some(text)) = (searched, &query.search_text)
            && query.search_mode != SearchMode::Keyword
        {
            if self.searches_by_meaning() {
                return self.list_with_meaning(user, &query, search, text).await;
            }
            if query.search_mode == SearchMode::Semantic {
                return Err(LibraryError::MeaningOff(self.meaning_off_reason()));
            }
        }
        let (stored, total) = self.store.page(user.as_str(), &query).await?;
        let items = match &query.search {
            Some(search) => self.with_hit_context(search, stored).await?,
            None => stored
                .into_iter()
                .map(|stored| ListedItem {
                    item: stored.item,
                    hit: None,
                })
                .collect(),
        };
        Ok(page_of(&query, items, total))
    }

    /// A search that uses meaning, alone or fused with the keyword ranking.
    async fn list_with_meaning(
        &self,
        user: &UserId,
        query: &ListQuery,
        search: &SearchQuery,
        text: &str,
    ) -> Result<ItemPage, LibraryError> {
        let near = self.near_chunks(user, text).await?;
        let (stored, total, mut found) = self
            .store
            .page_with_meaning(user.as_str(), query, search, near)
            .await?;
        let seqs: std::collections::HashMap<String, i64> = stored
            .iter()
            .map(|stored| (stored.item.id.clone(), stored.seq))
            .collect();
        let mut items = self.with_hit_context(search, stored).await?;
        for listed in &mut items {
            let Some(hit) = listed.hit.as_mut() else {
                continue;
            };
            let Some(seq) = seqs.get(&listed.item.id).copied() else {
                continue;
            };
            let by_keyword = found.by_keyword.contains(&seq);
            let Some(chunk) = found.nearest.remove(&seq) else {
                continue;
            };
            hit.found_by = if by_keyword {
                FoundBy::Both
            } else {
                FoundBy::Meaning
            };
            if hit.matches.is_empty()
                && let (Some(start_ms), Some(end_ms)) = (chunk.start_ms, chunk.end_ms)
            {
                hit.matches.push(Segment {
                    start_ms,
                    end_ms,
                    text: chunk.text.clone(),
                    words: Vec::new(),
                });
            }
            if !by_keyword {
                hit.highlights = vec![crate::search::marked_html(&chunk.text)];
            }
        }
        Ok(page_of(query, items, total))
    }

    /// A search's hits with what they are shown with: their highlights and, for audio, the
    /// segments that matched.
    async fn with_hit_context(
        &self,
        search: &SearchQuery,
        stored: Vec<StoredItem>,
    ) -> Result<Vec<ListedItem>, LibraryError> {
        let seqs: Vec<i64> = stored.iter().map(|stored| stored.seq).collect();
        let mut snippets = self.store.snippets(search, &seqs).await?;
        let audio: Vec<i64> = stored
            .iter()
            .filter(|stored| stored.item.source_type == SourceType::Audio)
            .map(|stored| stored.seq)
            .collect();
        let mut segments = self.store.segments_of(&audio).await?;
        Ok(stored
            .into_iter()
            .map(|stored| {
                let (title, snippet) = snippets.remove(&stored.seq).unwrap_or_default();
                let matches = segments
                    .remove(&stored.seq)
                    .map(|segments| matching_segments(search, &segments))
                    .unwrap_or_default();
                ListedItem {
                    item: stored.item,
                    hit: Some(HitContext {
                        found_by: FoundBy::Keyword,
                        highlights: highlights(&title, &snippet),
                        matches,
                    }),
                }
            })
            .collect())
    }

    /// One of the caller's items.
    ///
    /// # Errors
    /// [`LibraryError::NotFound`] when the id is unknown or belongs to another user.
    pub async fn get(&self, user: &UserId, id: &str) -> Result<LibraryItem, LibraryError> {
        self.store
            .find(user.as_str(), id)
            .await?
            .map(|stored| stored.item)
            .ok_or(LibraryError::NotFound)
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

    /// Reads the worker's segment JSON at the client path `path`. A missing or unreadable file
    /// leaves the item without segments (search still finds it; it just cannot say where);
    /// a store that cannot be reached is an error, so the ingest is retried.
    async fn segments_at(&self, user: &UserId, path: &str) -> Result<Vec<Segment>, LibraryError> {
        let Ok(key) = owned_key(user.as_str(), path) else {
            tracing::warn!(path, "segments path refused; ingesting without segments");
            return Ok(Vec::new());
        };
        let body = match self.blobs.get(&key).await {
            Ok(body) => body,
            Err(BlobError::NotFound(_)) => {
                tracing::warn!(path, "segments missing; ingesting without segments");
                return Ok(Vec::new());
            }
            Err(error) => return Err(error.into()),
        };
        let bytes = collect_body(body)
            .await
            .map_err(|error| LibraryError::Blob(BlobError::Backend(error.to_string())))?;
        Ok(serde_json::from_slice(&bytes).unwrap_or_else(|error| {
            tracing::warn!(path, error = %error, "segments unreadable; ingesting without segments");
            Vec::new()
        }))
    }

    /// Makes `item` a Vault item of `user`, once: a second call with the same `source_ref`
    /// returns the existing item. `segments_path` names the worker's segment JSON.
    ///
    /// # Errors
    /// Validation, blob store or database failures.
    #[tracing::instrument(skip_all, fields(user = %user, source_ref = %item.source_ref))]
    pub async fn ingest(
        &self,
        user: &UserId,
        mut item: NewLibraryItem,
        segments_path: Option<&str>,
    ) -> Result<IngestedTranscript, LibraryError> {
        if item.source_ref.is_empty() {
            return Err(invalid("source reference is required".into()));
        }
        check_content(&item.content)?;
        item.title = if item.title.trim().is_empty() {
            UNTITLED.to_owned()
        } else {
            item.title
                .trim()
                .chars()
                .take(crate::domain::MAX_NAME_CHARS)
                .collect()
        };
        if let Some(path) = segments_path.filter(|path| !path.is_empty()) {
            item.segments = self.segments_at(user, path).await?;
        }
        if item.source_type == SourceType::Audio && item.transcript_source.is_none() {
            item.transcript_source = Some(TranscriptSource::Whisper);
        }
        let (item, created) = self.store.insert_once(user.as_str(), item).await?;
        if created {
            self.announce(user, ItemChange::Created, &item.id, &item.title)
                .await;
            self.queue_embedding(user, &item.id, false).await;
        }
        Ok(IngestedTranscript { item, created })
    }

    /// Replaces the transcript of the caller's audio item `id` ('Transcribe with Whisper' on an
    /// item made from captions): text, segments (read from `segments_path` when given) and
    /// source; the item keeps everything else. A redelivered replacement writes the same again.
    ///
    /// # Errors
    /// Too large, no such audio item of the caller's, blob store or database failure.
    #[tracing::instrument(skip_all, fields(user = %user, item = id))]
    pub async fn replace_transcript(
        &self,
        user: &UserId,
        id: &str,
        mut replacement: ReplacementTranscript,
        segments_path: Option<&str>,
    ) -> Result<LibraryItem, LibraryError> {
        check_content(&replacement.content)?;
        if let Some(path) = segments_path.filter(|path| !path.is_empty()) {
            replacement.segments = self.segments_at(user, path).await?;
        }
        let item = self
            .store
            .replace_transcript(user.as_str(), id, replacement)
            .await?
            .ok_or(LibraryError::NotFound)?;
        self.announce(user, ItemChange::Updated, &item.id, &item.title)
            .await;
        self.queue_embedding(user, &item.id, true).await;
        Ok(item)
    }

    /// Records the Whisper transcription that will replace the caller's audio item's
    /// transcript, so the item shows it until the new transcript lands.
    ///
    /// # Errors
    /// An empty job id, no such audio item of the caller's, database failure.
    #[tracing::instrument(skip_all, fields(user = %user, item = id))]
    pub async fn set_whisper_job(
        &self,
        user: &UserId,
        id: &str,
        job_id: &str,
    ) -> Result<LibraryItem, LibraryError> {
        if job_id.trim().is_empty() {
            return Err(invalid("jobId is required".into()));
        }
        let item = self
            .store
            .set_whisper_job(user.as_str(), id, job_id.trim())
            .await?
            .ok_or(LibraryError::NotFound)?;
        self.announce(user, ItemChange::Updated, &item.id, &item.title)
            .await;
        Ok(item)
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
        check_score("rating", rating).map_err(invalid)?;
        let item = edited(self.store.set_rating(user.as_str(), id, rating).await?)?;
        self.announce(user, ItemChange::Updated, &item.id, &item.title)
            .await;
        Ok(item)
    }

    /// Applies `PUT …/metadata`.
    ///
    /// # Errors
    /// A bad value (naming the field), an unknown item or section, database failure.
    #[tracing::instrument(skip_all, fields(user = %user, item = id))]
    pub async fn update_metadata(
        &self,
        user: &UserId,
        id: &str,
        mut changes: MetadataChanges,
    ) -> Result<LibraryItem, LibraryError> {
        if let Some(title) = &changes.title {
            changes.title = Some(clean_name("title", title, true).map_err(invalid)?);
        }
        if let Some(author) = &changes.author {
            changes.author = Some(clean_name("author", author, false).map_err(invalid)?);
        }
        if let Change::Set(level) = changes.gwth_level {
            check_score("gwthLevel", level).map_err(invalid)?;
        }
        if let Change::Set(rating) = changes.rating {
            check_score("rating", rating).map_err(invalid)?;
        }
        if let Some(tags) = &changes.tags {
            changes.tags = Some(clean_tags(tags).map_err(invalid)?);
        }
        let item = edited(
            self.store
                .update_metadata(user.as_str(), id, changes)
                .await?,
        )?;
        self.announce(user, ItemChange::Updated, &item.id, &item.title)
            .await;
        Ok(item)
    }

    /// Replaces an item's text; it is searchable as soon as this returns.
    ///
    /// # Errors
    /// Too large, unknown item or database failure.
    #[tracing::instrument(skip_all, fields(user = %user, item = id))]
    pub async fn update_content(
        &self,
        user: &UserId,
        id: &str,
        content: String,
    ) -> Result<LibraryItem, LibraryError> {
        check_content(&content)?;
        let item = self
            .store
            .set_content(user.as_str(), id, content)
            .await?
            .ok_or(LibraryError::NotFound)?;
        self.announce(user, ItemChange::Updated, &item.id, &item.title)
            .await;
        self.queue_embedding(user, &item.id, true).await;
        Ok(item)
    }

    /// Deletes one of the caller's items with its text, tags, segments and exports.
    ///
    /// # Errors
    /// Unknown item or database failure.
    #[tracing::instrument(skip_all, fields(user = %user, item = id))]
    pub async fn delete(&self, user: &UserId, id: &str) -> Result<(), LibraryError> {
        let item = self.get(user, id).await?;
        if !self.store.delete(user.as_str(), id).await? {
            return Err(LibraryError::NotFound);
        }
        self.announce(user, ItemChange::Deleted, &item.id, &item.title)
            .await;
        Ok(())
    }

    /// Counts for the stats cards.
    ///
    /// # Errors
    /// Database failure.
    pub async fn stats(&self, user: &UserId) -> Result<crate::domain::LibraryStats, LibraryError> {
        Ok(self.store.stats(user.as_str(), Utc::now()).await?)
    }
}
