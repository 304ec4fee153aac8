//! `library_items.language`: the language an audio item's transcript is in (a Whisper code,
//! such as `de`), shown on the item. Items from before stay without one: their language was
//! never recorded.

use super::item_column::{ColumnKind, NullableItemColumn};

pub const ITEM_LANGUAGE: NullableItemColumn = NullableItemColumn {
    name: "m20261126_200002_library_item_language",
    column: "language",
    kind: ColumnKind::String,
};
