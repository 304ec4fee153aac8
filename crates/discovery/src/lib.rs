//! Channel discovery, sources, download jobs and scheduled syncs.
//!
//! Owns the YouTube channel and video cache, the channel aliases users typed, sources and
//! their videos, the YouTube API quota ledger, download jobs and schedules (docs/design.md §3). Talks
//! to the YouTube Data API v3 behind `youtube/` only and runs yt-dlp behind `ytdlp/` only;
//! hands MP3s to storage and transcription over gRPC (`peers/`); publishes `sourceUpdate`,
//! `downloadProgress` and `notification`; consumes `download.work`. Video metadata is public
//! YouTube data, cached once for every user; sources, jobs and schedules are scoped to their
//! owner. It never reads another service's tables.

mod captions;
mod config;
mod domain;
mod entity;
mod error;
mod grpc;
mod jobs;
mod migration;
mod peers;
mod service;
mod startup;
mod store;
mod youtube;
mod ytdlp;

pub use config::DiscoveryConfig;
pub use domain::downloads::TranscribeAfter;
pub use error::DiscoveryError;
pub use peers::{
    AudioArchive, PeerError, StorageClient, TranscriptionClient, TranscriptionIntake, VideoAudio,
};
pub use startup::{DiscoveryDependencies, DiscoveryServer};
pub use ytdlp::{AudioFetcher, CaptionFailure, CaptionFetcher, FetchFailure, YtDlp, YtDlpOptions};
