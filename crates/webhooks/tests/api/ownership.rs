//! Every RPC acts for the caller its signed identity names: another member's webhook is as
//! unknown as a made-up id, and a call without an identity is refused.

use scribevault_proto::webhooks::v1 as pb;
use tonic::Code;

use crate::helpers::{Receiver, as_user, spawn_app};

#[tokio::test]
async fn another_members_webhook_answers_not_found_on_every_rpc() {
    let app = spawn_app().await;
    let receiver = Receiver::default();
    let url = receiver.start().await;
    let made = app.create("alice", &url).await;
    let id = made.webhook.unwrap().id;
    let client = || app.client.clone();
    let as_bob = |message| as_user("bob", message);
    let codes = [
        client()
            .update_webhook(as_bob(pb::UpdateWebhookRequest {
                id: id.clone(),
                enabled: Some(false),
                ..Default::default()
            }))
            .await
            .map(|_| ()),
        client()
            .delete_webhook(as_user("bob", pb::DeleteWebhookRequest { id: id.clone() }))
            .await
            .map(|_| ()),
        client()
            .rotate_webhook_secret(as_user(
                "bob",
                pb::RotateWebhookSecretRequest { id: id.clone() },
            ))
            .await
            .map(|_| ()),
        client()
            .list_attempts(as_user("bob", pb::ListAttemptsRequest { id: id.clone() }))
            .await
            .map(|_| ()),
        client()
            .test_webhook(as_user("bob", pb::TestWebhookRequest { id: id.clone() }))
            .await
            .map(|_| ()),
    ];
    for (index, code) in codes.into_iter().enumerate() {
        assert_eq!(
            code.expect_err("another member's id").code(),
            Code::NotFound,
            "call {index}"
        );
    }
    assert!(app.list("bob").await.is_empty());
    let alices = app.list("alice").await;
    assert_eq!(alices.len(), 1);
    assert!(alices[0].enabled, "bob's update changed nothing");
    assert!(receiver.bodies().is_empty(), "bob's test reached nobody");
}

#[tokio::test]
async fn a_call_without_a_signed_identity_is_refused() {
    let app = spawn_app().await;
    let answer = app
        .client
        .clone()
        .list_webhooks(tonic::Request::new(pb::ListWebhooksRequest {}))
        .await
        .expect_err("no identity");
    assert_eq!(answer.code(), Code::Unauthenticated);
}

#[tokio::test]
async fn bad_events_and_urls_are_invalid_arguments_that_say_why() {
    let app = spawn_app().await;
    for (events, url, needle) in [
        (vec![], "http://127.0.0.1:9/hook", "at least one"),
        (
            vec!["item.exploded"],
            "http://127.0.0.1:9/hook",
            "item.exploded",
        ),
        (
            vec!["webhook.test"],
            "http://127.0.0.1:9/hook",
            "webhook.test",
        ),
        (
            vec!["item.created"],
            "ftp://example.com/hook",
            "http or https",
        ),
    ] {
        let answer = app
            .client
            .clone()
            .create_webhook(as_user(
                "alice",
                pb::CreateWebhookRequest {
                    url: url.to_owned(),
                    events: events.into_iter().map(str::to_owned).collect(),
                    description: String::new(),
                },
            ))
            .await
            .expect_err("refused");
        assert_eq!(answer.code(), Code::InvalidArgument, "{answer:?}");
        assert!(answer.message().contains(needle), "{}", answer.message());
    }
    assert!(app.list("alice").await.is_empty());
}
