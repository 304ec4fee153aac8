//! What the service delivers by itself: a user event reaches the webhooks of that user only,
//! once, with the event's data.

use crate::helpers::{Receiver, spawn_app};

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
