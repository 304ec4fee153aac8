//! One conformance suite, run against the in-process bus and against a real RabbitMQ.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly on purpose

use std::collections::HashSet;
use std::time::Duration;

use scribevault_bus::{
    EventBus, EventEnvelope, InProcessBus, RabbitMqBus, Topic, WorkQueue, WorkerControl,
    dead_letter_queue,
};
use scribevault_test_support::{AMQP_URL_ENV, RABBITMQCTL_ENV, real_server, unique_name};

const WAIT: Duration = Duration::from_secs(20);

trait Bus: EventBus + WorkQueue {}
impl<T: EventBus + WorkQueue> Bus for T {}

async fn in_process(max_deliveries: u32) -> Option<Box<dyn Bus>> {
    Some(Box::new(InProcessBus::new(max_deliveries)))
}

async fn rabbitmq(max_deliveries: u32) -> Option<Box<dyn Bus>> {
    let url = real_server(AMQP_URL_ENV, "bus conformance (RabbitMQ)")?;
    Some(Box::new(
        RabbitMqBus::connect(&url, max_deliveries)
            .await
            .expect("connect to RabbitMQ"),
    ))
}

async fn next_event_for(
    subscription: &mut scribevault_bus::EventSubscription,
    user: &str,
) -> EventEnvelope {
    tokio::time::timeout(WAIT, async {
        loop {
            let event = subscription.next().await.expect("subscription open");
            if event.user_id == user {
                return event;
            }
        }
    })
    .await
    .expect("event within the timeout")
}

async fn events_fan_out_to_every_subscriber(bus: Box<dyn Bus>) {
    let user = unique_name("user");
    let mut first = bus.subscribe().await.unwrap();
    let mut second = bus.subscribe().await.unwrap();
    for n in 0..3 {
        let event = EventEnvelope::new(
            "transcriptionProgress",
            &user,
            serde_json::json!({ "progress": n }),
            None,
        );
        bus.publish(&event).await.unwrap();
    }
    for subscription in [&mut first, &mut second] {
        for n in 0..3 {
            let event = next_event_for(subscription, &user).await;
            assert_eq!(event.event_type, "transcriptionProgress");
            assert_eq!(event.data["progress"], n, "events arrive in publish order");
        }
    }
}

/// Worker orders reach workers and no socket; user events reach sockets and no worker.
async fn topics_are_kept_apart(bus: Box<dyn Bus>) {
    let user = unique_name("user");
    let mut sockets = bus.subscribe().await.unwrap();
    let mut workers = bus.subscribe_on(Topic::WorkerControl).await.unwrap();
    let order = WorkerControl::StopTranscription {
        job_id: "job-1".into(),
        file_id: "file-1".into(),
        claim_token: Some(3),
    };
    bus.publish_on(
        Topic::WorkerControl,
        &EventEnvelope::for_control(&order, &user, None),
    )
    .await
    .unwrap();
    bus.publish(&EventEnvelope::new(
        "transcriptionProgress",
        &user,
        serde_json::json!({ "progress": 7 }),
        None,
    ))
    .await
    .unwrap();
    let received = next_event_for(&mut workers, &user).await;
    assert_eq!(received.control(), Some(order));
    let received = next_event_for(&mut sockets, &user).await;
    assert_eq!(
        received.event_type, "transcriptionProgress",
        "the socket's first message for the user is its event, not the worker order"
    );
    // A second order proves the worker subscription is live and was not given the event.
    bus.publish_on(
        Topic::WorkerControl,
        &EventEnvelope::for_control(
            &WorkerControl::StopTranscription {
                job_id: "job-2".into(),
                file_id: "file-2".into(),
                claim_token: None,
            },
            &user,
            None,
        ),
    )
    .await
    .unwrap();
    let received = next_event_for(&mut workers, &user).await;
    assert_eq!(received.event_type, "stopTranscription");
    assert_eq!(received.data["jobId"], "job-2");
}

async fn competing_consumers_share_the_work(bus: Box<dyn Bus>) {
    let queue = unique_name("work");
    let mut first = bus.consume(&queue).await.unwrap();
    let mut second = bus.consume(&queue).await.unwrap();
    for n in 0..10 {
        bus.enqueue(&queue, format!("job-{n}").into_bytes())
            .await
            .unwrap();
    }
    let mut seen = HashSet::new();
    let mut by_first = 0;
    tokio::time::timeout(WAIT, async {
        while seen.len() < 10 {
            let (message, from_first) = tokio::select! {
                Some(message) = first.next() => (message, true),
                Some(message) = second.next() => (message, false),
            };
            by_first += usize::from(from_first);
            assert!(
                seen.insert(message.body.clone()),
                "each message is delivered once"
            );
            assert_eq!(message.delivery_count, 1);
            // Hold on briefly so that the other consumer gets a share.
            tokio::time::sleep(Duration::from_millis(20)).await;
            message.ack().await.unwrap();
        }
    })
    .await
    .expect("all work delivered");
    assert!(
        by_first > 0 && by_first < 10,
        "both consumers got work (first got {by_first})"
    );
}

async fn unacked_work_goes_to_another_consumer_when_its_consumer_dies(bus: Box<dyn Bus>) {
    let queue = unique_name("work");
    bus.enqueue(&queue, b"precious".to_vec()).await.unwrap();
    let mut doomed = bus.consume(&queue).await.unwrap();
    let held = tokio::time::timeout(WAIT, doomed.next())
        .await
        .unwrap()
        .unwrap();
    assert_eq!(held.body, b"precious");
    let mut survivor = bus.consume(&queue).await.unwrap();
    // The consumer dies holding the message: neither ack nor nack.
    drop(doomed);
    drop(held);
    let redelivered = tokio::time::timeout(WAIT, survivor.next())
        .await
        .expect("redelivered")
        .unwrap();
    assert_eq!(redelivered.body, b"precious");
    assert_eq!(redelivered.delivery_count, 2);
    redelivered.ack().await.unwrap();
}

async fn failing_work_is_dead_lettered_after_max_deliveries(bus: Box<dyn Bus>) {
    let queue = unique_name("work");
    bus.enqueue(&queue, b"poison".to_vec()).await.unwrap();
    let mut consumer = bus.consume(&queue).await.unwrap();
    for attempt in 1..=3 {
        let message = tokio::time::timeout(WAIT, consumer.next())
            .await
            .expect("delivered")
            .unwrap();
        assert_eq!(message.delivery_count, attempt);
        message.nack().await.unwrap();
    }
    let mut dead = bus.consume(&dead_letter_queue(&queue)).await.unwrap();
    let message = tokio::time::timeout(WAIT, dead.next())
        .await
        .expect("dead-lettered")
        .unwrap();
    assert_eq!(message.body, b"poison");
    message.ack().await.unwrap();
    assert!(
        tokio::time::timeout(Duration::from_millis(500), consumer.next())
            .await
            .is_err(),
        "a dead-lettered message is not delivered again"
    );
}

/// A bound queue keeps what was published while nobody consumed it (the consumer's process was
/// down), gets only its topic's messages, and hands them out as work: what is not acknowledged
/// comes back. (On the shared broker it also gets other tests' events: they are skipped.)
async fn a_bound_queue_keeps_a_topics_events_while_nobody_consumes(bus: Box<dyn Bus>) {
    let queue = unique_name("bound");
    let user = unique_name("user");
    bus.bind_queue(Topic::UserEvents, &queue).await.unwrap();
    bus.bind_queue(Topic::UserEvents, &queue).await.unwrap();
    // Published while no consumer exists.
    for n in 0..3 {
        let event = EventEnvelope::new("libraryUpdate", &user, serde_json::json!({ "n": n }), None);
        bus.publish(&event).await.unwrap();
    }
    let order = WorkerControl::StopTranscription {
        job_id: "job-1".into(),
        file_id: "file-1".into(),
        claim_token: None,
    };
    bus.publish_on(
        Topic::WorkerControl,
        &EventEnvelope::for_control(&order, &user, None),
    )
    .await
    .unwrap();

    let mut consumer = bus.consume(&queue).await.unwrap();
    let mut seen = Vec::new();
    let mut nacked = false;
    let collected = tokio::time::timeout(WAIT, async {
        while seen.len() < 4 {
            let message = consumer.next().await.expect("consumer open");
            let event: EventEnvelope = serde_json::from_slice(&message.body).unwrap();
            if event.user_id != user {
                message.ack().await.unwrap();
                continue;
            }
            assert_eq!(
                event.event_type, "libraryUpdate",
                "only the user events' topic"
            );
            seen.push(event.data["n"].as_i64().unwrap());
            if nacked {
                message.ack().await.unwrap();
            } else {
                // Not acknowledged: it comes back.
                nacked = true;
                message.nack().await.unwrap();
            }
        }
    })
    .await;
    assert!(collected.is_ok(), "kept while nobody consumed: {seen:?}");
    let first = seen[0];
    seen.sort_unstable();
    let mut expected = vec![0, 1, 2, first];
    expected.sort_unstable();
    assert_eq!(seen, expected, "once each, the nacked one twice");
    let more = tokio::time::timeout(Duration::from_millis(500), async {
        loop {
            let message = consumer.next().await.expect("consumer open");
            let event: EventEnvelope = serde_json::from_slice(&message.body).unwrap();
            message.ack().await.unwrap();
            if event.user_id == user {
                return event;
            }
        }
    })
    .await;
    assert!(more.is_err(), "nothing more of the user's: {more:?}");
    drop(consumer);
    forget_rabbitmq_queue(&queue).await;
}

/// Deletes `queue` from the shared broker, if there is one: a bound queue left behind would
/// collect every later test's events.
async fn forget_rabbitmq_queue(queue: &str) {
    let Ok(url) = std::env::var(AMQP_URL_ENV) else {
        return;
    };
    let Ok(connection) =
        lapin::Connection::connect(&url, lapin::ConnectionProperties::default()).await
    else {
        return;
    };
    if let Ok(channel) = connection.create_channel().await {
        let _ = channel
            .queue_delete(
                format!("scribevault.{queue}").as_str().into(),
                lapin::options::QueueDeleteOptions::default(),
            )
            .await;
    }
    let _ = connection.close(200, "done".into()).await;
}

macro_rules! conformance {
    ($backend:ident) => {
        mod $backend {

            #[tokio::test]
            async fn events_fan_out_to_every_subscriber() {
                let Some(bus) = super::$backend(5).await else {
                    return;
                };
                super::events_fan_out_to_every_subscriber(bus).await;
            }

            #[tokio::test]
            async fn topics_are_kept_apart() {
                let Some(bus) = super::$backend(5).await else {
                    return;
                };
                super::topics_are_kept_apart(bus).await;
            }

            #[tokio::test]
            async fn competing_consumers_share_the_work() {
                let Some(bus) = super::$backend(5).await else {
                    return;
                };
                super::competing_consumers_share_the_work(bus).await;
            }

            #[tokio::test]
            async fn unacked_work_goes_to_another_consumer_when_its_consumer_dies() {
                let Some(bus) = super::$backend(5).await else {
                    return;
                };
                super::unacked_work_goes_to_another_consumer_when_its_consumer_dies(bus).await;
            }

            #[tokio::test]
            async fn a_bound_queue_keeps_a_topics_events_while_nobody_consumes() {
                let Some(bus) = super::$backend(5).await else {
                    return;
                };
                super::a_bound_queue_keeps_a_topics_events_while_nobody_consumes(bus).await;
            }

            #[tokio::test]
            async fn failing_work_is_dead_lettered_after_max_deliveries() {
                let Some(bus) = super::$backend(3).await else {
                    return;
                };
                super::failing_work_is_dead_lettered_after_max_deliveries(bus).await;
            }
        }
    };
}

conformance!(in_process);
conformance!(rabbitmq);

/// Drops every broker connection while messages are being published and consumed: the
/// publisher and the consumer recover, and every confirmed message is delivered.
#[tokio::test]
async fn rabbitmq_publisher_and_consumer_recover_from_dropped_connections() {
    let Some(url) = real_server(AMQP_URL_ENV, "RabbitMQ connection-drop recovery") else {
        return;
    };
    let Some(rabbitmqctl) = real_server(RABBITMQCTL_ENV, "RabbitMQ connection-drop recovery")
    else {
        return;
    };
    let bus = RabbitMqBus::connect(&url, 5).await.unwrap();
    let queue = unique_name("work");
    let mut consumer = bus.consume(&queue).await.unwrap();
    let total = 40;
    let publisher = {
        let bus = bus.clone();
        let queue = queue.clone();
        tokio::spawn(async move {
            for n in 0..total {
                bus.enqueue(&queue, format!("m{n}").into_bytes())
                    .await
                    .expect("confirmed despite the drop");
                tokio::time::sleep(Duration::from_millis(25)).await;
            }
        })
    };
    tokio::time::sleep(Duration::from_millis(300)).await;
    let status = tokio::process::Command::new("sh")
        .arg("-c")
        .arg(format!(
            "{rabbitmqctl} close_all_connections 'conformance test'"
        ))
        .status()
        .await
        .unwrap();
    assert!(status.success(), "rabbitmqctl close_all_connections");
    publisher.await.unwrap();
    let mut received = HashSet::new();
    tokio::time::timeout(Duration::from_secs(60), async {
        while received.len() < total {
            let message = consumer.next().await.expect("consumer keeps running");
            received.insert(String::from_utf8(message.body.clone()).unwrap());
            let _ = message.ack().await;
        }
    })
    .await
    .unwrap_or_else(|_| {
        panic!(
            "only {} of {total} confirmed messages arrived",
            received.len()
        )
    });
}
