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

/// An assertion seen on one call cannot open another (the review's G11): one made for
/// `ListWebhooks` is refused on `DeleteUserData`, and served on the method it names.
#[tokio::test]
async fn an_assertion_made_for_one_method_is_refused_on_another() {
    use scribevault_core::UserId;
    use scribevault_core::identity::{IDENTITY_METADATA_KEY, Principal, assertion_for};
    use scribevault_proto::webhooks::v1::webhooks_service_client::WebhooksServiceClient;

    let app = spawn_app().await;
    let receiver = Receiver::default();
    app.create("alice", &receiver.start().await).await;
    let mut raw = WebhooksServiceClient::new(app.raw_channel());
    let for_list = assertion_for(
        &Principal::User(UserId::new("alice")),
        "/scribevault.webhooks.v1.WebhooksService/ListWebhooks",
    )
    .unwrap();
    fn with_assertion<T>(assertion: &str, message: T) -> tonic::Request<T> {
        let mut request = tonic::Request::new(message);
        request
            .metadata_mut()
            .insert(IDENTITY_METADATA_KEY, assertion.parse().unwrap());
        request
    }
    let refused = raw
        .delete_user_data(with_assertion(&for_list, pb::DeleteUserDataRequest {}))
        .await
        .expect_err("made for another method");
    assert_eq!(refused.code(), Code::Unauthenticated);
    assert_eq!(app.list("alice").await.len(), 1, "nothing was deleted");
    let listed = raw
        .list_webhooks(with_assertion(&for_list, pb::ListWebhooksRequest {}))
        .await
        .expect("the method it was made for")
        .into_inner();
    assert_eq!(listed.webhooks.len(), 1);
}
