//! The distributed bus on RabbitMQ (AMQP 0-9-1 through lapin).
//!
//! Topology:
//! - events: one durable topic exchange per [`Topic`] (`scribevault.events` for user events,
//!   `scribevault.worker-control` for worker orders), routing key = event type; each subscriber
//!   binds its own exclusive, auto-deleted queue to `#`, so every subscriber (every gateway
//!   replica, every worker) sees every message of its topic and nothing of the other.
//! - work: a durable quorum queue `scribevault.<name>` with `x-delivery-limit`, dead-lettering to
//!   `scribevault.<name>.dead` through the `scribevault.dead-letter` exchange. Quorum queues
//!   count deliveries themselves, so a message that kills its consumer again and again is
//!   eventually set aside instead of looping forever.
//!
//! Messages are persistent and every publish waits for the broker's confirm. A lost connection
//! (broker restart, network) is re-established with back-off by publishers and consumers alike.

use std::collections::HashSet;
use std::sync::Arc;
use std::time::Duration;

use futures::StreamExt as _;
use lapin::message::Delivery;
use lapin::options::{
    BasicAckOptions, BasicConsumeOptions, BasicNackOptions, BasicPublishOptions, BasicQosOptions,
    ConfirmSelectOptions, ExchangeDeclareOptions, QueueBindOptions, QueueDeclareOptions,
};
use lapin::types::{AMQPValue, FieldTable, LongString};
use lapin::{BasicProperties, Channel, Connection, ConnectionProperties, ExchangeKind};
use tokio::sync::{Mutex, mpsc};

use crate::{
    BusError, EventBus, EventEnvelope, EventSubscription, Settle, Topic, WorkConsumer, WorkMessage,
    WorkQueue, dead_letter_queue,
};

/// The exchange that carries `topic`.
fn exchange_of(topic: Topic) -> &'static str {
    match topic {
        Topic::UserEvents => "scribevault.events",
        Topic::WorkerControl => "scribevault.worker-control",
    }
}
const DEAD_LETTER_EXCHANGE: &str = "scribevault.dead-letter";
const PERSISTENT: u8 = 2;

/// The RabbitMQ implementation of [`EventBus`] and [`WorkQueue`].
#[derive(Clone)]
pub struct RabbitMqBus {
    inner: Arc<Inner>,
}

struct Inner {
    url: String,
    connection: Mutex<Option<Arc<Connection>>>,
    publisher: Mutex<Option<Publisher>>,
    max_deliveries: u32,
    /// How long a publish keeps retrying through a broker outage before it fails.
    publish_retry_budget: Duration,
}

struct Publisher {
    channel: Channel,
    declared_queues: HashSet<String>,
}

impl RabbitMqBus {
    /// Connects to `url`, failing fast if the broker cannot be reached now.
    ///
    /// # Errors
    /// [`BusError::Unavailable`] when the first connection fails.
    pub async fn connect(url: &str, max_deliveries: u32) -> Result<Self, BusError> {
        let bus = Self {
            inner: Arc::new(Inner {
                url: url.to_owned(),
                connection: Mutex::new(None),
                publisher: Mutex::new(None),
                max_deliveries: max_deliveries.max(1),
                publish_retry_budget: Duration::from_secs(30),
            }),
        };
        let channel = bus.inner.try_open_channel().await.map_err(unavailable)?;
        declare_topic_exchanges(&channel)
            .await
            .map_err(unavailable)?;
        let _ = channel.close(200, "ready".into()).await;
        Ok(bus)
    }
}

fn unavailable(error: lapin::Error) -> BusError {
    BusError::Unavailable(error.to_string())
}

impl Inner {
    async fn try_open_channel(&self) -> Result<Channel, lapin::Error> {
        let mut connection = self.connection.lock().await;
        if let Some(existing) = connection.as_ref()
            && existing.status().connected()
        {
            match existing.create_channel().await {
                Ok(channel) => return Ok(channel),
                Err(error) => {
                    *connection = None;
                    return Err(error);
                }
            }
        }
        let fresh =
            Arc::new(Connection::connect(&self.url, ConnectionProperties::default()).await?);
        let channel = fresh.create_channel().await?;
        *connection = Some(fresh);
        Ok(channel)
    }

    /// Opens a channel, retrying with back-off until `budget` is spent (`None`: forever, for
    /// long-lived consumers, which stop only when their owner goes away).
    async fn open_channel(
        &self,
        budget: Option<Duration>,
        stop: Option<&mpsc::Sender<impl Send>>,
    ) -> Result<Channel, BusError> {
        let started = tokio::time::Instant::now();
        let mut delay = Duration::from_millis(100);
        loop {
            match self.try_open_channel().await {
                Ok(channel) => return Ok(channel),
                Err(error) => {
                    if budget.is_some_and(|budget| started.elapsed() >= budget) {
                        return Err(unavailable(error));
                    }
                    if stop.is_some_and(mpsc::Sender::is_closed) {
                        return Err(BusError::Closed);
                    }
                    tracing::warn!(error = %error, retry_in_ms = delay.as_millis(), "message broker unreachable");
                    tokio::time::sleep(delay).await;
                    delay = (delay * 2).min(Duration::from_secs(2));
                }
            }
        }
    }

    async fn publish(
        &self,
        exchange: &str,
        routing_key: &str,
        queue: Option<&str>,
        body: &[u8],
        headers: FieldTable,
    ) -> Result<(), BusError> {
        let started = tokio::time::Instant::now();
        let properties = BasicProperties::default()
            .with_delivery_mode(PERSISTENT)
            .with_content_type("application/json".into())
            .with_headers(headers);
        loop {
            let attempt = self
                .publish_once(exchange, routing_key, queue, body, properties.clone())
                .await;
            match attempt {
                Ok(()) => return Ok(()),
                Err(PublishFailure::Refused) => return Err(BusError::NotConfirmed),
                Err(PublishFailure::Connection(error)) => {
                    *self.publisher.lock().await = None;
                    if started.elapsed() >= self.publish_retry_budget {
                        return Err(unavailable(error));
                    }
                    tracing::warn!(error = %error, "publish failed; reconnecting");
                    tokio::time::sleep(Duration::from_millis(200)).await;
                }
            }
        }
    }

    async fn publish_once(
        &self,
        exchange: &str,
        routing_key: &str,
        queue: Option<&str>,
        body: &[u8],
        properties: BasicProperties,
    ) -> Result<(), PublishFailure> {
        let mut publisher = self.publisher.lock().await;
        if publisher
            .as_ref()
            .is_none_or(|publisher| !publisher.channel.status().connected())
        {
            let channel = self.try_open_channel().await?;
            channel
                .confirm_select(ConfirmSelectOptions::default())
                .await?;
            declare_topic_exchanges(&channel).await?;
            *publisher = Some(Publisher {
                channel,
                declared_queues: HashSet::new(),
            });
        }
        let Some(active) = publisher.as_mut() else {
            unreachable!("set above")
        };
        if let Some(queue) = queue
            && !active.declared_queues.contains(queue)
        {
            declare_work_queue(&active.channel, queue, self.max_deliveries).await?;
            active.declared_queues.insert(queue.to_owned());
        }
        let confirmation = active
            .channel
            .basic_publish(
                exchange.into(),
                routing_key.into(),
                BasicPublishOptions::default(),
                body,
                properties,
            )
            .await?
            .await?;
        if confirmation.is_ack() {
            Ok(())
        } else {
            Err(PublishFailure::Refused)
        }
    }
}

enum PublishFailure {
    Connection(lapin::Error),
    Refused,
}

impl From<lapin::Error> for PublishFailure {
    fn from(error: lapin::Error) -> Self {
        Self::Connection(error)
    }
}

fn queue_name(queue: &str) -> String {
    format!("scribevault.{queue}")
}

async fn declare_topic_exchanges(channel: &Channel) -> Result<(), lapin::Error> {
    for topic in Topic::ALL {
        channel
            .exchange_declare(
                exchange_of(topic).into(),
                ExchangeKind::Topic,
                ExchangeDeclareOptions {
                    durable: true,
                    ..ExchangeDeclareOptions::default()
                },
                FieldTable::default(),
            )
            .await?;
    }
    Ok(())
}

/// Declares `queue` (and, for a work queue, its dead-letter queue). Idempotent.
async fn declare_work_queue(
    channel: &Channel,
    queue: &str,
    max_deliveries: u32,
) -> Result<(), lapin::Error> {
    let durable = QueueDeclareOptions {
        durable: true,
        ..QueueDeclareOptions::default()
    };
    if queue.ends_with(".dead") {
        channel
            .queue_declare(
                queue_name(queue).as_str().into(),
                durable,
                FieldTable::default(),
            )
            .await?;
        return Ok(());
    }
    channel
        .exchange_declare(
            DEAD_LETTER_EXCHANGE.into(),
            ExchangeKind::Direct,
            ExchangeDeclareOptions {
                durable: true,
                ..ExchangeDeclareOptions::default()
            },
            FieldTable::default(),
        )
        .await?;
    let dead = queue_name(&dead_letter_queue(queue));
    channel
        .queue_declare(dead.as_str().into(), durable, FieldTable::default())
        .await?;
    channel
        .queue_bind(
            dead.as_str().into(),
            DEAD_LETTER_EXCHANGE.into(),
            queue.into(),
            QueueBindOptions::default(),
            FieldTable::default(),
        )
        .await?;
    let mut arguments = FieldTable::default();
    arguments.insert(
        "x-queue-type".into(),
        AMQPValue::LongString(LongString::from("quorum")),
    );
    // A quorum queue dead-letters once a message has failed more than this many times.
    arguments.insert(
        "x-delivery-limit".into(),
        AMQPValue::LongLongInt(i64::from(max_deliveries.saturating_sub(1))),
    );
    arguments.insert(
        "x-dead-letter-exchange".into(),
        AMQPValue::LongString(LongString::from(DEAD_LETTER_EXCHANGE)),
    );
    arguments.insert(
        "x-dead-letter-routing-key".into(),
        AMQPValue::LongString(LongString::from(queue)),
    );
    channel
        .queue_declare(queue_name(queue).as_str().into(), durable, arguments)
        .await?;
    Ok(())
}

fn trace_headers(event: &EventEnvelope) -> FieldTable {
    let mut headers = FieldTable::default();
    if let Some(traceparent) = &event.traceparent {
        headers.insert(
            "traceparent".into(),
            AMQPValue::LongString(LongString::from(traceparent.as_str())),
        );
    }
    headers
}

fn delivery_count(properties: &BasicProperties) -> u32 {
    let previous_failures = properties
        .headers()
        .as_ref()
        .and_then(|headers| headers.inner().get("x-delivery-count"))
        .and_then(|value| match value {
            AMQPValue::LongLongInt(n) => u32::try_from(*n).ok(),
            AMQPValue::LongInt(n) => u32::try_from(*n).ok(),
            AMQPValue::LongUInt(n) => Some(*n),
            AMQPValue::ShortInt(n) => u32::try_from(*n).ok(),
            _ => None,
        })
        .unwrap_or(0);
    previous_failures + 1
}

#[async_trait::async_trait]
impl EventBus for RabbitMqBus {
    async fn publish_on(&self, topic: Topic, event: &EventEnvelope) -> Result<(), BusError> {
        let body = serde_json::to_vec(event)?;
        self.inner
            .publish(
                exchange_of(topic),
                &event.event_type,
                None,
                &body,
                trace_headers(event),
            )
            .await
    }

    async fn subscribe_on(&self, topic: Topic) -> Result<EventSubscription, BusError> {
        let (sender, receiver) = mpsc::channel(1024);
        let inner = self.inner.clone();
        // Bind before returning, so that events published after `subscribe` returns arrive.
        let feed = EventFeed { topic };
        let consumer = open_consumer(&inner, &feed, None).await?;
        tokio::spawn(forward(inner, feed, consumer, sender));
        Ok(EventSubscription::new(receiver))
    }

    async fn bind_queue(&self, topic: Topic, queue: &str) -> Result<(), BusError> {
        let channel = self.inner.try_open_channel().await.map_err(unavailable)?;
        let bound = async {
            declare_topic_exchanges(&channel).await?;
            declare_work_queue(&channel, queue, self.inner.max_deliveries).await?;
            channel
                .queue_bind(
                    queue_name(queue).as_str().into(),
                    exchange_of(topic).into(),
                    "#".into(),
                    QueueBindOptions::default(),
                    FieldTable::default(),
                )
                .await
        }
        .await;
        let _ = channel.close(200, "bound".into()).await;
        bound.map_err(unavailable)
    }

    async fn check_ready(&self) -> Result<(), BusError> {
        let channel = self.inner.try_open_channel().await.map_err(unavailable)?;
        let _ = channel.close(200, "ready".into()).await;
        Ok(())
    }
}

#[async_trait::async_trait]
impl WorkQueue for RabbitMqBus {
    async fn enqueue(&self, queue: &str, body: Vec<u8>) -> Result<(), BusError> {
        self.inner
            .publish(
                "",
                &queue_name(queue),
                Some(queue),
                &body,
                FieldTable::default(),
            )
            .await
    }

    async fn consume(&self, queue: &str) -> Result<WorkConsumer, BusError> {
        let (sender, receiver) = mpsc::channel(1);
        let feed = WorkFeed {
            queue: queue.to_owned(),
        };
        let consumer = open_consumer(&self.inner, &feed, None).await?;
        tokio::spawn(forward(self.inner.clone(), feed, consumer, sender));
        Ok(WorkConsumer::new(receiver, None))
    }
}

/// One kind of consumer: the user events and worker orders of a topic (no acks), or the
/// messages of a work queue (settled by whoever receives them). [`forward`] runs either.
trait Feed: Send + Sync + 'static {
    /// What the receiver gets.
    type Item: Send + 'static;
    /// Why the channel is closed once the receiver is gone.
    const GONE: &'static str;

    /// Declares what the consumer reads and starts consuming it on `channel`.
    fn consume_on<'a>(
        &'a self,
        inner: &'a Inner,
        channel: &'a Channel,
    ) -> impl Future<Output = Result<lapin::Consumer, lapin::Error>> + Send + 'a;

    /// The settle step: what the receiver gets for a delivery (`None` drops it).
    fn receive(&self, delivery: Delivery) -> Option<Self::Item>;

    /// Logs that the consumer lost its channel and is reconnecting.
    fn lost(&self, error: &lapin::Error);
}

/// Opens a channel and a consumer on it: within the publish retry budget for the first one
/// (the caller hears of a broker that is down), or until `stop`'s receiver is gone for a
/// reconnect.
async fn open_consumer<F: Feed>(
    inner: &Inner,
    feed: &F,
    stop: Option<&mpsc::Sender<F::Item>>,
) -> Result<(Channel, lapin::Consumer), BusError> {
    let budget = if stop.is_some() {
        None
    } else {
        Some(inner.publish_retry_budget)
    };
    let channel = inner.open_channel(budget, stop).await?;
    let consumer = feed
        .consume_on(inner, &channel)
        .await
        .map_err(unavailable)?;
    Ok((channel, consumer))
}

/// Hands each delivery to `sender` until its receiver is gone, reconnecting (with back-off,
/// for as long as it takes) whenever the channel is lost.
async fn forward<F: Feed>(
    inner: Arc<Inner>,
    feed: F,
    mut current: (Channel, lapin::Consumer),
    sender: mpsc::Sender<F::Item>,
) {
    loop {
        let (channel, consumer) = &mut current;
        loop {
            let delivery = tokio::select! {
                delivery = consumer.next() => delivery,
                () = sender.closed() => {
                    // Closing the channel hands a work queue every unacknowledged message back.
                    let _ = channel.close(200, F::GONE.into()).await;
                    return;
                }
            };
            match delivery {
                Some(Ok(delivery)) => {
                    if let Some(item) = feed.receive(delivery)
                        && sender.send(item).await.is_err()
                    {
                        let _ = channel.close(200, F::GONE.into()).await;
                        return;
                    }
                }
                Some(Err(error)) => {
                    feed.lost(&error);
                    break;
                }
                None => break,
            }
        }
        match open_consumer(&inner, &feed, Some(&sender)).await {
            Ok(reopened) => current = reopened,
            Err(_) => return,
        }
    }
}

/// The events of one topic, on an exclusive queue bound to everything.
struct EventFeed {
    topic: Topic,
}

impl Feed for EventFeed {
    type Item = EventEnvelope;
    const GONE: &'static str = "subscriber gone";

    async fn consume_on(
        &self,
        _inner: &Inner,
        channel: &Channel,
    ) -> Result<lapin::Consumer, lapin::Error> {
        declare_topic_exchanges(channel).await?;
        let queue = channel
            .queue_declare(
                "".into(),
                QueueDeclareOptions {
                    exclusive: true,
                    auto_delete: true,
                    ..QueueDeclareOptions::default()
                },
                FieldTable::default(),
            )
            .await?;
        channel
            .queue_bind(
                queue.name().clone(),
                exchange_of(self.topic).into(),
                "#".into(),
                QueueBindOptions::default(),
                FieldTable::default(),
            )
            .await?;
        channel
            .basic_consume(
                queue.name().clone(),
                "".into(),
                BasicConsumeOptions {
                    no_ack: true,
                    ..BasicConsumeOptions::default()
                },
                FieldTable::default(),
            )
            .await
    }

    fn receive(&self, delivery: Delivery) -> Option<EventEnvelope> {
        serde_json::from_slice(&delivery.data)
            .inspect_err(|error| tracing::warn!(error = %error, "dropping undecodable event"))
            .ok()
    }

    fn lost(&self, error: &lapin::Error) {
        tracing::warn!(error = %error, "event subscription lost; resubscribing");
    }
}

/// The messages of one work queue, one unacknowledged at a time.
struct WorkFeed {
    queue: String,
}

impl Feed for WorkFeed {
    type Item = WorkMessage;
    const GONE: &'static str = "consumer gone";

    async fn consume_on(
        &self,
        inner: &Inner,
        channel: &Channel,
    ) -> Result<lapin::Consumer, lapin::Error> {
        declare_work_queue(channel, &self.queue, inner.max_deliveries).await?;
        channel.basic_qos(1, BasicQosOptions::default()).await?;
        channel
            .basic_consume(
                queue_name(&self.queue).as_str().into(),
                "".into(),
                BasicConsumeOptions::default(),
                FieldTable::default(),
            )
            .await
    }

    fn receive(&self, delivery: Delivery) -> Option<WorkMessage> {
        let count = delivery_count(&delivery.properties);
        let settle = RabbitSettle {
            acker: Some(delivery.acker),
        };
        Some(WorkMessage::new(delivery.data, count, Box::new(settle)))
    }

    fn lost(&self, error: &lapin::Error) {
        tracing::warn!(error = %error, queue = %self.queue, "work consumer lost its channel; reconnecting");
    }
}

struct RabbitSettle {
    acker: Option<lapin::Acker>,
}

#[async_trait::async_trait]
impl Settle for RabbitSettle {
    async fn ack(&mut self) -> Result<(), BusError> {
        let Some(acker) = self.acker.take() else {
            return Ok(());
        };
        acker
            .ack(BasicAckOptions::default())
            .await
            .map(|_| ())
            .map_err(unavailable)
    }

    async fn nack(&mut self) -> Result<(), BusError> {
        let Some(acker) = self.acker.take() else {
            return Ok(());
        };
        acker
            .nack(BasicNackOptions {
                requeue: true,
                ..BasicNackOptions::default()
            })
            .await
            .map(|_| ())
            .map_err(unavailable)
    }
}

impl Drop for RabbitSettle {
    fn drop(&mut self) {
        if let Some(acker) = self.acker.take()
            && let Ok(runtime) = tokio::runtime::Handle::try_current()
        {
            runtime.spawn(async move {
                let _ = acker
                    .nack(BasicNackOptions {
                        requeue: true,
                        ..BasicNackOptions::default()
                    })
                    .await;
            });
        }
    }
}
