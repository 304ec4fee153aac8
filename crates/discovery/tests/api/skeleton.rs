//! The server itself: healthy, stoppable, and honest about what it does not do yet.

use scribevault_proto::discovery::v1 as pb;
use tonic::Code;
use tonic_health::pb::HealthCheckRequest;
use tonic_health::pb::health_check_response::ServingStatus;
use tonic_health::pb::health_client::HealthClient;

use crate::helpers::spawn_app;

#[tokio::test]
async fn the_server_reports_serving() {
    let app = spawn_app().await;
    let mut health = HealthClient::new(app.channel.clone());
    for service in ["scribevault.discovery.v1.DiscoveryService", ""] {
        let status = health
            .check(HealthCheckRequest {
                service: service.to_owned(),
            })
            .await
            .unwrap_or_else(|status| panic!("health of {service:?}: {status:?}"))
            .into_inner()
            .status;
        assert_eq!(status, ServingStatus::Serving as i32, "{service:?}");
    }
}

#[tokio::test]
async fn calls_without_a_caller_are_refused() {
    let app = spawn_app().await;
    let refused = app
        .client
        .clone()
        .get_quota_usage(pb::GetQuotaUsageRequest {})
        .await
        .unwrap_err();
    assert_eq!(refused.code(), Code::Unauthenticated, "{refused:?}");
    let jobs = app
        .client
        .clone()
        .list_download_jobs(pb::ListDownloadJobsRequest {})
        .await
        .unwrap_err();
    assert_eq!(jobs.code(), Code::Unauthenticated, "{jobs:?}");
}

#[tokio::test]
async fn the_server_stops_when_asked() {
    let app = spawn_app().await;
    app.stop().await.expect("the server stops cleanly");
}
