//! Channel discovery, sources, schedules and download jobs.
//!
//! It will own channels, videos, sources, download jobs and schedules (DESIGN §3), talk to the
//! YouTube Data API behind `youtube/` and to yt-dlp behind `ytdlp/`, and stream downloaded audio
//! to storage.
//!
//! Only the target's skeleton exists so far: the gRPC server with health and reflection, whose
//! RPCs all answer `UNIMPLEMENTED` until this service's issue lands. It owns no tables yet, so
//! it has no `error.rs`, `domain.rs`, `store.rs` or `jobs/` yet: they arrive with the first
//! rule, query and consumer, in the shape `docs/architecture.md` ("Anatomy of a service")
//! gives.

mod config;
mod grpc;
mod startup;

pub use config::DiscoveryConfig;
pub use startup::DiscoveryServer;
