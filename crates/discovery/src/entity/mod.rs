//! Tables owned by the discovery service.

pub mod channel;
pub mod channel_alias;
pub mod download_job;
pub mod download_job_video;
pub mod quota_spend;
pub mod schedule;
pub mod source;
pub mod source_video;
pub mod sync_preference;
pub mod user_quota_spend;
pub mod video;
