//! Events in, deliveries out. Every replica runs both halves: the intake records a delivery
//! for each event a webhook wants (the outbox's unique key makes the replicas' copies one),
//! and the dispatcher claims due deliveries one at a time per delivery and makes one attempt.

mod dispatcher;
mod intake;

use scribevault_bus::{BusError, EventBus};

use crate::service::Webhooks;

/// Subscribes to the user events (before returning, so no event published afterwards is
/// missed) and runs the intake and the dispatcher until the task is aborted.
///
/// # Errors
/// The bus refuses the subscription.
pub async fn start(
    webhooks: Webhooks,
    events: &dyn EventBus,
) -> Result<tokio::task::JoinHandle<()>, BusError> {
    let subscription = events.subscribe().await?;
    Ok(tokio::spawn(async move {
        futures::join!(
            intake::run(webhooks.clone(), subscription),
            dispatcher::run(webhooks)
        );
    }))
}
