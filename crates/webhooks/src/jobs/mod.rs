//! Events in, deliveries out. Every replica runs both halves: the intake records a delivery
//! for each event a webhook wants (the replicas share the bound queue, and the outbox's unique
//! key makes a redelivered event's copy one), and the dispatcher claims due deliveries one at a
//! time per delivery and makes one attempt.

mod dispatcher;
mod intake;

use std::sync::Arc;

use scribevault_bus::contract::WorkItem as _;
use scribevault_bus::{BusError, EventBus, Topic, WorkQueue};

use crate::service::Webhooks;

/// Binds the service's queue to the user events: from its return on, no event is missed, even
/// while no replica runs. Done when the service is built, before anything can publish to it.
///
/// # Errors
/// The bus refuses the binding.
pub async fn bind(events: &dyn EventBus) -> Result<(), BusError> {
    events
        .bind_queue(Topic::UserEvents, intake::QueuedEvent::QUEUE)
        .await
}

/// Runs the intake and the dispatcher until the task is aborted.
pub fn start(webhooks: Webhooks, work: Arc<dyn WorkQueue>) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        futures::join!(
            intake::run(webhooks.clone(), work),
            dispatcher::run(webhooks)
        );
    })
}
