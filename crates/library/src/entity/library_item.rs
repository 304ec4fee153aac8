//! One Vault item.

use sea_orm::entity::prelude::*;

/// A row of `library_items`. `seq` is the integer key the FTS5 index needs (notes §2); `id` is
/// the id clients see.
#[derive(Clone, Debug, PartialEq, DeriveEntityModel)]
#[sea_orm(table_name = "library_items")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub seq: i64,
    #[sea_orm(unique)]
    pub id: String,
    pub user_id: String,
    /// What produced the item (a transcription file id, a vault-save path); unique per user.
    pub source_ref: String,
    pub title: String,
    pub author: String,
    pub source_type: String,
    pub rating: Option<i32>,
    pub is_starred: bool,
    pub gwth_level: Option<i32>,
    pub duration_seconds: Option<f64>,
    pub created_at: DateTimeUtc,
    pub updated_at: DateTimeUtc,
    pub last_exported: Option<DateTimeUtc>,
    pub section_id: Option<String>,
    pub file_name: Option<String>,
    pub source_url: Option<String>,
    /// The tag names, one per line: the search index's copy of the tag rows.
    #[sea_orm(column_type = "Text")]
    pub tags_text: String,
    /// Bytes of `content`, so the stats never read the text.
    pub content_bytes: i64,
    /// JSON list of keywords, once processed.
    #[sea_orm(column_type = "Text", nullable)]
    pub keywords: Option<String>,
    /// JSON list of suggested tags, once processed.
    #[sea_orm(column_type = "Text", nullable)]
    pub suggested_tags: Option<String>,
    pub suggested_rating: Option<i32>,
    pub processed_at: Option<DateTimeUtc>,
    /// An audio item's recording: storage's client path of its MP3 (owned by `user_id`), for
    /// the player. Absent for other kinds, and for audio whose MP3 was never recorded.
    pub audio_path: Option<String>,
    /// An audio item's transcript source (`whisper`, `captions:uploader`, `captions:auto`).
    pub transcript_source: Option<String>,
    /// The Whisper transcription that will replace this item's transcript, while it runs.
    pub whisper_job_id: Option<String>,
    /// An audio item's transcript language (a Whisper code such as `de`), when known.
    pub language: Option<String>,
    /// An audio item's quality review ('Needs review'): the contract's `TranscriptReview` as
    /// JSON; NULL when the quality guard left nothing to check.
    #[sea_orm(column_type = "Text", nullable)]
    pub review: Option<String>,
    #[sea_orm(column_type = "Text")]
    pub content: String,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
