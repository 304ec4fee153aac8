//! Liveness, readiness, metrics and the SPA.

use scribevault_test_support::free_port;

use crate::helpers::{ANY_PORT, TestApp, spawn_process};

#[tokio::test]
async fn healthz_and_readyz_are_ok_on_embedded_defaults() {
    let app = TestApp::spawn().await;
    assert_eq!(
        app.get("/healthz", None).await,
        (200, serde_json::json!({ "status": "ok" }))
    );
    assert_eq!(
        app.get("/readyz", None).await,
        (200, serde_json::json!({ "status": "ready" }))
    );
}

#[tokio::test]
async fn a_downstream_service_down_is_reported_without_making_the_gateway_unready() {
    let data_dir = tempfile::tempdir().unwrap();
    // A port nothing listens on: taken and released, so only a stray process could claim it.
    let nothing_there = free_port();
    let env: Vec<(String, String)> = [
        (
            "SCRIBEVAULT_DATA_DIR",
            data_dir.path().display().to_string(),
        ),
        ("SCRIBEVAULT_HTTP_ADDR", ANY_PORT.to_owned()),
        (
            "SCRIBEVAULT_LIBRARY_GRPC_ADDR",
            format!("127.0.0.1:{nothing_there}"),
        ),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_owned(), v))
    .collect();
    // The gateway alone: no service process runs at all.
    let gateway = spawn_process("gateway", &env, &["http", "admin"]).await;
    let app = TestApp::from_parts(gateway.http_base(), String::new(), data_dir, vec![gateway]);
    assert_eq!(
        app.get("/healthz", None).await.0,
        200,
        "alive even when dependencies are not"
    );
    // A service down is a partial outage: the gateway stays ready (its own database and bus
    // answer), so the load balancer keeps sending it the requests it can still serve.
    let (status, body) = app.get("/readyz", None).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body, serde_json::json!({ "status": "ready" }));
    // The verbose answer, on the admin listener, names what is down, and what is not.
    let response = app
        .http
        .get(format!("{}/readyz?verbose", app.admin_base()))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    let body: serde_json::Value = response.json().await.unwrap();
    let downstream = body["downstream"].as_array().unwrap();
    let library = downstream
        .iter()
        .find(|service| service["name"] == "library service")
        .unwrap_or_else(|| panic!("library listed: {body}"));
    assert_eq!(library["status"], "failing", "{body}");
    assert!(
        library["reason"].as_str().is_some_and(|r| !r.is_empty()),
        "{body}"
    );
    let names: Vec<&str> = downstream
        .iter()
        .filter_map(|service| service["name"].as_str())
        .collect();
    assert_eq!(
        names,
        [
            "discovery service",
            "storage service",
            "transcription service",
            "conversion service",
            "library service",
            "webhooks service"
        ],
        "every downstream service is listed: {body}"
    );
}

#[tokio::test]
async fn metrics_count_requests_by_route_and_status() {
    let app = TestApp::spawn().await;
    let (token, _) = app.sign_up("metrics@example.com").await;
    for _ in 0..3 {
        app.get("/api/library/transcripts/some-id/content", Some(&token))
            .await;
    }
    let text = app
        .http
        .get(format!("{}/metrics", app.admin_base()))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(
        text.contains(r#"scribevault_http_requests_total{method="GET",route="/api/library/transcripts/{id}/content",status="404"} 3"#),
        "{text}"
    );
    assert!(
        text.contains("scribevault_http_request_duration_seconds_bucket"),
        "latency histogram exported"
    );
}

#[tokio::test]
async fn spa_is_served_with_index_fallback_for_client_routes() {
    let frontend = tempfile::tempdir().unwrap();
    std::fs::write(frontend.path().join("index.html"), "<html>the spa</html>").unwrap();
    std::fs::write(frontend.path().join("app.js"), "console.log('hi')").unwrap();
    let app = TestApp::spawn_all_with(&[(
        "SCRIBEVAULT_FRONTEND_DIR",
        frontend.path().to_str().unwrap(),
    )])
    .await;
    for path in ["/", "/vault", "/transcripts/anything"] {
        let body = app
            .http
            .get(app.url(path))
            .send()
            .await
            .unwrap()
            .text()
            .await
            .unwrap();
        assert_eq!(body, "<html>the spa</html>", "{path}");
    }
    let script = app
        .http
        .get(app.url("/app.js"))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert_eq!(script, "console.log('hi')");
    let api = app.http.get(app.url("/api/unknown")).send().await.unwrap();
    assert_eq!(api.status(), 404, "API paths never fall back to the SPA");
    let error: serde_json::Value = api.json().await.unwrap();
    assert_eq!(error["error"]["code"], "NOT_FOUND", "{error}");
}

#[tokio::test]
async fn without_a_build_a_page_says_how_to_build_it() {
    let app = TestApp::spawn().await;
    let body = app
        .http
        .get(app.url("/vault"))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(body.contains("make frontend"), "{body}");
}

/// What `grpcurl list` and Kubernetes' gRPC probes rely on: every service answers
/// `grpc.health.v1` (without an identity), and server reflection when
/// `SCRIBEVAULT_GRPC_REFLECTION` turns it on (it is off by default: it hands out the API).
#[tokio::test]
async fn grpc_services_answer_health_and_reflection_only_when_turned_on() {
    use tonic_reflection::pb::v1::ServerReflectionRequest;
    use tonic_reflection::pb::v1::server_reflection_client::ServerReflectionClient;
    use tonic_reflection::pb::v1::server_reflection_request::MessageRequest;
    use tonic_reflection::pb::v1::server_reflection_response::MessageResponse;

    let list_services = || ServerReflectionRequest {
        host: String::new(),
        message_request: Some(MessageRequest::ListServices(String::new())),
    };
    let default = TestApp::spawn().await;
    let mut reflection = ServerReflectionClient::new(
        tonic::transport::Channel::from_shared(format!("http://{}", default.library_grpc))
            .unwrap()
            .connect()
            .await
            .unwrap(),
    );
    let refused = reflection
        .server_reflection_info(tokio_stream::iter(vec![list_services()]))
        .await
        .unwrap_err();
    assert_eq!(refused.code(), tonic::Code::Unimplemented, "{refused:?}");

    let app = TestApp::spawn_all_with(&[("SCRIBEVAULT_GRPC_REFLECTION", "true")]).await;
    let channel = tonic::transport::Channel::from_shared(format!("http://{}", app.library_grpc))
        .unwrap()
        .connect()
        .await
        .unwrap();
    let mut reflection = ServerReflectionClient::new(channel.clone());
    let request = list_services();
    let mut answers = reflection
        .server_reflection_info(tokio_stream::iter(vec![request]))
        .await
        .unwrap()
        .into_inner();
    let answer = answers.message().await.unwrap().unwrap();
    let Some(MessageResponse::ListServicesResponse(list)) = answer.message_response else {
        panic!("not a service list: {answer:?}")
    };
    let names: Vec<String> = list
        .service
        .into_iter()
        .map(|service| service.name)
        .collect();
    for expected in [
        "scribevault.library.v1.LibraryService",
        "grpc.health.v1.Health",
        "scribevault.storage.v1.StorageService",
    ] {
        assert!(
            names.iter().any(|name| name == expected),
            "{expected} in {names:?}"
        );
    }
    let mut health = tonic_health::pb::health_client::HealthClient::new(channel);
    let status = health
        .check(tonic_health::pb::HealthCheckRequest {
            service: "scribevault.library.v1.LibraryService".into(),
        })
        .await
        .unwrap()
        .into_inner()
        .status;
    assert_eq!(
        status,
        tonic_health::pb::health_check_response::ServingStatus::Serving as i32
    );
}
