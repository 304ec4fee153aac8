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

/// The whole pipeline as separate processes on PostgreSQL, RabbitMQ and an S3 server: two
/// gateway replicas (each delivers events to its own sockets), storage, transcription, library
/// and workers. A worker is killed mid-file; the file is taken over and completes; every file
/// becomes exactly one Vault item.
#[tokio::test]
async fn pipeline_as_separate_processes_survives_a_killed_worker() {
    let Some(postgres) = real_server(POSTGRES_URL_ENV, "distributed pipeline") else {
        return;
    };
    let Some(amqp) = real_server(AMQP_URL_ENV, "distributed pipeline") else {
        return;
    };
    let Some(s3) = real_server(
        scribevault_test_support::S3_ENDPOINT_ENV,
        "distributed pipeline",
    ) else {
        return;
    };
    let database = TestDatabase::postgres(&postgres)
        .await
        .expect("create a test database");
    let data_dir = tempfile::tempdir().unwrap();
    let models = crate::helpers::model_dir();
    let port = |_: ()| format!("127.0.0.1:{}", free_port());
    let (storage_addr, transcription_addr, library_addr) = (port(()), port(()), port(()));
    let (gateway_one, gateway_two) = (port(()), port(()));
    let common = vec![
        ("SCRIBEVAULT_DATABASE_URL", database.url.clone()),
        ("SCRIBEVAULT_AMQP_URL", amqp.clone()),
        ("SCRIBEVAULT_S3_ENDPOINT", s3.clone()),
        (
            "SCRIBEVAULT_S3_BUCKET",
            scribevault_test_support::unique_name("pipeline").replace('_', "-"),
        ),
        ("AWS_ACCESS_KEY_ID", "test".to_owned()),
        ("AWS_SECRET_ACCESS_KEY", "test".to_owned()),
        (
            "SCRIBEVAULT_DATA_DIR",
            data_dir.path().display().to_string(),
        ),
        ("SCRIBEVAULT_STORAGE_GRPC_ADDR", storage_addr.clone()),
        (
            "SCRIBEVAULT_TRANSCRIPTION_GRPC_ADDR",
            transcription_addr.clone(),
        ),
        ("SCRIBEVAULT_LIBRARY_GRPC_ADDR", library_addr.clone()),
        (
            "SCRIBEVAULT_WHISPER_MODEL_DIR",
            models.path().display().to_string(),
        ),
        ("SCRIBEVAULT_WHISPER_THREADS", "1".to_owned()),
        ("SCRIBEVAULT_WORKER_STALE_SECONDS", "3".to_owned()),
    ];
    let with = |extra: &[(&str, String)]| {
        let mut all = env(&common);
        all.extend(env(extra));
        all
    };
    let mut processes = vec![
        spawn_process("storage", &with(&[]), &storage_addr).await,
        spawn_process("transcription", &with(&[]), &transcription_addr).await,
        spawn_process("library", &with(&[]), &library_addr).await,
        spawn_process(
            "gateway",
            &with(&[("SCRIBEVAULT_HTTP_ADDR", gateway_one.clone())]),
            &gateway_one,
        )
        .await,
        spawn_process(
            "gateway",
            &with(&[("SCRIBEVAULT_HTTP_ADDR", gateway_two.clone())]),
            &gateway_two,
        )
        .await,
    ];
    let mut first_worker = spawn_worker(&with(&[])).await;
    let app_one = TestApp::from_parts(
        format!("http://{gateway_one}"),
        library_addr.clone(),
        tempfile::tempdir().unwrap(),
        Vec::new(),
    );
    let app_two = TestApp::from_parts(
        format!("http://{gateway_two}"),
        library_addr,
        tempfile::tempdir().unwrap(),
        Vec::new(),
    );

    let (token, user) = app_one.sign_up("distributed@example.com").await;
    let mut socket_one = crate::helpers::SocketClient::connect(&app_one.base, &user, &token).await;
    let mut socket_two = crate::helpers::SocketClient::connect(&app_two.base, &user, &token).await;
    for socket in [&mut socket_one, &mut socket_two] {
        socket
            .wait_for(Duration::from_secs(10), |line| line["kind"] == "connect")
            .await;
    }
    let names = [
        "long-01-bread",
        "sample-01-welcome",
        "sample-02-subscribe",
        "sample-03-meeting",
        "sample-04-noisy",
    ];
    let mut files = Vec::new();
    for name in names {
        let (status, body) = app_two
            .upload(
                &token,
                &crate::helpers::audio(&format!("{name}.mp3")),
                Some(name),
            )
            .await;
        assert_eq!(status, 200, "{name}: {body}");
        files.push(json!({ "id": name, "mp3Path": body["data"]["mp3Path"], "title": name }));
    }
    let (status, started) = app_one
        .post_json(
            "/api/transcription/start",
            &json!({ "files": files }),
            Some(&token),
        )
        .await;
    assert_eq!(status, 200, "{started}");
    let job = started["data"]["jobId"].as_str().unwrap().to_owned();
    socket_two
        .wait_for(Duration::from_secs(120), |line| {
            line["name"] == "transcriptionProgress"
                && line["data"]["progress"].as_u64().unwrap_or(0) > 0
        })
        .await;

    // The only worker dies mid-file; two new ones share the queue from now on.
    first_worker.kill().await;
    processes.push(spawn_worker(&with(&[])).await);
    processes.push(spawn_worker(&with(&[])).await);

    let finished = app_one
        .wait_for_job(&token, &job, Duration::from_secs(300))
        .await;
    for file in finished["files"].as_array().unwrap() {
        assert_eq!(file["status"], "completed", "{file}");
    }
    for socket in [&mut socket_one, &mut socket_two] {
        for name in names {
            socket
                .seen_or_wait_for(Duration::from_secs(30), |line| {
                    line["name"] == "transcriptionComplete" && line["data"]["fileId"] == name
                })
                .await;
        }
    }
    app_two
        .wait_for_vault_total(&token, names.len(), Duration::from_secs(60))
        .await;
    tokio::time::sleep(Duration::from_secs(2)).await;
    let (_, vault) = app_two.get("/api/library/transcripts", Some(&token)).await;
    assert_eq!(
        vault["meta"]["total"],
        names.len(),
        "each file exactly once in the Vault: {vault}"
    );
    for item in vault["data"].as_array().unwrap() {
        let name = item["title"].as_str().unwrap();
        let (_, content) = app_one
            .get(
                &format!(
                    "/api/library/transcripts/{}/content",
                    item["id"].as_str().unwrap()
                ),
                Some(&token),
            )
            .await;
        let reference =
            std::fs::read_to_string(crate::helpers::audio(&format!("{name}.txt"))).unwrap();
        let wer = crate::helpers::word_error_rate(
            &reference,
            &crate::pipeline::body_text(content["data"]["content"].as_str().unwrap()),
        );
        assert!(wer < 0.20, "{name}: WER {wer:.3}");
    }
}

async fn spawn_worker(env: &[(String, String)]) -> crate::helpers::Process {
    // A worker listens on nothing; wait for the transcription service it talks to instead.
    let transcription = env
        .iter()
        .find(|(key, _)| key == "SCRIBEVAULT_TRANSCRIPTION_GRPC_ADDR")
        .map(|(_, value)| value.clone())
        .unwrap();
    spawn_process("transcription-worker", env, &transcription).await
}
