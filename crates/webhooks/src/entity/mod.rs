//! The webhook service's tables: webhooks, their outbox and their delivery log.

pub mod attempt;
pub mod delivery;
pub mod webhook;
