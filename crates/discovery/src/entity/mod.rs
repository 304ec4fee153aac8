//! Tables owned by the discovery service.

pub mod channel;
pub mod channel_alias;
pub mod quota_spend;
pub mod source;
pub mod source_video;
pub mod video;
