//! `scribevault gateway` and `scribevault library` as separate processes on PostgreSQL and
//! RabbitMQ give the same answers as `scribevault all` on embedded defaults.

use std::time::Duration;

use reqwest::Method;
use scribevault_bus::{EventBus as _, RabbitMqBus, WorkQueue as _};
use scribevault_db::TestDatabase;
use scribevault_test_support::{AMQP_URL_ENV, POSTGRES_URL_ENV, real_server};
use serde_json::{Value, json};

use crate::helpers::{ANY_PORT, TestApp, spawn_process};

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
    let common = [
        ("SCRIBEVAULT_DATABASE_URL", database.url.clone()),
        ("SCRIBEVAULT_AMQP_URL", amqp.clone()),
        (
            "SCRIBEVAULT_DATA_DIR",
            data_dir.path().display().to_string(),
        ),
    ];
    let mut library_env = env(&common);
    library_env.extend(env(&[(
        "SCRIBEVAULT_LIBRARY_GRPC_ADDR",
        ANY_PORT.to_owned(),
    )]));
    let library = spawn_process("library", &library_env, &["library"]).await;
    let library_addr = library.addr("library");
    let mut gateway_env = env(&common);
    gateway_env.extend(env(&[
        ("SCRIBEVAULT_LIBRARY_GRPC_ADDR", library_addr.clone()),
        ("SCRIBEVAULT_HTTP_ADDR", ANY_PORT.to_owned()),
    ]));
    let gateway = spawn_process("gateway", &gateway_env, &["http"]).await;
    let distributed = TestApp::from_parts(
        gateway.http_base(),
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
    // Each service binds a port of its own choosing and says which; the processes that dial
    // it are started after it, with the address it announced.
    let mut processes = Vec::new();
    let mut service_addrs = Vec::new();
    for (service, key) in [
        ("storage", "SCRIBEVAULT_STORAGE_GRPC_ADDR"),
        ("transcription", "SCRIBEVAULT_TRANSCRIPTION_GRPC_ADDR"),
        ("library", "SCRIBEVAULT_LIBRARY_GRPC_ADDR"),
    ] {
        let process =
            spawn_process(service, &with(&[(key, ANY_PORT.to_owned())]), &[service]).await;
        service_addrs.push((key, process.addr(service)));
        processes.push(process);
    }
    let library_addr = service_addrs[2].1.clone();
    let with_services = |extra: &[(&str, String)]| {
        let mut all = with(&service_addrs);
        all.extend(env(extra));
        all
    };
    let gateway_env = with_services(&[("SCRIBEVAULT_HTTP_ADDR", ANY_PORT.to_owned())]);
    let gateway_one = spawn_process("gateway", &gateway_env, &["http"]).await;
    let gateway_two = spawn_process("gateway", &gateway_env, &["http"]).await;
    let app_one = TestApp::from_parts(
        gateway_one.http_base(),
        library_addr.clone(),
        tempfile::tempdir().unwrap(),
        Vec::new(),
    );
    let app_two = TestApp::from_parts(
        gateway_two.http_base(),
        library_addr,
        tempfile::tempdir().unwrap(),
        Vec::new(),
    );
    processes.extend([gateway_one, gateway_two]);
    let mut first_worker = spawn_worker(&with_services(&[])).await;

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
    processes.push(spawn_worker(&with_services(&[])).await);
    processes.push(spawn_worker(&with_services(&[])).await);

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
        let wer = scribevault_test_support::word_error_rate(
            &reference,
            &crate::pipeline::body_text(content["data"]["content"].as_str().unwrap()),
        );
        assert!(wer < 0.20, "{name}: WER {wer:.3}");
    }
}

/// A worker is ready once its liveness probe answers; the probe must say SERVING while whisper
/// is idle (Kubernetes restarts a worker whose probe fails).
async fn spawn_worker(env: &[(String, String)]) -> crate::helpers::Process {
    let mut env = env.to_vec();
    env.push((
        "SCRIBEVAULT_WORKER_HEALTH_ADDR".into(),
        crate::helpers::ANY_PORT.to_owned(),
    ));
    let worker = spawn_process("transcription-worker", &env, &["worker-health"]).await;
    let channel =
        tonic::transport::Endpoint::from_shared(format!("http://{}", worker.addr("worker-health")))
            .unwrap()
            .connect()
            .await
            .unwrap();
    let status = tonic_health::pb::health_client::HealthClient::new(channel)
        .check(tonic_health::pb::HealthCheckRequest {
            service: String::new(),
        })
        .await
        .unwrap()
        .into_inner()
        .status;
    assert_eq!(
        status,
        tonic_health::pb::health_check_response::ServingStatus::Serving as i32,
        "an idle worker is live"
    );
    worker
}
