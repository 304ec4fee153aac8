//! The worker's control flow, tested in-process against the real transcription service: a
//! file is claimed, reported on and completed; a cancel stops it; a file that cannot be
//! transcribed fails for good, and one whose attempt failed is tried again. SQLite in a temp
//! dir, the in-process bus, blobs in a temp dir, the service on port 0, real MP3s decoded by
//! the real pipeline. Whisper is the only stand-in ([`FakeWhisper`]); `tests/engine.rs` runs
//! the real one.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly on purpose

mod failures;
mod helpers;
mod languages;
mod lifecycle;
mod stop_orders;
