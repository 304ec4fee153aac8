//! What a webhook is, what it may subscribe to, and what one attempt of a delivery came to:
//! free of transport and ORM types. The event names and the body receivers get are the bus's
//! contract (`scribevault_bus::webhook`), shared with the gateway's API.

mod attempt;
mod webhook;

pub use attempt::{Attempt, ClaimedDelivery, DeliveryState};
pub use scribevault_bus::webhook::{WebhookData, WebhookEvent, WebhookPayload, WebhookTest};
pub use webhook::{
    LOG_LENGTH, MAX_DESCRIPTION_CHARS, MAX_WEBHOOKS_PER_USER, NewWebhook, Webhook, WebhookChange,
    checked_description, checked_events,
};
