//! Webhooks: a member's URLs called when something happens to their work (an item made in the
//! Vault, a transcript done or given up on, a download done, a sync that found new videos),
//! signed the Standard Webhooks way (docs/integrations.md).
//!
//! The user events reach the service through a queue bound to their topic, which keeps them
//! while no replica runs; each becomes one delivery per event and webhook in an outbox table
//! that is unique on the pair, so an event delivered again adds nothing; deliveries are then
//! claimed by one replica at a time with a conditional update (ADR 0021, ADR 0025). The outbox also carries the retries, which outlive a restart. It is the only
//! service that calls out to members' URLs, so its network policy alone lets them out
//! (ADR 0025).

mod config;
mod delivery;
mod domain;
mod entity;
mod error;
mod grpc;
mod jobs;
mod migration;
mod service;
mod startup;
mod store;

pub use config::WebhookConfig;
pub use error::WebhookError;
pub use migration::CREATE_WEBHOOKS;
pub use startup::WebhooksServer;
