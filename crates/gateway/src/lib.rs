//! The gateway is the only public face of Scribevault: the REST API of the spec under `/api`,
//! authentication (local accounts or an OIDC issuer) and the instance's owner model,
//! `/healthz`, `/readyz`, `/config.json` and the built SPA on the public port; `/metrics` and
//! detailed readiness on a separate admin listener.
//!
//! It holds no job state, so any number of replicas can run. It owns only accounts, members,
//! sessions, invitations and user settings; everything else it asks of the services over gRPC,
//! with a signed identity assertion for the authenticated user.

pub mod audio_stream;
pub mod auth;
mod client_config;
mod clients;
mod config;
mod context;
mod entity;
mod error;
mod feeds;
mod mcp;
mod member_data;
mod metrics;
mod migration;
mod openai;
pub mod operator;
mod readiness;
mod realtime;
mod routes;
mod security_headers;
mod startup;
mod startup_error;
mod trace;
mod user_settings;

pub use clients::ServiceAddresses;
pub use config::GatewayConfig;
pub use error::ApiError;
pub use readiness::{ReadinessCheck, ReadinessChecks};
pub use realtime::RealtimeHub;
pub use routes::openapi::document_json as openapi_document;
pub use routes::table::{Access, route_table};
pub use startup::{Gateway, GatewayDependencies, GatewayHandle};
pub use startup_error::StartupError;
