//! Channel discovery and sources (schedules and download jobs arrive with their issue).
//!
//! Owns the YouTube channel and video cache, the channel aliases users typed, sources and
//! their videos, and the YouTube API quota ledger (DESIGN §3). Talks to the YouTube Data API
//! v3 behind `youtube/` only; publishes `sourceUpdate`. Video metadata is public YouTube data,
//! cached once for every user; sources are scoped to their owner.

mod catalog;
mod channel_url;
mod config;
mod domain;
mod entity;
mod error;
mod export;
mod grpc;
mod migration;
mod playlist_read;
mod service;
mod sources;
mod startup;
mod store;
mod youtube;

pub use config::DiscoveryConfig;
pub use error::DiscoveryError;
pub use startup::DiscoveryServer;
