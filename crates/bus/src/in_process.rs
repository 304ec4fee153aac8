//! The embedded bus: the same semantics as RabbitMQ, inside one process.
//!
//! Events go through a broadcast channel (each subscriber gets its own copy; a subscriber that
//! falls more than the buffer behind loses the oldest, as a real-time client would). Work queues
//! keep a ready list per queue; a delivery that is dropped without an ack goes back to the list,
//! which is what RabbitMQ does when a consumer's channel closes.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex, PoisonError};

use tokio::sync::{Notify, broadcast, mpsc};

use crate::{
    BusError, EventBus, EventEnvelope, EventSubscription, Settle, Topic, WorkConsumer, WorkMessage,
    WorkQueue, dead_letter_queue,
};

const EVENT_BUFFER: usize = 1024;

/// The in-process implementation of [`EventBus`] and [`WorkQueue`].
#[derive(Clone)]
pub struct InProcessBus {
    events: broadcast::Sender<EventEnvelope>,
    worker_control: broadcast::Sender<EventEnvelope>,
    queues: Arc<Mutex<HashMap<String, Arc<Queue>>>>,
    /// Work queues that get a copy of each message of a topic ([`EventBus::bind_queue`]).
    bound: Arc<Mutex<Vec<(Topic, String)>>>,
    max_deliveries: u32,
}

struct Queue {
    ready: Mutex<VecDeque<PendingMessage>>,
    available: Notify,
    dead_letters: Option<Arc<Queue>>,
    max_deliveries: u32,
}

struct PendingMessage {
    body: Vec<u8>,
    deliveries: u32,
}

impl InProcessBus {
    /// A new bus; a work message delivered `max_deliveries` times without an ack is dead-lettered.
    #[must_use]
    pub fn new(max_deliveries: u32) -> Self {
        let (events, _) = broadcast::channel(EVENT_BUFFER);
        let (worker_control, _) = broadcast::channel(EVENT_BUFFER);
        Self {
            events,
            worker_control,
            queues: Arc::default(),
            bound: Arc::default(),
            max_deliveries: max_deliveries.max(1),
        }
    }

    fn topic(&self, topic: Topic) -> &broadcast::Sender<EventEnvelope> {
        match topic {
            Topic::UserEvents => &self.events,
            Topic::WorkerControl => &self.worker_control,
        }
    }

    fn queue(&self, name: &str) -> Arc<Queue> {
        let mut queues = self.queues.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(queue) = queues.get(name) {
            return queue.clone();
        }
        let dead_name = dead_letter_queue(name);
        let dead_letters = if name.ends_with(".dead") {
            None
        } else {
            Some(
                queues
                    .entry(dead_name)
                    .or_insert_with(|| Arc::new(Queue::new(None, u32::MAX)))
                    .clone(),
            )
        };
        queues
            .entry(name.to_owned())
            .or_insert_with(|| Arc::new(Queue::new(dead_letters, self.max_deliveries)))
            .clone()
    }
}

impl Queue {
    fn new(dead_letters: Option<Arc<Queue>>, max_deliveries: u32) -> Self {
        Self {
            ready: Mutex::default(),
            available: Notify::new(),
            dead_letters,
            max_deliveries,
        }
    }

    fn push(&self, message: PendingMessage) {
        self.ready
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push_back(message);
        self.available.notify_one();
    }

    fn pop(&self) -> Option<PendingMessage> {
        self.ready
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .pop_front()
    }

    /// A delivery failed: try again, or give up and dead-letter it.
    fn return_failed(&self, message: PendingMessage) {
        match &self.dead_letters {
            Some(dead) if message.deliveries >= self.max_deliveries => {
                tracing::warn!(
                    deliveries = message.deliveries,
                    "work message dead-lettered"
                );
                dead.push(PendingMessage {
                    body: message.body,
                    deliveries: 0,
                });
            }
            _ => self.push(message),
        }
    }

    async fn next(&self) -> PendingMessage {
        loop {
            let notified = self.available.notified();
            tokio::pin!(notified);
            notified.as_mut().enable();
            if let Some(message) = self.pop() {
                return message;
            }
            notified.await;
        }
    }
}

impl Default for InProcessBus {
    fn default() -> Self {
        Self::new(5)
    }
}

#[async_trait::async_trait]
impl EventBus for InProcessBus {
    async fn publish_on(&self, topic: Topic, event: &EventEnvelope) -> Result<(), BusError> {
        let bound: Vec<String> = self
            .bound
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .iter()
            .filter(|(bound_topic, _)| *bound_topic == topic)
            .map(|(_, queue)| queue.clone())
            .collect();
        for queue in bound {
            self.queue(&queue).push(PendingMessage {
                body: serde_json::to_vec(event)?,
                deliveries: 0,
            });
        }
        // No subscriber is not an error: nobody is listening right now.
        let _ = self.topic(topic).send(event.clone());
        Ok(())
    }

    async fn bind_queue(&self, topic: Topic, queue: &str) -> Result<(), BusError> {
        let mut bound = self.bound.lock().unwrap_or_else(PoisonError::into_inner);
        if !bound.iter().any(|(t, q)| *t == topic && q == queue) {
            bound.push((topic, queue.to_owned()));
        }
        Ok(())
    }

    async fn subscribe_on(&self, topic: Topic) -> Result<EventSubscription, BusError> {
        let mut source = self.topic(topic).subscribe();
        let (sender, receiver) = mpsc::channel(EVENT_BUFFER);
        tokio::spawn(async move {
            loop {
                match source.recv().await {
                    Ok(event) => {
                        if sender.send(event).await.is_err() {
                            return;
                        }
                    }
                    Err(broadcast::error::RecvError::Lagged(missed)) => {
                        tracing::warn!(
                            missed,
                            "event subscriber fell behind; oldest events dropped"
                        );
                    }
                    Err(broadcast::error::RecvError::Closed) => return,
                }
            }
        });
        Ok(EventSubscription::new(receiver))
    }

    async fn check_ready(&self) -> Result<(), BusError> {
        Ok(())
    }
}

#[async_trait::async_trait]
impl WorkQueue for InProcessBus {
    async fn enqueue(&self, queue: &str, body: Vec<u8>) -> Result<(), BusError> {
        self.queue(queue).push(PendingMessage {
            body,
            deliveries: 0,
        });
        Ok(())
    }

    async fn consume(&self, queue: &str) -> Result<WorkConsumer, BusError> {
        let queue = self.queue(queue);
        // Capacity 1: a consumer holds at most one message it has not started on (prefetch 1).
        let (sender, receiver) = mpsc::channel::<WorkMessage>(1);
        tokio::spawn(async move {
            loop {
                let Ok(permit) = sender.reserve().await else {
                    return;
                };
                let mut message = tokio::select! {
                    message = queue.next() => message,
                    () = sender.closed() => return,
                };
                message.deliveries += 1;
                let delivery_count = message.deliveries;
                let body = message.body.clone();
                let settle = InProcessSettle {
                    queue: queue.clone(),
                    message: Some(message),
                };
                permit.send(WorkMessage::new(body, delivery_count, Box::new(settle)));
            }
        });
        Ok(WorkConsumer::new(receiver, None))
    }
}

struct InProcessSettle {
    queue: Arc<Queue>,
    message: Option<PendingMessage>,
}

#[async_trait::async_trait]
impl Settle for InProcessSettle {
    async fn ack(&mut self) -> Result<(), BusError> {
        self.message = None;
        Ok(())
    }

    async fn nack(&mut self) -> Result<(), BusError> {
        if let Some(message) = self.message.take() {
            self.queue.return_failed(message);
        }
        Ok(())
    }
}

impl Drop for InProcessSettle {
    fn drop(&mut self) {
        // Dropped unsettled: the consumer died or gave up, exactly like a closed AMQP channel.
        if let Some(message) = self.message.take() {
            self.queue.return_failed(message);
        }
    }
}
