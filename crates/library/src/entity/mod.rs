//! Tables owned by the library service.

pub mod library_item;
