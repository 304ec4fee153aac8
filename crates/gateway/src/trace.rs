//! One span per HTTP request, joined to the caller's trace when it sends `traceparent`.
//!
//! The span names the route's pattern (`/feeds/{secret}.xml`), not the path: feed and
//! invitation secrets travel in paths, and spans are exported to whoever runs the collector.

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

/// Paths under these carry a secret; one that matches no route is cut at the prefix.
const SECRET_PATH_PREFIXES: &[&str] = &["/feeds/", "/api/auth/invitations/"];

/// What a span and a log line may say of a request's path: its route's pattern, or for a path
/// no route matched (the SPA's, an unknown one) the path, less a secret it may carry.
fn logged_path(pattern: Option<String>, path: &str) -> String {
    if let Some(pattern) = pattern {
        return pattern;
    }
    match SECRET_PATH_PREFIXES
        .iter()
        .find(|prefix| path.starts_with(**prefix))
    {
        Some(prefix) => format!("{prefix}…"),
        None => path.to_owned(),
    }
}

/// Wraps each request in an `http.request` span.
pub async fn trace_requests(
    request: ServiceRequest,
    next: Next<impl MessageBody>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    let path = logged_path(request.match_pattern(), request.path());
    let span = tracing::info_span!(
        "http.request",
        method = %request.method(),
        path = %path,
        status = tracing::field::Empty,
    );
    scribevault_core::telemetry::set_parent_from(&span, &ActixHeaders(request.headers()));
    let response = next.call(request).instrument(span.clone()).await?;
    span.record("status", response.status().as_u16());
    Ok(response)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets_in_paths_stay_out_of_spans() {
        assert_eq!(
            logged_path(Some("/feeds/{secret}.xml".into()), "/feeds/s3cr3t.xml"),
            "/feeds/{secret}.xml"
        );
        assert_eq!(logged_path(None, "/feeds/s3cr3t/nowhere"), "/feeds/…");
        assert_eq!(
            logged_path(None, "/api/auth/invitations/s3cr3t/x"),
            "/api/auth/invitations/…"
        );
        assert_eq!(logged_path(None, "/vault/item"), "/vault/item");
    }
}
