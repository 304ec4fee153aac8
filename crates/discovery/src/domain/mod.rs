//! The discovery service's types, free of sea-orm, tonic and the YouTube wire format, one module
//! per concern, each named as its use cases in `service/` and its queries in `store/`: videos,
//! channels and channel searches (`catalog.rs`), sources (`sources.rs`), the quota
//! (`quota.rs`), download jobs and their states (`downloads.rs`), schedules and their next run
//! (`schedules.rs`), what a user typed into the channel box (`channel_url.rs`) and the CSV
//! export (`export.rs`). The types every concern uses are re-exported here.
//!
//! `channel_url.rs` and `export.rs` name these types by `crate::domain`, and `catalog.rs` has no
//! module of its own, so the fuzz targets (`fuzz/`) compile them without the rest of the crate.

mod catalog;
pub mod channel_url;
pub mod downloads;
pub mod export;
mod quota;
pub mod schedules;
mod sources;

pub use catalog::{
    Broadcast, Channel, ChannelVideos, Playlist, Video, VideoDetails, VideoLimit, is_video_id,
    watch_url,
};
pub use export::ExportType;
pub use quota::QuotaUsage;
pub use sources::{SOURCE_PAGE_SIZE, Source, SourceKind, SourcePageToken, SourceVideoPage};
