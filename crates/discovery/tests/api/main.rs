//! Integration tests of the discovery service on its own: the real gRPC server started in this
//! process on a loopback port, its real YouTube client against the YouTube fake in
//! `test-support` (which speaks the API's documented wire format and counts units).

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly on purpose

mod channel_search;
mod downloads;
mod export_and_quota;
mod helpers;
mod schedules;
mod skeleton;
mod sources;
mod user_data;
