//! `scribevault gateway` and `scribevault library` as separate processes on PostgreSQL and
//! RabbitMQ give the same answers as `scribevault all` on embedded defaults.

use std::time::Duration;

use reqwest::Method;
use scribevault_bus::{EventBus as _, RabbitMqBus, WorkQueue as _};
use scribevault_db::TestDatabase;
use scribevault_test_support::{AMQP_URL_ENV, POSTGRES_URL_ENV, real_server};
use serde_json::{Value, json};

use crate::helpers::{ANY_PORT, Process, SocketClient, TestApp, spawn_process};

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

    assert_a_queued_file_becomes_one_announced_item(&distributed, &amqp).await;
}

/// The bus between processes: a completed file enqueued on RabbitMQ becomes a Vault item in
/// the library process, which announces it on the event exchange; a redelivery adds nothing.
async fn assert_a_queued_file_becomes_one_announced_item(distributed: &TestApp, amqp: &str) {
    let (token, user) = distributed.sign_up("bus@example.com").await;
    let bus = RabbitMqBus::connect(amqp, 5).await.unwrap();
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

/// The samples the distributed pipeline transcribes (the long one first, so a worker is busy
/// with it when it is killed).
const PIPELINE_SAMPLES: [&str; 5] = [
    "long-01-bread",
    "sample-01-welcome",
    "sample-02-subscribe",
    "sample-03-meeting",
    "sample-04-noisy",
];

/// The distributed pipeline's processes, two clients of its two gateway replicas, and what
/// must outlive them (fields drop in order: the processes before their database).
struct DistributedPipeline {
    processes: Vec<Process>,
    app_one: TestApp,
    app_two: TestApp,
    /// The environment of a process that dials storage, transcription and library.
    service_env: Vec<(String, String)>,
    _models: tempfile::TempDir,
    _data_dir: tempfile::TempDir,
    _database: TestDatabase,
}

/// What every process of the distributed pipeline is configured with.
fn pipeline_common_env(
    database: &TestDatabase,
    amqp: &str,
    s3: &str,
    data_dir: &std::path::Path,
    models: &std::path::Path,
) -> Vec<(String, String)> {
    env(&[
        ("SCRIBEVAULT_DATABASE_URL", database.url.clone()),
        ("SCRIBEVAULT_AMQP_URL", amqp.to_owned()),
        ("SCRIBEVAULT_S3_ENDPOINT", s3.to_owned()),
        (
            "SCRIBEVAULT_S3_BUCKET",
            scribevault_test_support::unique_name("pipeline").replace('_', "-"),
        ),
        ("AWS_ACCESS_KEY_ID", "test".to_owned()),
        ("AWS_SECRET_ACCESS_KEY", "test".to_owned()),
        ("SCRIBEVAULT_DATA_DIR", data_dir.display().to_string()),
        (
            "SCRIBEVAULT_WHISPER_MODEL_DIR",
            models.display().to_string(),
        ),
        ("SCRIBEVAULT_WHISPER_THREADS", "1".to_owned()),
        ("SCRIBEVAULT_WORKER_STALE_SECONDS", "3".to_owned()),
    ])
}

/// Starts storage, transcription and library, then two gateway replicas dialing them (no
/// worker yet).
async fn start_distributed_pipeline(postgres: &str, amqp: &str, s3: &str) -> DistributedPipeline {
    let database = TestDatabase::postgres(postgres)
        .await
        .expect("create a test database");
    let data_dir = tempfile::tempdir().unwrap();
    let models = crate::helpers::model_dir();
    let common = pipeline_common_env(&database, amqp, s3, data_dir.path(), models.path());
    // Each service binds a port of its own choosing and says which; the processes that dial
    // it are started after it, with the address it announced.
    let mut processes = Vec::new();
    let mut service_env = common.clone();
    for (service, key) in [
        ("storage", "SCRIBEVAULT_STORAGE_GRPC_ADDR"),
        ("transcription", "SCRIBEVAULT_TRANSCRIPTION_GRPC_ADDR"),
        ("library", "SCRIBEVAULT_LIBRARY_GRPC_ADDR"),
    ] {
        let mut own_env = common.clone();
        own_env.extend(env(&[(key, ANY_PORT.to_owned())]));
        let process = spawn_process(service, &own_env, &[service]).await;
        service_env.extend(env(&[(key, process.addr(service))]));
        processes.push(process);
    }
    let library_addr = processes[2].addr("library");
    let mut gateway_env = service_env.clone();
    gateway_env.extend(env(&[("SCRIBEVAULT_HTTP_ADDR", ANY_PORT.to_owned())]));
    let gateway_one = spawn_process("gateway", &gateway_env, &["http"]).await;
    let gateway_two = spawn_process("gateway", &gateway_env, &["http"]).await;
    let client_of = |gateway: &Process| {
        TestApp::from_parts(
            gateway.http_base(),
            library_addr.clone(),
            tempfile::tempdir().unwrap(),
            Vec::new(),
        )
    };
    let (app_one, app_two) = (client_of(&gateway_one), client_of(&gateway_two));
    processes.extend([gateway_one, gateway_two]);
    DistributedPipeline {
        processes,
        app_one,
        app_two,
        service_env,
        _models: models,
        _data_dir: data_dir,
        _database: database,
    }
}

/// Uploads every sample through the second gateway and starts one job of them all through the
/// first; returns the job's id.
async fn upload_and_start_the_samples(pipeline: &DistributedPipeline, token: &str) -> String {
    let mut files = Vec::new();
    for name in PIPELINE_SAMPLES {
        let (status, body) = pipeline
            .app_two
            .upload(
                token,
                &crate::helpers::audio(&format!("{name}.mp3")),
                Some(name),
            )
            .await;
        assert_eq!(status, 200, "{name}: {body}");
        files.push(json!({ "id": name, "mp3Path": body["data"]["mp3Path"], "title": name }));
    }
    let (status, started) = pipeline
        .app_one
        .post_json(
            "/api/transcription/start",
            &json!({ "files": files }),
            Some(token),
        )
        .await;
    assert_eq!(status, 200, "{started}");
    started["data"]["jobId"].as_str().unwrap().to_owned()
}

/// Every file completes, both replicas' sockets hear of each, and each is exactly one Vault
/// item.
async fn assert_every_sample_completes_once(
    pipeline: &DistributedPipeline,
    sockets: &mut [SocketClient; 2],
    token: &str,
    job: &str,
) {
    let finished = pipeline
        .app_one
        .wait_for_job(token, job, Duration::from_secs(300))
        .await;
    for file in finished["files"].as_array().unwrap() {
        assert_eq!(file["status"], "completed", "{file}");
    }
    for socket in sockets.iter_mut() {
        for name in PIPELINE_SAMPLES {
            socket
                .seen_or_wait_for(Duration::from_secs(30), |line| {
                    line["name"] == "transcriptionComplete" && line["data"]["fileId"] == name
                })
                .await;
        }
    }
    pipeline
        .app_two
        .wait_for_vault_total(token, PIPELINE_SAMPLES.len(), Duration::from_secs(60))
        .await;
    tokio::time::sleep(Duration::from_secs(2)).await;
    let (_, vault) = pipeline
        .app_two
        .get("/api/library/transcripts", Some(token))
        .await;
    assert_eq!(
        vault["meta"]["total"],
        PIPELINE_SAMPLES.len(),
        "each file exactly once in the Vault: {vault}"
    );
    assert_transcripts_match_their_references(&pipeline.app_one, &vault, token).await;
}

/// Each Vault item's text is within 20 % word error rate of its sample's reference.
async fn assert_transcripts_match_their_references(app: &TestApp, vault: &Value, token: &str) {
    for item in vault["data"].as_array().unwrap() {
        let name = item["title"].as_str().unwrap();
        let (_, content) = app
            .get(
                &format!(
                    "/api/library/transcripts/{}/content",
                    item["id"].as_str().unwrap()
                ),
                Some(token),
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
    let mut pipeline = start_distributed_pipeline(&postgres, &amqp, &s3).await;
    let mut first_worker = spawn_worker(&pipeline.service_env).await;

    let (token, user) = pipeline.app_one.sign_up("distributed@example.com").await;
    let mut sockets = [
        SocketClient::connect(&pipeline.app_one.base, &user, &token).await,
        SocketClient::connect(&pipeline.app_two.base, &user, &token).await,
    ];
    for socket in &mut sockets {
        socket
            .wait_for(Duration::from_secs(10), |line| line["kind"] == "connect")
            .await;
    }
    let job = upload_and_start_the_samples(&pipeline, &token).await;
    sockets[1]
        .wait_for(Duration::from_secs(120), |line| {
            line["name"] == "transcriptionProgress"
                && line["data"]["progress"].as_u64().unwrap_or(0) > 0
        })
        .await;

    // The only worker dies mid-file; two new ones share the queue from now on.
    first_worker.kill().await;
    for _ in 0..2 {
        let worker = spawn_worker(&pipeline.service_env).await;
        pipeline.processes.push(worker);
    }

    assert_every_sample_completes_once(&pipeline, &mut sockets, &token, &job).await;
}

/// A worker is ready once its liveness probe answers; the probe must say SERVING while whisper
/// is idle (Kubernetes restarts a worker whose probe fails).
async fn spawn_worker(env: &[(String, String)]) -> Process {
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
