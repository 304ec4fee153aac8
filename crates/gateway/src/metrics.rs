//! Prometheus metrics of the gateway: request counts and latency histograms labelled by method,
//! route pattern (never the raw path, which would explode cardinality) and status; and the
//! live Engine.IO sessions.

use std::sync::{Arc, LazyLock};
use std::time::Instant;

use actix_web::body::MessageBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::middleware::Next;
use actix_web::{HttpResponse, web};
use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::{Histogram, exponential_buckets};
use prometheus_client::registry::Registry;

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct HttpLabels {
    method: String,
    route: String,
    status: u16,
}

/// The live Engine.IO sessions of this process: all of them, and those with an accepted
/// (authenticated) CONNECT. A session moves them itself, as it starts, connects and ends.
#[derive(Clone, Debug, Default)]
pub struct RealtimeGauges {
    pub sessions: Gauge,
    pub authenticated: Gauge,
}

/// The gauges of this process's sessions, registered in every [`HttpMetrics`]. Process-wide
/// because the realtime state and the registry are built apart (one gateway per process).
pub fn realtime_gauges() -> &'static RealtimeGauges {
    static GAUGES: LazyLock<RealtimeGauges> = LazyLock::new(RealtimeGauges::default);
    &GAUGES
}

/// The gateway's metric registry.
pub struct HttpMetrics {
    registry: Registry,
    requests: Family<HttpLabels, Counter>,
    durations: Family<HttpLabels, Histogram>,
}

impl HttpMetrics {
    /// Registers the HTTP metrics.
    #[must_use]
    pub fn new() -> Arc<Self> {
        let mut registry = Registry::with_prefix("scribevault");
        let requests = Family::<HttpLabels, Counter>::default();
        let durations = Family::<HttpLabels, Histogram>::new_with_constructor(|| {
            Histogram::new(exponential_buckets(0.0005, 2.0, 16))
        });
        registry.register("http_requests", "HTTP requests answered", requests.clone());
        registry.register(
            "http_request_duration_seconds",
            "HTTP request latency",
            durations.clone(),
        );
        let realtime = realtime_gauges();
        registry.register(
            "realtime_sessions",
            "Live Engine.IO sessions",
            realtime.sessions.clone(),
        );
        registry.register(
            "realtime_authenticated_sessions",
            "Live Engine.IO sessions with an accepted CONNECT",
            realtime.authenticated.clone(),
        );
        Arc::new(Self {
            registry,
            requests,
            durations,
        })
    }

    fn observe(&self, labels: HttpLabels, seconds: f64) {
        self.requests.get_or_create(&labels).inc();
        self.durations.get_or_create(&labels).observe(seconds);
    }
}

/// Records every request.
pub async fn record_requests(
    request: ServiceRequest,
    next: Next<impl MessageBody>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    let metrics = request.app_data::<web::Data<HttpMetrics>>().cloned();
    let method = request.method().to_string();
    let started = Instant::now();
    let response = next.call(request).await?;
    if let Some(metrics) = metrics {
        let route = response
            .request()
            .match_pattern()
            .unwrap_or_else(|| "unmatched".to_owned());
        let labels = HttpLabels {
            method,
            route,
            status: response.status().as_u16(),
        };
        metrics.observe(labels, started.elapsed().as_secs_f64());
    }
    Ok(response)
}

/// `GET /metrics` in the Prometheus text format.
pub async fn metrics_endpoint(metrics: web::Data<HttpMetrics>) -> HttpResponse {
    let mut body = String::new();
    if let Err(error) = prometheus_client::encoding::text::encode(&mut body, &metrics.registry) {
        tracing::error!(error = %error, "cannot encode metrics");
        return HttpResponse::InternalServerError().finish();
    }
    HttpResponse::Ok()
        .content_type("application/openmetrics-text; version=1.0.0; charset=utf-8")
        .body(body)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_realtime_gauges_are_exported() {
        let metrics = HttpMetrics::new();
        realtime_gauges().sessions.inc();
        let mut body = String::new();
        prometheus_client::encoding::text::encode(&mut body, &metrics.registry).unwrap();
        realtime_gauges().sessions.dec();
        assert!(
            body.contains("# TYPE scribevault_realtime_sessions gauge"),
            "{body}"
        );
        assert!(
            body.contains("# TYPE scribevault_realtime_authenticated_sessions gauge"),
            "{body}"
        );
        assert!(
            !body.contains("scribevault_realtime_sessions 0\n"),
            "{body}"
        );
    }
}
