//! What the listeners themselves enforce: security headers on every answer, metrics on the
//! admin port only, and gRPC calls that must carry an identity the gateway signed.

use std::time::Duration;

use serde_json::Value;

use crate::helpers::{TEST_SERVICE_KEY, TestApp, signed_as};

const LIST: &str = "/scribevault.library.v1.LibraryService/ListTranscripts";

#[tokio::test]
async fn every_answer_carries_the_security_headers_and_metrics_live_on_the_admin_port() {
    let app = TestApp::spawn_all_with(&[("SCRIBEVAULT_TRUSTED_PROXIES", "127.0.0.1")]).await;
    for path in ["/", "/vault", "/api/library/transcripts", "/config.json"] {
        let response = app.http.get(app.url(path)).send().await.unwrap();
        let headers = response.headers();
        let csp = headers["content-security-policy"].to_str().unwrap();
        assert!(csp.contains("default-src 'self'"), "{path}: {csp}");
        assert!(csp.contains("frame-ancestors 'none'"), "{path}: {csp}");
        assert!(csp.contains("img-src 'self' data: blob:"), "{path}: {csp}");
        assert_eq!(headers["x-content-type-options"], "nosniff", "{path}");
        assert_eq!(headers["referrer-policy"], "no-referrer", "{path}");
        assert!(
            headers.get("strict-transport-security").is_none(),
            "{path}: plain HTTP"
        );
    }
    let over_tls = app
        .http
        .get(app.url("/healthz"))
        .header("X-Forwarded-Proto", "https")
        .send()
        .await
        .unwrap();
    assert!(over_tls.headers().contains_key("strict-transport-security"));

    // The auth check is routing, not a prefix match on the raw path.
    let (status, body) = app.get("/%61pi/library/transcripts", None).await;
    assert!(body.get("data").is_none(), "{status} {body}");

    let public_metrics = app.http.get(app.url("/metrics")).send().await.unwrap();
    assert!(
        !public_metrics
            .text()
            .await
            .unwrap()
            .contains("scribevault_http_requests")
    );
    let (_, ready) = app.get("/readyz?verbose", None).await;
    assert!(
        ready.get("downstream").is_none(),
        "verbose readiness is not public: {ready}"
    );
    let admin = app.admin_base();
    let metrics = app
        .http
        .get(format!("{admin}/metrics"))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(metrics.contains("scribevault_http_requests"), "{metrics}");
    let verbose: Value = app
        .http
        .get(format!("{admin}/readyz?verbose"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert!(
        verbose["downstream"]
            .as_array()
            .is_some_and(|d| d.len() == 6),
        "{verbose}"
    );
}

#[tokio::test]
async fn a_grpc_call_needs_an_identity_the_gateway_signed() {
    use scribevault_core::UserId;
    use scribevault_core::identity::{IDENTITY_METADATA_KEY, ServiceKey};
    use scribevault_proto::library::v1 as pb;

    let app = TestApp::spawn().await;
    let (_, victim) = app.sign_up("victim@example.org").await;
    app.ingest(&victim, "secret:1", "Secret", "the victim's words")
        .await;
    let mut client = pb::library_service_client::LibraryServiceClient::connect(format!(
        "http://{}",
        app.library_grpc
    ))
    .await
    .unwrap();
    let list = || tonic::Request::new(pb::ListTranscriptsRequest::default());

    let mut forged = list();
    forged
        .metadata_mut()
        .insert("x-scribevault-user-id", victim.parse().unwrap());
    let status = client.list_transcripts(forged).await.unwrap_err();
    assert_eq!(
        status.code(),
        tonic::Code::Unauthenticated,
        "a bare user id"
    );

    let mut wrong_key = list();
    ServiceKey::random().attach_user(&mut wrong_key, &UserId::new(victim.clone()), LIST);
    let status = client.list_transcripts(wrong_key).await.unwrap_err();
    assert_eq!(status.code(), tonic::Code::Unauthenticated, "another key");

    let key = ServiceKey::new(TEST_SERVICE_KEY).unwrap();
    let mut expired = list();
    let old = key.assert_user(
        &UserId::new(victim.clone()),
        LIST,
        std::time::SystemTime::now() - Duration::from_secs(120),
    );
    expired
        .metadata_mut()
        .insert(IDENTITY_METADATA_KEY, old.parse().unwrap());
    let status = client.list_transcripts(expired).await.unwrap_err();
    assert_eq!(
        status.code(),
        tonic::Code::Unauthenticated,
        "an expired assertion"
    );

    // An assertion seen on one call cannot open another (the review's G11): one made for
    // ListTranscripts, put on a deletion of the victim's data.
    let mut replayed =
        tonic::Request::new(scribevault_proto::library::v1::DeleteUserDataRequest {});
    let for_list = key.assert_user(
        &UserId::new(victim.clone()),
        LIST,
        std::time::SystemTime::now(),
    );
    replayed
        .metadata_mut()
        .insert(IDENTITY_METADATA_KEY, for_list.parse().unwrap());
    let status = client.delete_user_data(replayed).await.unwrap_err();
    assert_eq!(
        status.code(),
        tonic::Code::Unauthenticated,
        "an assertion made for another method"
    );

    let mut signed = list();
    signed_as(&victim, LIST, &mut signed);
    let answer = client.list_transcripts(signed).await.unwrap().into_inner();
    assert_eq!(
        answer.meta.unwrap().total,
        1,
        "the same call, signed, is served"
    );
}
