//! Runs one target, or all of them in one process. In monolithic mode the services still talk
//! gRPC over loopback, so both modes run the same code paths.

use std::future::Future;
use std::net::SocketAddr;

use anyhow::Context as _;
use scribevault_core::Settings;
use scribevault_gateway::{Gateway, GatewayDependencies, ServiceAddresses};
use tokio::sync::watch;

use crate::backends;
use crate::cli::Target;

/// Where each gRPC service listens in microservice mode unless `SCRIBEVAULT_<SERVICE>_GRPC_ADDR`
/// says otherwise.
const DEFAULT_GRPC_ADDRS: [(&str, &str); 5] = [
    ("discovery", "127.0.0.1:50051"),
    ("storage", "127.0.0.1:50052"),
    ("transcription", "127.0.0.1:50053"),
    ("conversion", "127.0.0.1:50054"),
    ("library", "127.0.0.1:50055"),
];

type ServiceResult = Result<(), Box<dyn std::error::Error + Send + Sync>>;

/// Resolves once shutdown was requested (SIGINT or SIGTERM).
#[derive(Clone)]
struct Shutdown(watch::Receiver<bool>);

impl Shutdown {
    fn listen() -> Self {
        let (sender, receiver) = watch::channel(false);
        tokio::spawn(async move {
            wait_for_signal().await;
            tracing::info!("shutdown requested");
            let _ = sender.send(true);
        });
        Self(receiver)
    }

    fn requested(&self) -> impl Future<Output = ()> + Send + 'static {
        let mut receiver = self.0.clone();
        async move {
            let _ = receiver.wait_for(|stop| *stop).await;
        }
    }
}

async fn wait_for_signal() {
    let interrupt = tokio::signal::ctrl_c();
    #[cfg(unix)]
    {
        let mut terminate =
            match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
                Ok(terminate) => terminate,
                Err(_) => return std::future::pending().await,
            };
        tokio::select! {
            _ = interrupt => {},
            _ = terminate.recv() => {},
        }
    }
    #[cfg(not(unix))]
    let _ = interrupt.await;
}

fn configured_addr(settings: &Settings, service: &str) -> Option<String> {
    match service {
        "discovery" => settings.discovery_grpc_addr.clone(),
        "storage" => settings.storage_grpc_addr.clone(),
        "transcription" => settings.transcription_grpc_addr.clone(),
        "conversion" => settings.conversion_grpc_addr.clone(),
        "library" => settings.library_grpc_addr.clone(),
        _ => None,
    }
    .map(|addr| addr.trim_start_matches("http://").to_owned())
}

/// The address a service binds (microservice mode: configured or its default; monolithic mode:
/// configured or any free loopback port).
async fn bind_service(
    settings: &Settings,
    service: &str,
    monolithic: bool,
) -> anyhow::Result<(tokio::net::TcpListener, SocketAddr)> {
    let key = format!("SCRIBEVAULT_{}_GRPC_ADDR", service.to_uppercase());
    let addr = configured_addr(settings, service).unwrap_or_else(|| {
        if monolithic {
            "127.0.0.1:0".to_owned()
        } else {
            DEFAULT_GRPC_ADDRS
                .iter()
                .find(|(name, _)| *name == service)
                .map_or("127.0.0.1:0", |(_, addr)| addr)
                .to_owned()
        }
    });
    let bind_addr = match addr.rsplit_once(':') {
        // In a cluster the key names the service host the gateway dials; the service itself
        // listens on every interface at that port.
        Some((host, port)) if host.parse::<std::net::IpAddr>().is_err() && host != "localhost" => {
            format!("0.0.0.0:{port}")
        }
        _ => addr.clone(),
    };
    let listener = tokio::net::TcpListener::bind(&bind_addr)
        .await
        .with_context(|| format!("{key}: cannot bind {bind_addr}"))?;
    let local = listener.local_addr()?;
    Ok((listener, local))
}

fn service_addresses(settings: &Settings) -> ServiceAddresses {
    let addr = |service: &str| {
        configured_addr(settings, service).unwrap_or_else(|| {
            DEFAULT_GRPC_ADDRS
                .iter()
                .find(|(name, _)| *name == service)
                .map_or_else(String::new, |(_, addr)| (*addr).to_owned())
        })
    };
    ServiceAddresses {
        discovery: addr("discovery"),
        storage: addr("storage"),
        transcription: addr("transcription"),
        conversion: addr("conversion"),
        library: addr("library"),
    }
}

/// Runs `target` until SIGINT/SIGTERM or until a part of it fails.
pub async fn run(target: Target, settings: Settings) -> anyhow::Result<()> {
    let shutdown = Shutdown::listen();
    if target != Target::All
        && settings.amqp_url.is_none()
        && target != Target::Discovery
        && target != Target::Conversion
    {
        tracing::warn!(
            target = target.name(),
            "SCRIBEVAULT_AMQP_URL is unset: the in-process bus only reaches targets inside this process"
        );
    }
    match target {
        Target::All => run_all(settings, shutdown).await,
        Target::Gateway => {
            let db = backends::database(&settings).await?;
            let bus = backends::bus(&settings).await?;
            let blob = backends::blob_store(&settings).await?;
            let readiness = backends::readiness_checks(&db, &bus, Some(&blob));
            run_gateway(
                &settings,
                GatewayDependencies {
                    db,
                    services: service_addresses(&settings),
                    readiness,
                },
                shutdown,
            )
            .await
        }
        Target::Library => {
            let db = backends::database(&settings).await?;
            let bus = backends::bus(&settings).await?;
            let (listener, addr) = bind_service(&settings, "library", false).await?;
            let library = scribevault_library::LibraryServer::build(db, bus.work, bus.events)
                .await
                .context("library")?;
            tracing::info!(%addr, "library gRPC listening");
            library
                .run(listener, shutdown.requested())
                .await
                .map_err(|e| anyhow::anyhow!("library: {e}"))
        }
        Target::Discovery | Target::Storage | Target::Transcription | Target::Conversion => {
            let (listener, addr) = bind_service(&settings, target.name(), false).await?;
            tracing::info!(%addr, target = target.name(), "gRPC listening");
            skeleton_service(target, listener, shutdown.requested())
                .await
                .map_err(|e| anyhow::anyhow!("{}: {e}", target.name()))
        }
        Target::TranscriptionWorker => {
            scribevault_transcription_worker::TranscriptionWorker
                .run(shutdown.requested())
                .await;
            Ok(())
        }
    }
}

async fn skeleton_service(
    target: Target,
    listener: tokio::net::TcpListener,
    shutdown: impl Future<Output = ()> + Send,
) -> ServiceResult {
    match target {
        Target::Discovery => {
            scribevault_discovery::DiscoveryServer
                .run(listener, shutdown)
                .await
        }
        Target::Storage => {
            scribevault_storage::StorageServer
                .run(listener, shutdown)
                .await
        }
        Target::Transcription => {
            scribevault_transcription::TranscriptionServer
                .run(listener, shutdown)
                .await
        }
        Target::Conversion => {
            scribevault_conversion::ConversionServer
                .run(listener, shutdown)
                .await
        }
        _ => Ok(()),
    }
}

async fn run_gateway(
    settings: &Settings,
    dependencies: GatewayDependencies,
    shutdown: Shutdown,
) -> anyhow::Result<()> {
    let gateway = Gateway::build(settings, dependencies)
        .await
        .map_err(|e| anyhow::anyhow!("gateway: {e}"))?;
    let handle = gateway.handle();
    let requested = shutdown.requested();
    tokio::spawn(async move {
        requested.await;
        handle.stop(true).await;
    });
    let host = settings.http_socket_addr()?.ip();
    tracing::info!(
        "scribevault gateway listening on http://{host}:{}",
        gateway.port()
    );
    gateway.run().await.context("gateway")
}

async fn run_all(settings: Settings, shutdown: Shutdown) -> anyhow::Result<()> {
    let db = backends::database(&settings).await?;
    let bus = backends::bus(&settings).await?;
    let blob = backends::blob_store(&settings).await?;

    let mut services = tokio::task::JoinSet::new();
    let mut addresses = Vec::new();
    for service in ["discovery", "storage", "transcription", "conversion"] {
        let (listener, addr) = bind_service(&settings, service, true).await?;
        addresses.push((service, addr));
        let target = match service {
            "discovery" => Target::Discovery,
            "storage" => Target::Storage,
            "transcription" => Target::Transcription,
            _ => Target::Conversion,
        };
        let stop = shutdown.requested();
        services.spawn(async move {
            (
                target.name(),
                skeleton_service(target, listener, stop).await,
            )
        });
    }
    let (library_listener, library_addr) = bind_service(&settings, "library", true).await?;
    let library =
        scribevault_library::LibraryServer::build(db.clone(), bus.work.clone(), bus.events.clone())
            .await
            .context("library")?;
    let stop = shutdown.requested();
    services.spawn(async move { ("library", library.run(library_listener, stop).await) });
    let worker_stop = shutdown.requested();
    services.spawn(async move {
        scribevault_transcription_worker::TranscriptionWorker
            .run(worker_stop)
            .await;
        ("transcription-worker", Ok(()))
    });

    let addr_of = |service: &str| {
        addresses
            .iter()
            .find(|(name, _)| *name == service)
            .map(|(_, addr)| addr.to_string())
            .unwrap_or_default()
    };
    let service_addrs = ServiceAddresses {
        discovery: addr_of("discovery"),
        storage: addr_of("storage"),
        transcription: addr_of("transcription"),
        conversion: addr_of("conversion"),
        library: library_addr.to_string(),
    };
    let readiness = backends::readiness_checks(&db, &bus, Some(&blob));
    let gateway = run_gateway(
        &settings,
        GatewayDependencies {
            db,
            services: service_addrs,
            readiness,
        },
        shutdown.clone(),
    );
    tokio::pin!(gateway);
    loop {
        tokio::select! {
            result = &mut gateway => {
                services.shutdown().await;
                return result;
            }
            Some(joined) = services.join_next() => {
                let (name, result) = joined.context("a service task panicked")?;
                if let Err(error) = result {
                    anyhow::bail!("{name} failed: {error}");
                }
            }
        }
    }
}
