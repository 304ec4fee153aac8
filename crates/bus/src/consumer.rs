//! The one loop every queue consumer runs: take a message, decode it, hand it to the
//! service's handler inside a span, settle it as the handler says, and stop on shutdown.
//! Services write handlers, never this loop.

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use tracing::Instrument as _;

use crate::WorkQueue;
use crate::contract::WorkItem;

/// What a handler decided about its message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Settlement {
    /// Done (or nothing left to do): remove the message.
    Done,
    /// Failed in a way another delivery may fix: deliver it again (dead-lettered after the
    /// queue's delivery limit).
    Retry,
}

/// How long to wait before asking the broker for the queue again when it is unreachable.
const RECONSUME_AFTER: Duration = Duration::from_secs(1);

/// Consumes `M::QUEUE` until `shutdown` resolves, running at most `concurrency` handlers at
/// once. `span` names the span each handler runs in (given the message and its delivery count);
/// the loop makes it a child of the producer's trace (the message's `traceparent`). A message that cannot be decoded is
/// logged, counted and removed: no delivery can fix it. Handlers still running at shutdown are
/// dropped unsettled, so the queue hands their messages to another consumer.
pub async fn run_work_consumer<M, Handler, Handled, SpanFor>(
    work: Arc<dyn WorkQueue>,
    concurrency: usize,
    shutdown: impl Future<Output = ()> + Send,
    span: SpanFor,
    handler: Handler,
) where
    M: WorkItem,
    Handler: Fn(M, u32) -> Handled + Send + Sync + 'static,
    Handled: Future<Output = Settlement> + Send + 'static,
    SpanFor: Fn(&M, u32) -> tracing::Span,
{
    tokio::pin!(shutdown);
    let mut consumer = loop {
        match work.consume(M::QUEUE).await {
            Ok(consumer) => break consumer,
            Err(error) => {
                tracing::warn!(error = %error, queue = M::QUEUE, "cannot consume the queue yet");
                tokio::select! {
                    () = &mut shutdown => return,
                    () = tokio::time::sleep(RECONSUME_AFTER) => {}
                }
            }
        }
    };
    let handler = Arc::new(handler);
    let slots = Arc::new(tokio::sync::Semaphore::new(concurrency.max(1)));
    let mut running = tokio::task::JoinSet::new();
    let mut undecodable: u64 = 0;
    loop {
        let Ok(slot) = slots.clone().acquire_owned().await else {
            break;
        };
        let message = tokio::select! {
            () = &mut shutdown => break,
            message = consumer.next() => message,
        };
        let Some(message) = message else { break };
        let item: M = match serde_json::from_slice(&message.body) {
            Ok(item) => item,
            Err(error) => {
                undecodable += 1;
                tracing::error!(error = %error, queue = M::QUEUE, undecodable, "undecodable work message removed");
                if let Err(error) = message.ack().await {
                    tracing::warn!(error = %error, queue = M::QUEUE, "could not remove an undecodable message");
                }
                continue;
            }
        };
        let delivery = message.delivery_count;
        let span = span(&item, delivery);
        if let Some(traceparent) = item.traceparent() {
            scribevault_core::telemetry::set_parent_from_traceparent(&span, traceparent);
        }
        let handled = handler(item, delivery);
        running.spawn(
            async move {
                let _slot = slot;
                let settled = match handled.await {
                    Settlement::Done => message.ack().await,
                    Settlement::Retry => {
                        tracing::warn!(queue = M::QUEUE, "work failed; it will be delivered again");
                        message.nack().await
                    }
                };
                if let Err(error) = settled {
                    // The broker will deliver it again; handlers are idempotent.
                    tracing::warn!(error = %error, queue = M::QUEUE, "could not settle a work message");
                }
            }
            .instrument(span),
        );
        while running.try_join_next().is_some() {}
    }
    running.abort_all();
}
