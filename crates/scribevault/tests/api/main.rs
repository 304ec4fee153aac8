//! End-to-end tests of the real `scribevault` binary: each test starts it as a child process
//! (monolithic, or one process per target) and talks to it over HTTP and gRPC like a client.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly on purpose

mod access;
mod auth;
mod captions;
mod conversion;
mod discovery;
mod downloads;
mod errors;
mod feeds;
mod health;
mod helpers;
mod isolation;
mod language;
mod library;
mod malformed;
mod mcp;
mod microservices;
mod model_fetch;
mod oidc;
mod oidc_provider;
mod openai;
mod owner_tools;
mod pipeline;
mod player;
mod queue;
mod realtime_polling;
mod recovery;
mod review;
mod settings;
mod tracing_propagation;
mod vault_export;
