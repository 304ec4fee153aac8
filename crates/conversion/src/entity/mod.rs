//! Tables owned by the conversion service.

pub mod template;
