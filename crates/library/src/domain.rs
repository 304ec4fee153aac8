//! The Vault's vocabulary, free of database and transport types.

use chrono::{DateTime, Utc};

/// Largest page a client may ask for.
pub const MAX_PAGE_SIZE: u32 = 100;
/// Page size when the client does not say.
pub const DEFAULT_PAGE_SIZE: u32 = 20;
/// The title an item gets when its producer gives none.
pub const UNTITLED: &str = "Untitled";

/// One Vault item (without its content, which is read on its own).
#[derive(Debug, Clone, PartialEq)]
pub struct LibraryItem {
    pub id: String,
    pub user_id: String,
    /// What produced the item; unique per user.
    pub source_ref: String,
    pub title: String,
    pub author: String,
    pub source_type: String,
    pub rating: Option<i32>,
    pub is_starred: bool,
    pub tags: Vec<String>,
    pub gwth_level: Option<i32>,
    pub duration_seconds: Option<f64>,
    pub created_at: DateTime<Utc>,
    pub last_exported: Option<DateTime<Utc>>,
}

/// What a list is sorted by.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SortKey {
    CreatedAt,
    Title,
    Rating,
}

impl SortKey {
    /// The client's spelling; empty means `createdAt`.
    ///
    /// # Errors
    /// An unknown key, with the message the client sees.
    pub fn parse(value: &str) -> Result<Self, String> {
        match value {
            "" | "createdAt" => Ok(Self::CreatedAt),
            "title" => Ok(Self::Title),
            "rating" => Ok(Self::Rating),
            other => Err(format!("cannot sort by {other:?}")),
        }
    }
}

/// Which way a list is sorted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SortOrder {
    Asc,
    Desc,
}

impl SortOrder {
    /// The client's spelling; empty means `desc`.
    ///
    /// # Errors
    /// Anything but `asc` or `desc`.
    pub fn parse(value: &str) -> Result<Self, String> {
        match value {
            "" | "desc" => Ok(Self::Desc),
            "asc" => Ok(Self::Asc),
            other => Err(format!("sortOrder must be asc or desc, not {other:?}")),
        }
    }
}

/// One page of a list, as the store reads it.
#[derive(Debug, Clone, Copy)]
pub struct PageRequest {
    /// 1-based.
    pub page: u32,
    pub limit: u32,
    pub sort: SortKey,
    pub order: SortOrder,
}

impl PageRequest {
    /// A page request with the client's values clamped to what the list allows.
    ///
    /// # Errors
    /// An unknown sort key or order.
    pub fn new(page: u32, limit: u32, sort_by: &str, sort_order: &str) -> Result<Self, String> {
        Ok(Self {
            page: page.max(1),
            limit: if limit == 0 {
                DEFAULT_PAGE_SIZE
            } else {
                limit.min(MAX_PAGE_SIZE)
            },
            sort: SortKey::parse(sort_by)?,
            order: SortOrder::parse(sort_order)?,
        })
    }

    /// Rows before this page.
    #[must_use]
    pub fn offset(&self) -> u64 {
        u64::from(self.page - 1) * u64::from(self.limit)
    }
}

/// One page of a user's items.
#[derive(Debug, Clone)]
pub struct TranscriptPage {
    pub items: Vec<LibraryItem>,
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
#[derive(Debug, Clone)]
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
#[derive(Debug, Clone)]
pub struct IngestedTranscript {
    /// The item (new or the one that already existed).
    pub item: LibraryItem,
    /// False when it existed already (a redelivery).
    pub created: bool,
}

/// Figures for the Vault's stats cards.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct LibraryStats {
    pub total_transcripts: u64,
    pub total_duration: f64,
    pub storage_used: u64,
    pub avg_rating: f64,
    pub this_month: u64,
    pub total_exported: u64,
    pub top_rated_count: u64,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn page_requests_are_clamped_and_default_to_newest_first() {
        let request = PageRequest::new(0, 0, "", "").expect("valid");
        assert_eq!((request.page, request.limit), (1, DEFAULT_PAGE_SIZE));
        assert_eq!(
            (request.sort, request.order),
            (SortKey::CreatedAt, SortOrder::Desc)
        );
        assert_eq!(
            PageRequest::new(3, 500, "title", "asc").map(|r| (r.limit, r.offset())),
            Ok((100, 200))
        );
    }

    #[test]
    fn unknown_sort_keys_and_orders_are_refused_by_name() {
        assert_eq!(
            SortKey::parse("size"),
            Err("cannot sort by \"size\"".to_owned())
        );
        assert_eq!(
            SortOrder::parse("up"),
            Err("sortOrder must be asc or desc, not \"up\"".to_owned())
        );
    }
}
