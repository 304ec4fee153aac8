//! One request is one trace across processes: the gateway's span and the library's span arrive
//! at a local OTLP receiver with the same trace id.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use opentelemetry_proto::tonic::collector::trace::v1::trace_service_server::{
    TraceService, TraceServiceServer,
};
use opentelemetry_proto::tonic::collector::trace::v1::{
    ExportTraceServiceRequest, ExportTraceServiceResponse,
};
use opentelemetry_proto::tonic::common::v1::any_value::Value as AnyValue;

use crate::helpers::{ANY_PORT, TestApp, spawn_process};

#[derive(Debug, Clone)]
struct ReceivedSpan {
    service: String,
    name: String,
    trace_id: Vec<u8>,
}

#[derive(Clone, Default)]
struct Receiver(Arc<Mutex<Vec<ReceivedSpan>>>);

#[tonic::async_trait]
impl TraceService for Receiver {
    async fn export(
        &self,
        request: tonic::Request<ExportTraceServiceRequest>,
    ) -> Result<tonic::Response<ExportTraceServiceResponse>, tonic::Status> {
        let mut received = self.0.lock().unwrap();
        for resource_spans in request.into_inner().resource_spans {
            let service = resource_spans
                .resource
                .iter()
                .flat_map(|resource| resource.attributes.iter())
                .find(|attribute| attribute.key == "service.name")
                .and_then(|attribute| attribute.value.as_ref())
                .and_then(|value| match &value.value {
                    Some(AnyValue::StringValue(name)) => Some(name.clone()),
                    _ => None,
                })
                .unwrap_or_default();
            for scope in resource_spans.scope_spans {
                for span in scope.spans {
                    received.push(ReceivedSpan {
                        service: service.clone(),
                        name: span.name,
                        trace_id: span.trace_id,
                    });
                }
            }
        }
        Ok(tonic::Response::new(ExportTraceServiceResponse {
            partial_success: None,
        }))
    }
}

#[tokio::test]
async fn a_request_is_one_trace_across_gateway_and_library_processes() {
    let receiver = Receiver::default();
    let otlp_listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let otlp_port = otlp_listener.local_addr().unwrap().port();
    let server = tonic::transport::Server::builder()
        .add_service(TraceServiceServer::new(receiver.clone()))
        .serve_with_incoming(tokio_stream::wrappers::TcpListenerStream::new(
            otlp_listener,
        ));
    tokio::spawn(server);

    let data_dir = tempfile::tempdir().unwrap();
    let env: Vec<(String, String)> = [
        (
            "SCRIBEVAULT_DATA_DIR",
            data_dir.path().display().to_string(),
        ),
        ("SCRIBEVAULT_LIBRARY_GRPC_ADDR", ANY_PORT.to_owned()),
        ("SCRIBEVAULT_HTTP_ADDR", ANY_PORT.to_owned()),
        (
            "OTEL_EXPORTER_OTLP_ENDPOINT",
            format!("http://127.0.0.1:{otlp_port}"),
        ),
        ("OTEL_BSP_SCHEDULE_DELAY", "100".to_owned()),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_owned(), v))
    .collect();
    let library = spawn_process("library", &env, &["library"]).await;
    let library_addr = library.addr("library");
    // The gateway dials where the library bound, not port 0.
    let mut gateway_env: Vec<(String, String)> = env
        .iter()
        .filter(|(key, _)| key != "SCRIBEVAULT_LIBRARY_GRPC_ADDR")
        .cloned()
        .collect();
    gateway_env.push((
        "SCRIBEVAULT_LIBRARY_GRPC_ADDR".to_owned(),
        library_addr.clone(),
    ));
    let gateway = spawn_process("gateway", &gateway_env, &["http"]).await;
    let app = TestApp::from_parts(
        gateway.http_base(),
        library_addr,
        data_dir,
        vec![library, gateway],
    );
    let (token, _) = app.sign_up("traced@example.com").await;
    assert_eq!(
        app.get("/api/library/transcripts", Some(&token)).await.0,
        200
    );

    let deadline = tokio::time::Instant::now() + Duration::from_secs(15);
    loop {
        let spans = receiver.0.lock().unwrap().clone();
        let shared_trace = spans
            .iter()
            .filter(|span| span.service == "scribevault-gateway" && span.name == "http.request")
            .find_map(|gateway_span| {
                spans.iter().find(|span| {
                    span.service == "scribevault-library"
                        && span.name == "grpc.request"
                        && span.trace_id == gateway_span.trace_id
                })
            });
        if shared_trace.is_some() {
            return;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "no trace holds both a gateway and a library span; received: {spans:?}"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}
