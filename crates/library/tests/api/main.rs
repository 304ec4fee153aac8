//! Integration tests of the library service on its own: the real gRPC server and ingest
//! consumer, started in this process on a loopback port with a throw-away SQLite database and
//! the in-process bus.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly on purpose

mod exports;
mod folder_export;
mod helpers;
mod ingest;
mod meaning;
mod meaning_quality;
mod retranscribe;
mod review;
mod search;
mod stats;
mod transcripts;
mod user_data;
mod vault;
