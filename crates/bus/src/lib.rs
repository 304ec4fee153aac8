//! Messaging between services, behind two small traits with an in-process and a RabbitMQ
//! implementation each:
//!
//! - [`EventBus`]: fan-out on a [`Topic`]. Every subscriber of a topic sees every event published
//!   on it after it subscribed. User events feed the realtime sockets: cheap to lose (a page can
//!   reload state) but they must reach every gateway replica. Worker control carries stop orders
//!   to workers, so workers never read every user's UI traffic.
//! - [`WorkQueue`]: competing consumers with explicit acknowledgement. A message that is not
//!   acknowledged (the consumer nacks it, drops it, dies or loses its connection) is delivered
//!   again; after `max_deliveries` it moves to the queue's dead-letter queue (`<queue>.dead`).
//!
//! The database stays the source of truth for jobs: a work message only says "look at X", so
//! at-least-once delivery is harmless as long as handlers are idempotent.

pub mod consumer;
pub mod contract;
mod envelope;
mod in_process;
mod rabbitmq;
pub mod review;
pub mod subtitles;
pub mod webhook;
pub mod wire;

use std::sync::Arc;

pub use consumer::{Settlement, run_work_consumer};
pub use contract::{Event, WorkItem, WorkerControl};
pub use envelope::EventEnvelope;
pub use in_process::InProcessBus;
pub use rabbitmq::RabbitMqBus;

/// Why a bus operation failed.
#[derive(Debug, thiserror::Error)]
pub enum BusError {
    /// The broker could not be reached (within the retry budget).
    #[error("message broker unavailable: {0}")]
    Unavailable(String),
    /// The broker refused to take responsibility for a message (publisher confirm was a nack).
    #[error("message broker did not confirm the message")]
    NotConfirmed,
    /// A message could not be encoded or decoded.
    #[error("invalid message: {0}")]
    Codec(#[from] serde_json::Error),
    /// The bus was closed.
    #[error("bus closed")]
    Closed,
}

/// A fan-out channel. Topics are separate: a subscriber of one never sees another's messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Topic {
    /// The spec's realtime events, for the owner's sockets ([`Event`]).
    UserEvents,
    /// Orders to transcription workers ([`WorkerControl`]).
    WorkerControl,
}

impl Topic {
    /// Both topics.
    pub const ALL: [Self; 2] = [Self::UserEvents, Self::WorkerControl];
}

/// Fan-out of events to every subscriber of a topic.
#[async_trait::async_trait]
pub trait EventBus: Send + Sync {
    /// Publishes one message on `topic`; returns once the broker has accepted it.
    async fn publish_on(&self, topic: Topic, event: &EventEnvelope) -> Result<(), BusError>;
    /// A new subscription that receives every message published on `topic` from now on.
    async fn subscribe_on(&self, topic: Topic) -> Result<EventSubscription, BusError>;
    /// Publishes one user event.
    async fn publish(&self, event: &EventEnvelope) -> Result<(), BusError> {
        self.publish_on(Topic::UserEvents, event).await
    }
    /// A new subscription to user events.
    async fn subscribe(&self) -> Result<EventSubscription, BusError> {
        self.subscribe_on(Topic::UserEvents).await
    }
    /// From now on, every message published on `topic` is also put on work queue `queue`,
    /// which keeps them while nobody consumes it (durably on RabbitMQ). A fan-out subscription
    /// misses what is published while its process is down; a service that must see every
    /// event (webhooks: each one is a delivery somebody waits for) reads a bound queue instead,
    /// with [`WorkQueue::consume`] and acknowledgements like any work. Idempotent.
    async fn bind_queue(&self, topic: Topic, queue: &str) -> Result<(), BusError>;
    /// Whether the bus can currently talk to its broker (for readiness probes).
    async fn check_ready(&self) -> Result<(), BusError>;
}

/// Competing-consumer work queues with explicit acknowledgement.
#[async_trait::async_trait]
pub trait WorkQueue: Send + Sync {
    /// Adds a message to `queue`; returns once it is durably accepted.
    async fn enqueue(&self, queue: &str, body: Vec<u8>) -> Result<(), BusError>;
    /// Starts consuming `queue`. Several consumers of one queue share its messages.
    async fn consume(&self, queue: &str) -> Result<WorkConsumer, BusError>;
}

/// Enqueues a typed work message on its own queue.
///
/// # Errors
/// The message cannot be encoded or the queue refuses it.
pub async fn enqueue_work<M: WorkItem>(work: &dyn WorkQueue, item: &M) -> Result<(), BusError> {
    work.enqueue(M::QUEUE, serde_json::to_vec(item)?).await
}

/// A stream of events for one subscriber.
pub struct EventSubscription {
    receiver: tokio::sync::mpsc::Receiver<EventEnvelope>,
}

impl EventSubscription {
    pub(crate) fn new(receiver: tokio::sync::mpsc::Receiver<EventEnvelope>) -> Self {
        Self { receiver }
    }

    /// The next event; `None` once the bus has shut down.
    pub async fn next(&mut self) -> Option<EventEnvelope> {
        self.receiver.recv().await
    }
}

/// Receives work messages from one queue. Dropping it returns its unacknowledged messages to
/// the queue.
pub struct WorkConsumer {
    receiver: tokio::sync::mpsc::Receiver<WorkMessage>,
    _guard: Option<Arc<dyn Send + Sync>>,
}

impl WorkConsumer {
    pub(crate) fn new(
        receiver: tokio::sync::mpsc::Receiver<WorkMessage>,
        guard: Option<Arc<dyn Send + Sync>>,
    ) -> Self {
        Self {
            receiver,
            _guard: guard,
        }
    }

    /// The next message; `None` once the bus has shut down.
    pub async fn next(&mut self) -> Option<WorkMessage> {
        self.receiver.recv().await
    }
}

/// What happens to a message when its handler is done with it.
#[async_trait::async_trait]
pub(crate) trait Settle: Send + Sync {
    async fn ack(&mut self) -> Result<(), BusError>;
    async fn nack(&mut self) -> Result<(), BusError>;
}

/// One delivery of a work message. Exactly one of [`WorkMessage::ack`] or
/// [`WorkMessage::nack`] should be called; dropping it unsettled counts as a failed delivery.
pub struct WorkMessage {
    /// The message body as enqueued.
    pub body: Vec<u8>,
    /// 1 on the first delivery, 2 on the first redelivery, and so on.
    pub delivery_count: u32,
    settle: Box<dyn Settle>,
}

impl WorkMessage {
    pub(crate) fn new(body: Vec<u8>, delivery_count: u32, settle: Box<dyn Settle>) -> Self {
        Self {
            body,
            delivery_count,
            settle,
        }
    }

    /// The work is done: remove the message for good.
    ///
    /// # Errors
    /// The acknowledgement could not reach the broker; the message will be delivered again.
    pub async fn ack(mut self) -> Result<(), BusError> {
        self.settle.ack().await
    }

    /// The work failed: deliver the message again (or dead-letter it after too many tries).
    ///
    /// # Errors
    /// The broker could not be told; it will redeliver when the connection closes anyway.
    pub async fn nack(mut self) -> Result<(), BusError> {
        self.settle.nack().await
    }
}

/// The dead-letter queue that collects messages of `queue` that failed too often.
#[must_use]
pub fn dead_letter_queue(queue: &str) -> String {
    format!("{queue}.dead")
}
