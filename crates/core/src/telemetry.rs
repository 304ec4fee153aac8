//! Logs and traces for every target, set up once by [`init`].
//!
//! Logs go to stdout (JSON when `SCRIBEVAULT_LOG_FORMAT=json`). When the standard
//! `OTEL_EXPORTER_OTLP_ENDPOINT` is set, spans are also exported over OTLP/gRPC. The W3C trace
//! context travels in HTTP headers, gRPC metadata and bus message headers, so a request is one
//! trace across processes; the inject/extract helpers below are the only place that knows how.

use std::collections::HashMap;

use opentelemetry::propagation::{Extractor, Injector};
use opentelemetry::trace::TracerProvider as _;
use opentelemetry_sdk::propagation::TraceContextPropagator;
use opentelemetry_sdk::trace::SdkTracerProvider;
use tracing_opentelemetry::OpenTelemetrySpanExt as _;
use tracing_subscriber::layer::SubscriberExt as _;
use tracing_subscriber::util::SubscriberInitExt as _;
use tracing_subscriber::{EnvFilter, Layer as _};

/// Default filter: our crates at info, chatty dependencies at warn.
const DEFAULT_FILTER: &str = "info,sqlx=warn,sea_orm=warn,sea_orm_migration=warn,lapin=warn,h2=warn,hyper=warn,tower=warn,aws=warn,actix_server=warn,whisper_rs=warn";

/// Flushes exported spans when dropped, so a short-lived process does not lose its last trace.
pub struct TelemetryGuard {
    provider: Option<SdkTracerProvider>,
}

impl Drop for TelemetryGuard {
    fn drop(&mut self) {
        if let Some(provider) = self.provider.take() {
            // Shutdown blocks on the exporter; never do that on an async worker thread.
            let _ = std::thread::spawn(move || {
                let _ = provider.force_flush();
                let _ = provider.shutdown();
            })
            .join();
        }
    }
}

/// Installs the global subscriber and propagator. Safe to call more than once (tests do); only
/// the first call wins.
#[must_use]
pub fn init(service_name: &str, json_logs: bool) -> TelemetryGuard {
    opentelemetry::global::set_text_map_propagator(TraceContextPropagator::new());
    let filter =
        EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new(DEFAULT_FILTER));
    let fmt_layer = if json_logs {
        tracing_subscriber::fmt::layer()
            .json()
            .with_current_span(false)
            .boxed()
    } else {
        tracing_subscriber::fmt::layer().compact().boxed()
    };
    let provider = otlp_provider(service_name);
    let otel_layer = provider
        .as_ref()
        .map(|provider| tracing_opentelemetry::layer().with_tracer(provider.tracer("scribevault")));
    let installed = tracing_subscriber::registry()
        .with(filter)
        .with(fmt_layer)
        .with(otel_layer)
        .try_init()
        .is_ok();
    TelemetryGuard {
        provider: if installed { provider } else { None },
    }
}

fn otlp_provider(service_name: &str) -> Option<SdkTracerProvider> {
    let endpoint = std::env::var("OTEL_EXPORTER_OTLP_ENDPOINT")
        .ok()
        .filter(|v| !v.is_empty())?;
    let exporter = match opentelemetry_otlp::SpanExporter::builder()
        .with_tonic()
        .build()
    {
        Ok(exporter) => exporter,
        Err(error) => {
            eprintln!(
                "OTEL_EXPORTER_OTLP_ENDPOINT={endpoint}: cannot build the OTLP exporter: {error}"
            );
            return None;
        }
    };
    let service_name =
        std::env::var("OTEL_SERVICE_NAME").unwrap_or_else(|_| service_name.to_owned());
    let resource = opentelemetry_sdk::Resource::builder()
        .with_service_name(service_name)
        .build();
    Some(
        SdkTracerProvider::builder()
            .with_batch_exporter(exporter)
            .with_resource(resource)
            .build(),
    )
}

/// Writes the current span's context into any string map (bus headers, HTTP headers).
pub fn inject_current_context(carrier: &mut dyn Injector) {
    let context = tracing::Span::current().context();
    opentelemetry::global::get_text_map_propagator(|propagator| {
        propagator.inject_context(&context, carrier);
    });
}

/// The current span's W3C `traceparent`, if it is part of a sampled trace.
#[must_use]
pub fn current_traceparent() -> Option<String> {
    let mut carrier = HashMap::new();
    inject_current_context(&mut carrier);
    carrier.remove("traceparent")
}

/// Makes `span` a child of the remote context found in `carrier`.
pub fn set_parent_from(span: &tracing::Span, carrier: &dyn Extractor) {
    let context =
        opentelemetry::global::get_text_map_propagator(|propagator| propagator.extract(carrier));
    let _ = span.set_parent(context);
}

/// Makes `span` a child of a `traceparent` string (as carried in event envelopes).
pub fn set_parent_from_traceparent(span: &tracing::Span, traceparent: &str) {
    let carrier = HashMap::from([("traceparent".to_owned(), traceparent.to_owned())]);
    set_parent_from(span, &carrier);
}

/// gRPC metadata as a propagation carrier, for clients (inject) and servers (extract).
pub struct MetadataCarrier<'a>(pub &'a mut tonic::metadata::MetadataMap);

impl Injector for MetadataCarrier<'_> {
    fn set(&mut self, key: &str, value: String) {
        if let (Ok(key), Ok(value)) = (
            tonic::metadata::MetadataKey::from_bytes(key.as_bytes()),
            tonic::metadata::MetadataValue::try_from(value.as_str()),
        ) {
            self.0.insert(key, value);
        }
    }
}

/// Read-only view of gRPC metadata for extraction.
pub struct MetadataExtractor<'a>(pub &'a tonic::metadata::MetadataMap);

impl Extractor for MetadataExtractor<'_> {
    fn get(&self, key: &str) -> Option<&str> {
        self.0.get(key).and_then(|value| value.to_str().ok())
    }

    fn keys(&self) -> Vec<&str> {
        self.0
            .keys()
            .filter_map(|key| match key {
                tonic::metadata::KeyRef::Ascii(key) => Some(key.as_str()),
                tonic::metadata::KeyRef::Binary(_) => None,
            })
            .collect()
    }
}

/// Read-only view of HTTP headers (http 1.x) for extraction.
pub struct HeaderExtractor<'a>(pub &'a http::HeaderMap);

impl Extractor for HeaderExtractor<'_> {
    fn get(&self, key: &str) -> Option<&str> {
        self.0.get(key).and_then(|value| value.to_str().ok())
    }

    fn keys(&self) -> Vec<&str> {
        self.0.keys().map(http::HeaderName::as_str).collect()
    }
}

/// A tonic interceptor that sends the current trace context with every outgoing call.
///
/// # Errors
/// Never; the signature is tonic's.
#[allow(clippy::unnecessary_wraps, clippy::needless_pass_by_value)]
pub fn propagate_trace_context(
    mut request: tonic::Request<()>,
) -> Result<tonic::Request<()>, tonic::Status> {
    inject_current_context(&mut MetadataCarrier(request.metadata_mut()));
    Ok(request)
}
