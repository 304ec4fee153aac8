//! Runs one target, or all of them in one process. In monolithic mode the services still talk
//! gRPC over loopback, so both modes run the same code paths.

use std::future::Future;
use std::net::SocketAddr;

use anyhow::Context as _;
use scribevault_core::Settings;
use scribevault_gateway::{Gateway, GatewayDependencies, ServiceAddresses};
use tokio::sync::watch;

use scribevault_transcription::TranscriptionConfig;
use scribevault_transcription_worker::{TranscriptionWorker, WorkerConfig};

use crate::backends;
use crate::cli::{ModelCommand, Target};
use crate::listening::announce;

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
    announce(service, local);
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

fn transcription_config(settings: &Settings) -> TranscriptionConfig {
    TranscriptionConfig {
        model_dir: settings.effective_model_dir(),
        offered_models: settings.whisper_models.as_ref().map(|list| {
            let mut models: Vec<String> = list
                .split(',')
                .map(str::trim)
                .filter(|name| !name.is_empty())
                .map(str::to_owned)
                .collect();
            models.sort();
            models
        }),
        max_retries: settings.max_retries,
        retry_base_delay: std::time::Duration::from_secs(settings.retry_base_delay_seconds),
        retry_max_delay: std::time::Duration::from_secs(settings.retry_max_delay_seconds),
        default_model: settings.default_model.clone(),
        housekeeping_interval: std::time::Duration::from_millis(settings.housekeeping_interval_ms),
        resend_ingests_within: std::time::Duration::from_secs(
            settings.resend_ingests_within_seconds,
        ),
        stale_after: std::time::Duration::from_secs(settings.worker_stale_seconds),
    }
}

fn worker_config(settings: &Settings, transcription_addr: String) -> WorkerConfig {
    WorkerConfig {
        model_dir: settings.effective_model_dir(),
        threads: settings.whisper_threads,
        concurrency: settings.whisper_concurrency,
        language: settings.whisper_language.clone(),
        transcription_addr,
    }
}

/// Runs `target` until SIGINT/SIGTERM or until a part of it fails.
pub async fn run(target: Target, settings: Settings) -> anyhow::Result<()> {
    let shutdown = Shutdown::listen();
    if target != Target::All
        && settings.amqp_url.is_none()
        && !matches!(
            target,
            Target::Discovery | Target::Conversion | Target::Storage | Target::Model(_)
        )
    {
        tracing::warn!(
            target = target.name(),
            "SCRIBEVAULT_AMQP_URL is unset: the in-process bus only reaches targets inside this process"
        );
    }
    match target {
        Target::All => run_all(settings, shutdown).await,
        Target::Model(ModelCommand::Fetch { name, base_url }) => {
            crate::model_fetch::fetch_model(&settings.effective_model_dir(), &name, &base_url)
                .await
                .map(|_| ())
        }
        Target::Gateway => {
            let db = backends::database(&settings).await?;
            let bus = backends::bus(&settings).await?;
            // The gateway streams uploads to storage and never touches blobs itself.
            let readiness = backends::readiness_checks(&db, &bus, None);
            let dependencies = GatewayDependencies {
                db,
                services: service_addresses(&settings),
                readiness,
                events: bus.events.clone(),
            };
            run_gateway(&settings, dependencies, shutdown).await
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
        Target::Storage => {
            let db = backends::database(&settings).await?;
            let blob = backends::blob_store(&settings).await?;
            let (listener, addr) = bind_service(&settings, "storage", false).await?;
            let storage =
                scribevault_storage::StorageServer::build(db, blob, settings.max_upload_bytes)
                    .await
                    .context("storage")?;
            tracing::info!(%addr, "storage gRPC listening");
            storage
                .run(listener, shutdown.requested())
                .await
                .map_err(|e| anyhow::anyhow!("storage: {e}"))
        }
        Target::Transcription => {
            let db = backends::database(&settings).await?;
            let bus = backends::bus(&settings).await?;
            let blob = backends::blob_store(&settings).await?;
            let (listener, addr) = bind_service(&settings, "transcription", false).await?;
            let service = scribevault_transcription::TranscriptionServer::build(
                db,
                bus.events,
                bus.work,
                blob,
                transcription_config(&settings),
            )
            .await
            .context("transcription")?;
            tracing::info!(%addr, "transcription gRPC listening");
            service
                .run(listener, shutdown.requested())
                .await
                .map_err(|e| anyhow::anyhow!("transcription: {e}"))
        }
        Target::Discovery | Target::Conversion => {
            let (listener, addr) = bind_service(&settings, target.name(), false).await?;
            let name = target.name();
            tracing::info!(%addr, target = name, "gRPC listening");
            skeleton_service(target, listener, shutdown.requested())
                .await
                .map_err(|e| anyhow::anyhow!("{name}: {e}"))
        }
        Target::TranscriptionWorker => {
            let bus = backends::bus(&settings).await?;
            let blob = backends::blob_store(&settings).await?;
            let addresses = service_addresses(&settings);
            let worker = TranscriptionWorker::new(
                worker_config(&settings, addresses.transcription),
                bus.work,
                bus.events,
                blob,
            );
            worker.run(shutdown.requested()).await;
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
    announce("http", SocketAddr::new(host, gateway.port()));
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
    for (service, target) in [
        ("discovery", Target::Discovery),
        ("conversion", Target::Conversion),
    ] {
        let (listener, addr) = bind_service(&settings, service, true).await?;
        addresses.push((service, addr));
        let stop = shutdown.requested();
        services.spawn(async move {
            (
                target.name(),
                skeleton_service(target, listener, stop).await,
            )
        });
    }
    let (storage_listener, storage_addr) = bind_service(&settings, "storage", true).await?;
    addresses.push(("storage", storage_addr));
    let storage = scribevault_storage::StorageServer::build(
        db.clone(),
        blob.clone(),
        settings.max_upload_bytes,
    )
    .await
    .context("storage")?;
    let stop = shutdown.requested();
    services.spawn(async move { ("storage", storage.run(storage_listener, stop).await) });

    let (transcription_listener, transcription_addr) =
        bind_service(&settings, "transcription", true).await?;
    addresses.push(("transcription", transcription_addr));
    let transcription = scribevault_transcription::TranscriptionServer::build(
        db.clone(),
        bus.events.clone(),
        bus.work.clone(),
        blob.clone(),
        transcription_config(&settings),
    )
    .await
    .context("transcription")?;
    let stop = shutdown.requested();
    services.spawn(async move {
        (
            "transcription",
            transcription.run(transcription_listener, stop).await,
        )
    });

    let (library_listener, library_addr) = bind_service(&settings, "library", true).await?;
    addresses.push(("library", library_addr));
    let library =
        scribevault_library::LibraryServer::build(db.clone(), bus.work.clone(), bus.events.clone())
            .await
            .context("library")?;
    let stop = shutdown.requested();
    services.spawn(async move { ("library", library.run(library_listener, stop).await) });

    let worker = TranscriptionWorker::new(
        worker_config(&settings, transcription_addr.to_string()),
        bus.work.clone(),
        bus.events.clone(),
        blob.clone(),
    );
    let worker_stop = shutdown.requested();
    services.spawn(async move {
        worker.run(worker_stop).await;
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
        library: addr_of("library"),
    };
    let readiness = backends::readiness_checks(&db, &bus, Some(&blob));
    let dependencies = GatewayDependencies {
        db,
        services: service_addrs,
        readiness,
        events: bus.events.clone(),
    };
    let gateway = run_gateway(&settings, dependencies, shutdown.clone());
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
