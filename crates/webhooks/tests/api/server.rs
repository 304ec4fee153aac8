//! The server's health and shutdown.

use tonic_health::pb::HealthCheckRequest;
use tonic_health::pb::health_check_response::ServingStatus;
use tonic_health::pb::health_client::HealthClient;

use crate::helpers::spawn_app;

#[tokio::test]
async fn the_server_reports_serving() {
    let app = spawn_app().await;
    let mut health = HealthClient::new(app.channel.clone());
    for service in ["scribevault.webhooks.v1.WebhooksService", ""] {
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
async fn the_server_stops_when_asked() {
    let app = spawn_app().await;
    app.stop().await.expect("the server stops cleanly");
}
