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

/// Binds the service's queue to the user events (before returning, so no event published
/// afterwards is missed, even while no replica runs) and runs the intake and the dispatcher
/// until the task is aborted.
///
/// # Errors
/// The bus refuses the binding.
pub async fn start(
    webhooks: Webhooks,
    events: &dyn EventBus,
    work: Arc<dyn WorkQueue>,
) -> Result<tokio::task::JoinHandle<()>, BusError> {
    events
        .bind_queue(Topic::UserEvents, intake::QueuedEvent::QUEUE)
        .await?;
    Ok(tokio::spawn(async move {
        futures::join!(
            intake::run(webhooks.clone(), work),
            dispatcher::run(webhooks)
        );
    }))
}
