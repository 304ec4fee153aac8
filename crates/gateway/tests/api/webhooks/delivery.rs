//! Deliveries: signed, retried after a failure and logged; given up after five attempts; a 410
//! switching the webhook off; 'Send test'; one delivery per event across replicas; and the
//! official Standard Webhooks package verifying what arrives.

use super::*;

#[tokio::test]
async fn an_event_is_delivered_signed_retried_after_a_500_and_logged() {
    let app = spawn(true).await;
    let (token, user) = app.sign_up("events@example.com").await;
    let receiver = Receiver::default();
    receiver.statuses.lock().unwrap().push_back(500);
    let url = receiver.start().await;
    let made = app.create(&token, &url, &["item.created"]).await;
    let (id, secret) = (
        made["id"].as_str().unwrap(),
        made["secret"].as_str().unwrap(),
    );

    // Not subscribed to, or not a creation: nothing goes out.
    app.publish(
        &user,
        &Event::TranscriptionComplete(TranscriptionComplete {
            file_id: "f".into(),
            job_id: "j".into(),
            transcript_path: "t".into(),
            markdown_path: "m".into(),
            processing_time: 1,
        }),
    )
    .await;
    app.publish(
        &user,
        &Event::LibraryUpdate(LibraryUpdate {
            change: ItemChange::Updated,
            transcript: LibraryItemRef {
                id: "x".into(),
                title: "x".into(),
            },
        }),
    )
    .await;
    let envelope = app.publish(&user, &item_created("item-1")).await;

    let deliveries = receiver.wait_for(2).await;
    for delivery in &deliveries {
        assert_signed(delivery, secret);
        let body = delivery.json();
        assert_eq!(body["type"], "item.created");
        assert_eq!(
            body["data"],
            json!({ "type": "created", "transcript": { "id": "item-1", "title": "A talk" } })
        );
        assert_eq!(
            chrono::DateTime::parse_from_rfc3339(body["timestamp"].as_str().unwrap()).unwrap(),
            envelope.occurred_at
        );
    }
    assert_eq!(
        deliveries[0].header("webhook-id"),
        deliveries[1].header("webhook-id"),
        "a retry is the same message"
    );
    assert!(deliveries[0].header("webhook-id").starts_with("msg_"));

    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(receiver.received().len(), 2, "delivered once it succeeded");
    let attempts = app.attempts(&token, id).await;
    assert_eq!(attempts.len(), 2, "{attempts:?}");
    let (last, first) = (&attempts[0], &attempts[1]);
    assert_eq!(first["attempt"], 1);
    assert_eq!(first["statusCode"], 500);
    assert_eq!(first["succeeded"], false);
    assert_eq!(first["responseExcerpt"], "reply 500");
    assert!(first["nextAttemptAt"].is_string());
    assert_eq!(first["event"], "item.created");
    assert_eq!(last["attempt"], 2);
    assert_eq!(last["statusCode"], 200);
    assert_eq!(last["succeeded"], true);
    assert!(last["nextAttemptAt"].is_null());
    assert!(last["durationMs"].is_u64());

    let listed = app.send(Method::GET, "/api/webhooks", &token, None).await;
    assert_eq!(
        listed.body["data"]["webhooks"][0]["lastAttempt"]["statusCode"],
        200
    );
}

#[tokio::test]
async fn a_delivery_is_given_up_after_five_attempts_and_a_410_switches_the_webhook_off() {
    let app = spawn(true).await;
    let (token, user) = app.sign_up("failing@example.com").await;
    let receiver = Receiver::default();
    receiver.statuses.lock().unwrap().extend([503; 10]);
    let url = receiver.start().await;
    let made = app.create(&token, &url, &["transcription.failed"]).await;
    let id = made["id"].as_str().unwrap();
    let failed = |status| {
        Event::TranscriptionError(TranscriptionErrorEvent {
            file_id: "f".into(),
            job_id: "j".into(),
            error_message: Some("bad audio".into()),
            error: Some("bad audio".into()),
            status,
            retry_count: 3,
            max_retries: 3,
            last_failed_at: None,
        })
    };
    app.publish(&user, &failed(FileStatus::Error)).await;
    app.publish(&user, &failed(FileStatus::Failed)).await;
    receiver.wait_for(5).await;
    tokio::time::sleep(Duration::from_millis(1200)).await;
    assert_eq!(receiver.received().len(), 5, "five attempts, then no more");
    assert!(
        receiver
            .received()
            .iter()
            .all(|delivery| delivery.json()["type"] == "transcription.failed")
    );
    let attempts = app.attempts(&token, id).await;
    assert_eq!(attempts.len(), 5);
    assert!(
        attempts[0]["nextAttemptAt"].is_null(),
        "the last is not retried"
    );

    receiver.statuses.lock().unwrap().clear();
    receiver.statuses.lock().unwrap().push_back(410);
    let test = app
        .send(
            Method::POST,
            &format!("/api/webhooks/{id}/test"),
            &token,
            None,
        )
        .await;
    assert_eq!(test.status, 200, "{}", test.body);
    assert_eq!(test.body["data"]["statusCode"], 410);
    let listed = app.send(Method::GET, "/api/webhooks", &token, None).await;
    let hook = &listed.body["data"]["webhooks"][0];
    assert_eq!(hook["enabled"], false);
    assert!(hook["disabledReason"].as_str().unwrap().contains("410"));
}

#[tokio::test]
async fn send_test_delivers_a_signed_test_event_and_answers_the_result() {
    let app = spawn(true).await;
    let (token, _) = app.sign_up("tester@example.com").await;
    let receiver = Receiver::default();
    let url = receiver.start().await;
    let made = app.create(&token, &url, &["sync.new_videos"]).await;
    let id = made["id"].as_str().unwrap();
    let answer = app
        .send(
            Method::POST,
            &format!("/api/webhooks/{id}/test"),
            &token,
            None,
        )
        .await;
    assert_eq!(answer.status, 200, "{}", answer.body);
    let attempt = &answer.body["data"];
    assert_eq!(attempt["statusCode"], 200);
    assert_eq!(attempt["succeeded"], true);
    assert_eq!(attempt["event"], "webhook.test");
    let delivery = &receiver.received()[0];
    assert_signed(delivery, made["secret"].as_str().unwrap());
    assert_eq!(delivery.json()["type"], "webhook.test");
    assert_eq!(delivery.json()["data"]["webhookId"], id);
    assert_eq!(app.attempts(&token, id).await.len(), 1);

    // A receiver that is not there: the call succeeds and says why the attempt did not.
    let dead = app
        .send(
            Method::PATCH,
            &format!("/api/webhooks/{id}"),
            &token,
            Some(&json!({ "url": "http://127.0.0.1:9/hook" })),
        )
        .await;
    assert_eq!(dead.status, 200);
    let answer = app
        .send(
            Method::POST,
            &format!("/api/webhooks/{id}/test"),
            &token,
            None,
        )
        .await;
    assert_eq!(answer.status, 200);
    assert!(answer.body["data"]["statusCode"].is_null());
    assert!(answer.body["data"]["error"].is_string());
}

#[tokio::test]
async fn two_replicas_seeing_one_event_deliver_it_once() {
    two_replicas_deliver_each_event_once(TestDatabase::sqlite()).await;
}

/// The same on PostgreSQL, the database replicas share in production: the outbox's
/// `ON CONFLICT DO NOTHING`, the conditional claim and the log's trimming there.
#[tokio::test]
async fn two_replicas_on_postgres_deliver_each_event_once_and_retry() {
    let test_name = "two_replicas_on_postgres_deliver_each_event_once_and_retry";
    let Some(admin) = scribevault_test_support::real_server(
        scribevault_test_support::POSTGRES_URL_ENV,
        test_name,
    ) else {
        return;
    };
    let db = TestDatabase::postgres(&admin)
        .await
        .expect("create a test database");
    two_replicas_deliver_each_event_once(db).await;
}

async fn two_replicas_deliver_each_event_once(db: TestDatabase) {
    let bus = Arc::new(InProcessBus::new(5));
    let db = Arc::new(db);
    let data_dir = Arc::new(tempfile::tempdir().unwrap());
    let one = spawn_replica(true, bus.clone(), db.clone(), data_dir.clone()).await;
    let two = spawn_replica(true, bus, db, data_dir).await;
    let (token, user) = one.sign_up("replicas@example.com").await;
    let receiver = Receiver::default();
    // The first attempt fails: its retry is claimed and settled once too.
    receiver.statuses.lock().unwrap().push_back(500);
    let url = receiver.start().await;
    let made = two.create(&token, &url, &["item.created"]).await;
    for index in 0..5 {
        one.publish(&user, &item_created(&format!("item-{index}")))
            .await;
    }
    receiver.wait_for(6).await;
    tokio::time::sleep(Duration::from_millis(800)).await;
    let attempts = one.attempts(&token, made["id"].as_str().unwrap()).await;
    assert_eq!(attempts.len(), 6, "{attempts:?}");
    let ids: std::collections::BTreeSet<String> = receiver
        .received()
        .iter()
        .map(|delivery| {
            delivery.json()["data"]["transcript"]["id"]
                .as_str()
                .unwrap()
                .to_owned()
        })
        .collect();
    assert_eq!(
        receiver.received().len(),
        6,
        "each event once, and one retry"
    );
    assert_eq!(ids.len(), 5);
}

/// Whether Python has the official `standardwebhooks` package (required under CI).
fn standardwebhooks_installed(test_name: &str) -> bool {
    let found = std::process::Command::new("python3")
        .args(["-c", "import standardwebhooks"])
        .output()
        .is_ok_and(|output| output.status.success());
    scribevault_test_support::required_tool(
        found,
        "python standardwebhooks (`scripts/install-test-tools.sh`)",
        test_name,
    )
}

/// 'Send test' on the webhook `id`.
async fn send_test(app: &WebhookApp, id: &str, token: &str) -> Answer {
    app.send(
        Method::POST,
        &format!("/api/webhooks/{id}/test"),
        token,
        None,
    )
    .await
}

#[tokio::test]
async fn the_official_standard_webhooks_package_verifies_every_delivery() {
    if !standardwebhooks_installed("the_official_standard_webhooks_package_verifies_every_delivery")
    {
        return;
    }
    let app = spawn(true).await;
    let (token, user) = app.sign_up("python@example.com").await;
    // The receiver needs the secret before it listens: make the webhook at a placeholder URL
    // first, then point it at the receiver.
    let made = app
        .create(&token, "http://127.0.0.1:9/placeholder", &["item.created"])
        .await;
    let (id, secret) = (
        made["id"].as_str().unwrap(),
        made["secret"].as_str().unwrap(),
    );
    let script = scribevault_test_support::workspace_root()
        .join("crates/webhooks/tests/webhook_receiver.py");
    let mut child = tokio::process::Command::new("python3")
        .arg(script)
        .arg(secret)
        .stdout(std::process::Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("python3 runs");
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let mut next_line = async || -> Value {
        let line = tokio::time::timeout(Duration::from_secs(20), lines.next_line())
            .await
            .expect("the receiver prints in time")
            .unwrap()
            .expect("a line");
        serde_json::from_str(&line).unwrap()
    };
    let port = next_line().await["port"].as_u64().unwrap();
    let changed = app
        .send(
            Method::PATCH,
            &format!("/api/webhooks/{id}"),
            &token,
            Some(&json!({ "url": format!("http://127.0.0.1:{port}/hook") })),
        )
        .await;
    assert_eq!(changed.status, 200);

    let test = send_test(&app, id, &token).await;
    assert_eq!(test.body["data"]["statusCode"], 200, "{}", test.body);
    let line = next_line().await;
    assert_eq!(line["verified"], true, "{line}");
    assert_eq!(line["type"], "webhook.test");

    app.publish(&user, &item_created("python-item")).await;
    let line = next_line().await;
    assert_eq!(line["verified"], true, "{line}");
    assert_eq!(line["type"], "item.created");
    assert_eq!(line["data"]["transcript"]["id"], "python-item");

    // A rotated secret: the receiver still holds the old one, so it must refuse.
    let rotated = app
        .send(
            Method::POST,
            &format!("/api/webhooks/{id}/rotate-secret"),
            &token,
            None,
        )
        .await;
    assert_eq!(rotated.status, 200);
    let test = send_test(&app, id, &token).await;
    assert_eq!(test.body["data"]["statusCode"], 401);
    let line = next_line().await;
    assert_eq!(line["verified"], false, "{line}");
    child.kill().await.ok();
}
