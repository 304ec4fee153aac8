//! One span per HTTP request, joined to the caller's trace when it sends `traceparent`.

use actix_web::body::MessageBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::middleware::Next;
use tracing::Instrument as _;

/// Actix (http 0.2) headers as an OpenTelemetry extraction carrier.
struct ActixHeaders<'a>(&'a actix_web::http::header::HeaderMap);

impl opentelemetry::propagation::Extractor for ActixHeaders<'_> {
    fn get(&self, key: &str) -> Option<&str> {
        self.0.get(key).and_then(|value| value.to_str().ok())
    }

    fn keys(&self) -> Vec<&str> {
        self.0
            .keys()
            .map(actix_web::http::header::HeaderName::as_str)
            .collect()
    }
}

/// Wraps each request in an `http.request` span.
pub async fn trace_requests(
    request: ServiceRequest,
    next: Next<impl MessageBody>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    let span = tracing::info_span!(
        "http.request",
        method = %request.method(),
        path = %request.path(),
        status = tracing::field::Empty,
    );
    scribevault_core::telemetry::set_parent_from(&span, &ActixHeaders(request.headers()));
    let response = next.call(request).instrument(span.clone()).await?;
    span.record("status", response.status().as_u16());
    Ok(response)
}
