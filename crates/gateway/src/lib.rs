//! The gateway is the only public face of Scribevault: the REST API of the spec under `/api`,
//! authentication (local accounts or an OIDC issuer), `/healthz`, `/readyz`, `/metrics`,
//! `/config.json` and the built SPA.
//!
//! It holds no job state, so any number of replicas can run. It owns only local accounts and
//! user settings; everything else it asks of the services over gRPC, passing the authenticated
//! user id in metadata.

pub mod auth;
mod clients;
mod entity;
mod error;
mod metrics;
mod migration;
mod readiness;
mod realtime;
mod routes;
mod startup;
mod trace;
mod user_settings;

pub use clients::ServiceAddresses;
pub use error::ApiError;
pub use readiness::{ReadinessCheck, ReadinessChecks};
pub use realtime::RealtimeHub;
pub use startup::{Gateway, GatewayDependencies, StartupError};
