//! The transcription service's rules, tested through its gRPC API on an in-process server:
//! SQLite in a temp dir, the in-process bus, blobs in a temp dir, port 0. No whisper runs here;
//! the tests play the worker's part.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly on purpose

mod fairness;
mod helpers;
mod housekeeping;
mod intake;
mod languages;
mod lifecycle;
mod queue;
mod review;
mod user_data;
