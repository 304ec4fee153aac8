//! Integration tests of the storage service on its own: the real gRPC server, started in this
//! process on a loopback port with a throw-away SQLite database and blob directory.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly on purpose

mod blobs;
mod helpers;
mod policy;
mod refusals;
mod uploads;
mod user_data;
