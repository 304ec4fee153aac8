//! What the service delivers by itself: a user event reaches the webhooks of that user only,
//! once, with the event's data.

use crate::helpers::{Receiver, publish_item_created, spawn_app, spawn_app_with};

#[tokio::test]
async fn an_event_reaches_its_users_webhooks_only() {
    let app = spawn_app().await;
    let (alices, bobs) = (Receiver::default(), Receiver::default());
    let made = app.create("alice", &alices.start().await).await;
    app.create("bob", &bobs.start().await).await;

    app.item_created("alice", "item-1").await;
    let bodies = alices.wait_for(1).await;
    assert_eq!(bodies[0]["type"], "item.created");
    assert_eq!(bodies[0]["data"]["transcript"]["id"], "item-1");
    tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    assert_eq!(alices.bodies().len(), 1, "delivered once");
    assert!(
        bobs.bodies().is_empty(),
        "bob's webhook hears nothing of alice's"
    );
    let attempts = app.attempts("alice", &made.webhook.unwrap().id).await;
    assert_eq!(attempts.len(), 1);
    assert_eq!(attempts[0].status_code, Some(200));
    assert!(attempts[0].succeeded);
}

/// The service restarts (a deploy, a crash): what the library published meanwhile is kept on
/// the service's bound queue and delivered once it is back, not lost as a fan-out subscription
/// would lose it.
#[tokio::test]
async fn events_published_while_the_service_is_down_are_delivered_when_it_is_back() {
    let app = spawn_app().await;
    let receiver = Receiver::default();
    app.create("alice", &receiver.start().await).await;
    app.item_created("alice", "before").await;
    receiver.wait_for(1).await;
    let (db, bus) = app.stopped().await;

    publish_item_created(&bus, "alice", "while-down").await;
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    assert_eq!(
        receiver.bodies().len(),
        1,
        "nobody delivers while the service is down"
    );

    let _back = spawn_app_with(db, bus).await;
    let bodies = receiver.wait_for(2).await;
    assert_eq!(bodies[1]["data"]["transcript"]["id"], "while-down");
    tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    assert_eq!(receiver.bodies().len(), 2, "each once");
}
