//! The library's tables as sea-orm entities.

pub mod library_export;
pub mod library_export_item;
pub mod library_item;
pub mod library_item_tag;
pub mod library_section;
pub mod library_segment;
pub mod library_tag;
