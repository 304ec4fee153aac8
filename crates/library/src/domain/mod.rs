//! The Vault's vocabulary, free of database and transport types: items, sections, exports and
//! stats here; what a list asks for in `listing.rs`, tag names in `tags.rs`, and tag and rating
//! suggestions in `suggestions.rs`.

pub mod chunks;
pub mod listing;
pub mod suggestions;
pub mod tags;

use chrono::{DateTime, Utc};

/// The title an item gets when its producer gives none.
pub const UNTITLED: &str = "Untitled";
/// Ratings and gwth levels run from 1 to this.
pub const TOP_SCORE: i32 = 5;
/// A rating from which an item counts as top rated.
pub const TOP_RATED_FROM: i32 = 4;
/// Files one `POST /api/vault/save` may carry.
pub const MAX_SAVED_FILES: usize = 100;
/// Longest title, author, tag or section title kept (characters).
pub const MAX_NAME_CHARS: usize = 300;
/// Longest item text kept (bytes): larger edits are refused, not cut.
pub const MAX_CONTENT_BYTES: usize = 8 * 1024 * 1024;

/// The folder of a user's objects that the library owns (`exports/`).
pub const EXPORTS_ROOT: &str = "exports/";

/// What deleting a user's data removed.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct DeletedUserData {
    /// Database rows, of every table keyed by the user or by one of their items or exports.
    pub rows: u64,
    /// Stored objects.
    pub blobs: u64,
}

/// One Vault item (without its content, which is read on its own).
#[derive(Debug, Clone, PartialEq)]
pub struct LibraryItem {
    pub id: String,
    pub user_id: String,
    /// What produced the item; unique per user.
    pub source_ref: String,
    pub title: String,
    pub author: String,
    pub source_type: SourceType,
    pub rating: Option<i32>,
    pub is_starred: bool,
    pub tags: Vec<String>,
    /// The growth level (ADR 0012), 1–5.
    pub gwth_level: Option<i32>,
    pub duration_seconds: Option<f64>,
    pub created_at: DateTime<Utc>,
    pub last_exported: Option<DateTime<Utc>>,
    pub section_id: Option<String>,
    /// The client path the item came from (a transcript, a converted file) or the name a saved
    /// file had.
    pub file_name: Option<String>,
    pub source_url: Option<String>,
    /// Audio items: where the transcript came from (Whisper or YouTube's captions).
    pub transcript_source: Option<TranscriptSource>,
    /// The Whisper transcription started to replace a captions transcript, until it lands.
    pub whisper_job_id: Option<String>,
    /// Audio items: the language the transcript is in (a Whisper code such as `de`), when
    /// known.
    pub language: Option<String>,
    /// Audio items the quality guard marked 'Needs review': where and why.
    pub review: Option<TranscriptReview>,
}

/// Which ranking found a hit.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum FoundBy {
    #[default]
    Keyword,
    /// By meaning alone: none of its words matched.
    Meaning,
    Both,
}

/// A search hit's extras: why it matched.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct HitContext {
    pub found_by: FoundBy,
    /// Snippets with `<mark>…</mark>`, HTML-escaped around the marks.
    pub highlights: Vec<String>,
    /// For audio: the transcript segments that contain the words; for a hit found by meaning,
    /// the stretch nearest the query (with its times when the item has them).
    pub matches: Vec<Segment>,
}

/// A listed item, with its hit context when the list was a search.
#[derive(Debug, Clone, PartialEq)]
pub struct ListedItem {
    pub item: LibraryItem,
    pub hit: Option<HitContext>,
}

/// One page of a user's items.
#[derive(Debug, Clone)]
pub struct ItemPage {
    pub items: Vec<ListedItem>,
    /// 1-based page number.
    pub page: u32,
    /// Page size used.
    pub limit: u32,
    /// Items in total; for a search, at most [`SEARCH_WINDOW`].
    pub total: u64,
    /// Whether a later page exists.
    pub has_more: bool,
    /// A search matched more than [`SEARCH_WINDOW`] items: `total` is a lower bound and the
    /// pages hold the newest [`SEARCH_WINDOW`] of them.
    pub total_capped: bool,
}

/// How many of a search's matches are listed: the newest ones. Counting and ranking every
/// match of a common word costs time in proportion to the Vault's size (ADR 0016); nobody
/// pages past the first thousand results of a search, they refine it.
pub const SEARCH_WINDOW: u64 = 1000;

/// One stretch of a transcript, in the format of the worker's segment JSON.
pub use scribevault_bus::contract::TranscriptSegment as Segment;

/// What an item was made from: the contract's kinds, which the `library.ingest` queue, the
/// gRPC wire and REST all carry, so the Vault keeps no vocabulary of its own to drift from them.
pub use scribevault_bus::contract::SourceType;

/// Where an audio item's transcript came from, as the contract spells it.
pub use scribevault_bus::contract::TranscriptSource;

/// What the transcription worker's quality guard left to check on an audio item.
pub use scribevault_bus::contract::TranscriptReview;

/// What a producer hands over to become a Vault item.
#[derive(Debug, Clone)]
pub struct NewLibraryItem {
    /// Idempotency key: one item per (user, source).
    pub source_ref: String,
    /// Shown in lists.
    pub title: String,
    pub source_type: SourceType,
    /// The text.
    pub content: String,
    /// Audio length, when known.
    pub duration_seconds: Option<f64>,
    /// When the item was made; now when unknown.
    pub created_at: Option<DateTime<Utc>>,
    /// The client path of what the item came from.
    pub file_name: Option<String>,
    /// The transcript's timed segments (audio only).
    pub segments: Vec<Segment>,
    /// Storage's client path of the recording (audio only), for the player.
    pub audio_path: Option<String>,
    /// Where an audio item's transcript came from; Whisper when its producer does not say.
    pub transcript_source: Option<TranscriptSource>,
    /// The transcript's language (a Whisper code), when known.
    pub language: Option<String>,
    /// What the transcription worker's quality guard left to check, when anything.
    pub review: Option<TranscriptReview>,
}

/// A transcript that replaces an audio item's own ('Transcribe with Whisper' on an item made
/// from captions): the item keeps its id, metadata and recording.
#[derive(Debug, Clone)]
pub struct ReplacementTranscript {
    pub content: String,
    pub segments: Vec<Segment>,
    pub source: TranscriptSource,
    /// The new transcript's language, when known (the old one's is not kept).
    pub language: Option<String>,
    /// The new transcript's quality review, when anything is left to check (the old one's is
    /// not kept either).
    pub review: Option<TranscriptReview>,
}

/// The result of an ingest.
#[derive(Debug, Clone)]
pub struct IngestedTranscript {
    /// The item (new or the one that already existed).
    pub item: LibraryItem,
    /// False when it existed already (a redelivery).
    pub created: bool,
}

/// A change to a value that may also be cleared.
#[derive(Debug, Clone, PartialEq, Default)]
pub enum Change<T> {
    #[default]
    Keep,
    Clear,
    Set(T),
}

/// The metadata edits of `PUT …/metadata`; unnamed fields keep their value.
#[derive(Debug, Clone, Default)]
pub struct MetadataChanges {
    pub title: Option<String>,
    pub author: Option<String>,
    pub is_starred: Option<bool>,
    pub gwth_level: Change<i32>,
    pub rating: Change<i32>,
    /// Replaces every tag when given.
    pub tags: Option<Vec<String>>,
    pub section_id: Change<String>,
}

/// A user's tag with how many items carry it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tag {
    pub id: String,
    pub name: String,
    pub count: u64,
}

/// A syllabus section: a named, ordered group of items.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Section {
    pub id: String,
    pub title: String,
    pub description: String,
    pub position: i32,
    pub item_count: u64,
}

/// Figures for the Vault's stats cards: the `statsUpdate` event's payload, which the gateway
/// also answers `GET /api/library/stats` with, so the contract defines them once.
pub use scribevault_bus::contract::{Distributions, ExportStats, LibraryStats};

/// Checks a 1–5 score (a rating or a gwth level), naming the field when it is out of range.
///
/// # Errors
/// The message the client sees.
pub fn check_score(field: &str, value: i32) -> Result<i32, String> {
    if (1..=TOP_SCORE).contains(&value) {
        Ok(value)
    } else {
        Err(format!("{field} must be between 1 and {TOP_SCORE}"))
    }
}

/// A title, author or name trimmed and checked for length.
///
/// # Errors
/// Too long, or empty when `required`.
pub fn clean_name(field: &str, value: &str, required: bool) -> Result<String, String> {
    let value = value.trim();
    if required && value.is_empty() {
        return Err(format!("{field} is required"));
    }
    if value.chars().count() > MAX_NAME_CHARS {
        return Err(format!(
            "{field} must be at most {MAX_NAME_CHARS} characters"
        ));
    }
    Ok(value.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_run_from_one_to_five() {
        assert_eq!(check_score("rating", 1), Ok(1));
        assert_eq!(check_score("rating", 5), Ok(5));
        assert_eq!(
            check_score("gwthLevel", 6),
            Err("gwthLevel must be between 1 and 5".to_owned())
        );
        assert!(check_score("rating", 0).is_err());
    }

    #[test]
    fn names_are_trimmed_and_bounded() {
        assert_eq!(clean_name("title", "  Soil  ", true), Ok("Soil".to_owned()));
        assert_eq!(
            clean_name("title", "   ", true),
            Err("title is required".to_owned())
        );
        assert!(clean_name("title", &"x".repeat(MAX_NAME_CHARS + 1), false).is_err());
    }
}
