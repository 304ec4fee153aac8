//! Serving any of our gRPC services the same way: every call of the service must carry an
//! identity assertion signed with the instance's service key for the method it calls (checked
//! here, by an interceptor that is told the called method, so no handler can forget it), `grpc.health.v1` health (so Kubernetes' native gRPC probes and
//! `grpc_health_probe` work, without an assertion), server reflection only when
//! `SCRIBEVAULT_GRPC_REFLECTION` turns it on (it hands a stranger the whole API), and one span
//! per call whose parent is the caller's trace.

use std::convert::Infallible;
use std::future::Future;
use std::sync::atomic::{AtomicBool, Ordering};
use std::task::{Context, Poll};

use tonic::server::NamedService;
use tonic_health::ServingStatus;

/// HTTP/2 flow-control windows. The 64 KiB default makes a streamed upload wait for a window
/// update every 64 KiB; a few MiB keep the pipe full on any network the services share.
const STREAM_WINDOW_BYTES: u32 = 4 * 1024 * 1024;
const CONNECTION_WINDOW_BYTES: u32 = 8 * 1024 * 1024;

static REFLECTION: AtomicBool = AtomicBool::new(false);

/// Serves gRPC server reflection on every server this process starts from now on (a debugging
/// aid, off by default).
pub fn enable_reflection() {
    REFLECTION.store(true, Ordering::Relaxed);
}

/// Serves `service` on `listener` until `shutdown` resolves.
///
/// # Errors
/// The transport fails or reflection cannot be built.
pub async fn serve<S>(
    listener: tokio::net::TcpListener,
    service: S,
    shutdown: impl Future<Output = ()> + Send,
) -> Result<(), Box<dyn std::error::Error + Send + Sync>>
where
    S: tower_service::Service<
            http::Request<tonic::body::Body>,
            Response = http::Response<tonic::body::Body>,
            Error = Infallible,
        > + NamedService
        + Clone
        + Send
        + Sync
        + 'static,
    S::Future: Send + 'static,
{
    let (health_reporter, health_service) = tonic_health::server::health_reporter();
    health_reporter
        .set_service_status(S::NAME, ServingStatus::Serving)
        .await;
    let reflection = if REFLECTION.load(Ordering::Relaxed) {
        Some(
            tonic_reflection::server::Builder::configure()
                .register_encoded_file_descriptor_set(crate::FILE_DESCRIPTOR_SET)
                .register_encoded_file_descriptor_set(tonic_health::pb::FILE_DESCRIPTOR_SET)
                .build_v1()?,
        )
    } else {
        None
    };
    let service = WithCalledMethod(tonic::service::interceptor::InterceptedService::new(
        service,
        scribevault_core::identity::verify_incoming,
    ));
    tonic::transport::Server::builder()
        .initial_stream_window_size(STREAM_WINDOW_BYTES)
        .initial_connection_window_size(CONNECTION_WINDOW_BYTES)
        .trace_fn(|request: &http::Request<()>| {
            let span = tracing::info_span!("grpc.request", rpc = %request.uri().path());
            scribevault_core::telemetry::set_parent_from(
                &span,
                &scribevault_core::telemetry::HeaderExtractor(request.headers()),
            );
            span
        })
        .add_service(health_service)
        .add_optional_service(reflection)
        .add_service(service)
        .serve_with_incoming_shutdown(incoming_without_nagle(listener), shutdown)
        .await?;
    Ok(())
}

/// The accepted connections of `listener`, with Nagle's algorithm off. tonic sets
/// `TCP_NODELAY` only on listeners it binds itself; on ours, a response written as several
/// HTTP/2 frames (headers, data, trailers) waited for the client's delayed ACK, 40 ms on Linux,
/// on every call whose answer filled more than one segment.
fn incoming_without_nagle(
    listener: tokio::net::TcpListener,
) -> impl tokio_stream::Stream<Item = std::io::Result<tokio::net::TcpStream>> {
    use tokio_stream::StreamExt as _;
    tokio_stream::wrappers::TcpListenerStream::new(listener).map(|accepted| {
        let stream = accepted?;
        stream.set_nodelay(true)?;
        Ok(stream)
    })
}

/// Tells the identity check which method a call names: the interceptor sees the request's
/// extensions but not its path, so the path is copied into them first. Wraps the intercepted
/// service (here, and in tests that serve fakes behind the same check).
#[derive(Clone)]
pub struct WithCalledMethod<S>(pub S);

impl<S: NamedService> NamedService for WithCalledMethod<S> {
    const NAME: &'static str = S::NAME;
}

impl<S, B> tower_service::Service<http::Request<B>> for WithCalledMethod<S>
where
    S: tower_service::Service<http::Request<B>>,
{
    type Response = S::Response;
    type Error = S::Error;
    type Future = S::Future;

    fn poll_ready(&mut self, context: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.0.poll_ready(context)
    }

    fn call(&mut self, mut request: http::Request<B>) -> Self::Future {
        let method = scribevault_core::identity::CalledMethod(request.uri().path().to_owned());
        request.extensions_mut().insert(method);
        self.0.call(request)
    }
}

/// A lazily connecting channel to `addr` (`host:port`, with or without `http://`) that sends the
/// current trace context with every call.
///
/// # Errors
/// The address is not a valid URI.
pub fn connect_lazy(addr: &str) -> Result<tonic::transport::Channel, tonic::transport::Error> {
    let uri = if addr.starts_with("http://") || addr.starts_with("https://") {
        addr.to_owned()
    } else {
        format!("http://{addr}")
    };
    Ok(tonic::transport::Endpoint::from_shared(uri)?
        .connect_timeout(std::time::Duration::from_secs(5))
        .initial_stream_window_size(STREAM_WINDOW_BYTES)
        .initial_connection_window_size(CONNECTION_WINDOW_BYTES)
        .tcp_nodelay(true)
        .connect_lazy())
}
