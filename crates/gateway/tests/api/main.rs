//! The gateway's REST mapping, tested through its HTTP API in this process: the real actix
//! server on a loopback port, SQLite in a temp dir, the in-process bus, and fake gRPC services
//! that record what the gateway sent them (status codes, the parsing of query strings and
//! bodies, the views, the error shape, the caller's identity).

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly on purpose

mod access;
mod conversion;
mod errors;
mod helpers;
mod library;
mod openapi;
mod tokens;
mod webhooks;
