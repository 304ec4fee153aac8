//! The skeleton: a server that is healthy and whose RPCs are not implemented yet.

use scribevault_proto::conversion::v1 as pb;
use tonic::Code;
use tonic_health::pb::HealthCheckRequest;
use tonic_health::pb::health_check_response::ServingStatus;
use tonic_health::pb::health_client::HealthClient;

use crate::helpers::{as_user, spawn_app};

#[tokio::test]
async fn the_server_reports_serving() {
    let app = spawn_app().await;
    let mut health = HealthClient::new(app.channel.clone());
    for service in ["scribevault.conversion.v1.ConversionService", ""] {
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
async fn rpcs_answer_unimplemented() {
    let app = spawn_app().await;
    let refused = app
        .client
        .clone()
        .convert_transcripts_to_markdown(as_user(
            "alice",
            pb::ConvertTranscriptsToMarkdownRequest {
                transcripts: vec![pb::TranscriptToConvert {
                    id: "t1".to_owned(),
                    title: "A talk".to_owned(),
                    transcript_path: "transcripts/t1.txt".to_owned(),
                }],
                template: None,
            },
        ))
        .await
        .unwrap_err();
    assert_eq!(refused.code(), Code::Unimplemented, "{refused:?}");
}

#[tokio::test]
async fn the_server_stops_when_asked() {
    let app = spawn_app().await;
    app.stop().await.expect("the server stops cleanly");
}
