//! `library_items.review`: what the transcription worker's quality guard left to check on an
//! audio item ('Needs review'), as the contract's JSON (`{"ranges":[{startMs, endMs,
//! reason}]}`); NULL when nothing was, so the Vault's `needsReview` filter is a NULL test.
//! Items from before were never checked and stay NULL.

use super::item_column::{ColumnKind, NullableItemColumn};

pub const ITEM_REVIEW: NullableItemColumn = NullableItemColumn {
    name: "m20261126_200003_library_item_review",
    column: "review",
    kind: ColumnKind::Text,
};
