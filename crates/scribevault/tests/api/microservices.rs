//! `scribevault gateway` and `scribevault library` as separate processes on PostgreSQL and
//! RabbitMQ give the same answers as `scribevault all` on embedded defaults.

use std::time::Duration;

use reqwest::Method;
use scribevault_bus::{EventBus as _, RabbitMqBus, WorkQueue as _};
use scribevault_db::TestDatabase;
use scribevault_test_support::{AMQP_URL_ENV, POSTGRES_URL_ENV, free_port, real_server};
use serde_json::{Value, json};

use crate::helpers::{TestApp, spawn_process};

/// Drops what differs between runs by nature (generated ids, timestamps).
fn normalise(mut value: Value) -> Value {
    match &mut value {
        Value::Object(map) => {
            for key in ["id", "createdAt", "token"] {
                if map.contains_key(key) {
                    map.insert(key.to_owned(), json!("<varies>"));
                }
            }
            for (_, child) in map.iter_mut() {
                *child = normalise(child.take());
            }
        }
        Value::Array(items) => {
            for item in items.iter_mut() {
                *item = normalise(item.take());
            }
        }
        _ => {}
    }
    value
}

/// The same conversation with any deployment; returns every answer, normalised.
async fn conversation(app: &TestApp) -> Vec<(u16, Value)> {
    let mut answers = Vec::new();
    let (token, user) = app.sign_up("same@example.com").await;
    let (token_b, _) = app.sign_up("other@example.com").await;
    let mut ids = Vec::new();
    for n in 1..=3 {
        ids.push(
            app.ingest(
                &user,
                &format!("file-{n}"),
                &format!("Episode {n}"),
                &format!("text {n}"),
            )
            .await,
        );
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    answers.push(
        app.get("/api/library/transcripts?page=1&limit=2", Some(&token))
            .await,
    );
    answers.push(
        app.get(
            &format!("/api/library/transcripts/{}/content", ids[0]),
            Some(&token),
        )
        .await,
    );
    answers.push(
        app.send(
            Method::PATCH,
            &format!("/api/library/transcripts/{}", ids[0]),
            Some(&token),
            Some(&json!({ "rating": 5 })),
        )
        .await,
    );
    answers.push(
        app.send(
            Method::DELETE,
            &format!("/api/library/transcripts/{}", ids[1]),
            Some(&token),
            None,
        )
        .await,
    );
    answers.push(app.get("/api/library/transcripts", Some(&token)).await);
    answers.push(
        app.get(
            &format!("/api/library/transcripts/{}/content", ids[0]),
            Some(&token_b),
        )
        .await,
    );
    answers.push(app.get("/api/library/transcripts", Some(&token_b)).await);
    answers.push(app.get("/api/library/transcripts", None).await);
    answers
        .into_iter()
        .map(|(status, body)| (status, normalise(body)))
        .collect()
}

fn env(pairs: &[(&str, String)]) -> Vec<(String, String)> {
    pairs
        .iter()
        .map(|(k, v)| ((*k).to_owned(), v.clone()))
        .collect()
}

#[tokio::test]
async fn gateway_and_library_as_separate_processes_answer_like_all() {
    let Some(postgres) = real_server(POSTGRES_URL_ENV, "microservice mode") else {
        return;
    };
    let Some(amqp) = real_server(AMQP_URL_ENV, "microservice mode") else {
        return;
    };
    let database = TestDatabase::postgres(&postgres)
        .await
        .expect("create a test database");
    let data_dir = tempfile::tempdir().unwrap();
    let http_port = free_port();
    let library_port = free_port();
    let library_addr = format!("127.0.0.1:{library_port}");
    let common = [
        ("SCRIBEVAULT_DATABASE_URL", database.url.clone()),
        ("SCRIBEVAULT_AMQP_URL", amqp.clone()),
        (
            "SCRIBEVAULT_DATA_DIR",
            data_dir.path().display().to_string(),
        ),
        ("SCRIBEVAULT_LIBRARY_GRPC_ADDR", library_addr.clone()),
    ];
    let library = spawn_process("library", &env(&common), &library_addr).await;
    let mut gateway_env = env(&common);
    gateway_env.push((
        "SCRIBEVAULT_HTTP_ADDR".into(),
        format!("127.0.0.1:{http_port}"),
    ));
    let gateway = spawn_process("gateway", &gateway_env, &format!("127.0.0.1:{http_port}")).await;
    let distributed = TestApp::from_parts(
        format!("http://127.0.0.1:{http_port}"),
        library_addr,
        data_dir,
        vec![library, gateway],
    );

    let monolithic = TestApp::spawn().await;
    let expected = conversation(&monolithic).await;
    let actual = conversation(&distributed).await;
    assert_eq!(
        actual, expected,
        "microservice mode must answer exactly like monolithic mode"
    );
    assert_eq!(
        expected[0].1["meta"]["total"], 3,
        "the conversation did real work"
    );

    // And the bus between processes: a completed file enqueued on RabbitMQ becomes a Vault
    // item in the library process, which announces it on the event exchange.
    let (token, user) = distributed.sign_up("bus@example.com").await;
    let bus = RabbitMqBus::connect(&amqp, 5).await.unwrap();
    let mut events = bus.subscribe().await.unwrap();
    let message = json!({ "userId": user, "sourceRef": "file-from-queue", "title": "Queued talk", "sourceType": "AUDIO", "content": "queued words" });
    bus.enqueue("library.ingest", message.to_string().into_bytes())
        .await
        .unwrap();
    bus.enqueue("library.ingest", message.to_string().into_bytes())
        .await
        .unwrap();
    let event = tokio::time::timeout(Duration::from_secs(20), async {
        loop {
            let event = events.next().await.unwrap();
            if event.user_id == user {
                return event;
            }
        }
    })
    .await
    .expect("libraryUpdate event");
    assert_eq!(event.event_type, "libraryUpdate");
    assert_eq!(event.data["type"], "created");
    assert_eq!(event.data["transcript"]["title"], "Queued talk");
    tokio::time::sleep(Duration::from_millis(500)).await;
    let (_, listed) = distributed
        .get("/api/library/transcripts", Some(&token))
        .await;
    assert_eq!(
        listed["meta"]["total"], 1,
        "the redelivered duplicate made no second item: {listed}"
    );
}
