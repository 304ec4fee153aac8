//! Integration tests of the webhook service: the real gRPC server in this process on SQLite or
//! PostgreSQL and the in-process bus, and receivers on loopback ports. The delivery tests that
//! go through the REST API are the gateway's (`crates/gateway/tests/api/webhooks`).

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly on purpose

mod deliveries;
mod helpers;
mod migration;
mod ownership;
mod server;
mod user_data;
