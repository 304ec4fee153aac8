//! Prometheus metrics of the gateway: request counts and latency histograms labelled by method,
//! route pattern (never the raw path, which would explode cardinality) and status.

use std::sync::Arc;
use std::time::Instant;

use actix_web::body::MessageBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::middleware::Next;
use actix_web::{HttpResponse, web};
use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::histogram::{Histogram, exponential_buckets};
use prometheus_client::registry::Registry;

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct HttpLabels {
    method: String,
    route: String,
    status: u16,
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
