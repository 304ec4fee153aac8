//! Builds the gateway's HTTP server.

use std::net::TcpListener;
use std::sync::Arc;
use std::time::Duration;

use actix_web::dev::Server;
use actix_web::middleware::{Compress, from_fn};
use actix_web::{App, HttpServer, web};
use scribevault_bus::EventBus;
use scribevault_cache::{Cache, InProcessCache, RedisCache};
use scribevault_core::settings::list as settings_list;
use scribevault_core::{AuthMode, Settings};
use sea_orm::DatabaseConnection;
use sea_orm_migration::MigratorTrait as _;
use secrecy::ExposeSecret as _;

use crate::auth::client_address::TrustedProxies;
use crate::auth::invitations::Invitations;
use crate::auth::limiter::LoginLimiter;
use crate::auth::local::{LocalAccounts, LocalAccountsConfig, LocalAccountsParts, SignUpPolicy};
use crate::auth::members::Members;
use crate::auth::oidc::{OidcPolicy, OidcVerifier};
use crate::auth::password::PasswordHashing;
use crate::auth::{Revocations, SharedVerifier};
use crate::clients::{ServiceAddresses, ServiceClients};
use crate::error::{json_error, path_error, query_error};
use crate::metrics::{HttpMetrics, metrics_endpoint, record_requests};
use crate::migration::Migrator;
use crate::readiness::{ReadinessCheck, ReadinessChecks};
use crate::realtime::{EngineSessions, RealtimeHub};
use crate::routes::admin::Admin;
use crate::routes::config::ClientConfig;
use crate::routes::conversion::PdfLimit;
use crate::routes::health::{self, ReadinessDetail};
use crate::routes::spa::{self, FrontendDir};
use crate::routes::table as route_table;
use crate::routes::uploads::UploadLimit;
use crate::security_headers::{ContentSecurityPolicy, add_security_headers};
use crate::trace::trace_requests;
use crate::user_settings::UserSettingsStore;

/// What the binary hands the gateway: its database, where the services are, and the checks of
/// the backends it was wired with.
pub struct GatewayDependencies {
    /// The gateway's own database (local accounts, settings).
    pub db: DatabaseConnection,
    /// Downstream gRPC services.
    pub services: ServiceAddresses,
    /// Checks of what the gateway itself needs to answer (database, bus); `/readyz` runs only
    /// these. Downstream services are checked for `/readyz?verbose` and never make it unready.
    pub readiness: Vec<ReadinessCheck>,
    /// Events to deliver to this replica's sockets.
    pub events: Arc<dyn EventBus>,
}

/// A bound, not yet running gateway.
pub struct Gateway {
    server: Server,
    admin_server: Server,
    port: u16,
    admin_port: u16,
    _forwarding: AbortOnDrop,
}

/// Stops both of the gateway's listeners.
#[derive(Clone)]
pub struct GatewayHandle {
    public: actix_web::dev::ServerHandle,
    admin: actix_web::dev::ServerHandle,
}

impl GatewayHandle {
    /// Stops serving; `graceful` lets requests in flight finish.
    pub async fn stop(&self, graceful: bool) {
        futures::join!(self.public.stop(graceful), self.admin.stop(graceful));
    }
}

/// Who may come in: the verifier of the auth mode, the members, and what sign-in shares.
struct AccessControl {
    verifier: SharedVerifier,
    local: Option<Arc<LocalAccounts>>,
    members: Members,
    invitations: Invitations,
    revocations: Revocations,
    proxies: TrustedProxies,
}

impl AccessControl {
    async fn build(
        settings: &Settings,
        mode: AuthMode,
        db: &DatabaseConnection,
    ) -> Result<Self, StartupError> {
        let cache: Arc<dyn Cache> = match &settings.redis_url {
            Some(url) => Arc::new(
                RedisCache::connect(url)
                    .await
                    .map_err(|e| format!("SCRIBEVAULT_REDIS_URL: {e}"))?,
            ),
            // Bounded: keys an attacker invents are evicted, and every counter expires.
            None => Arc::new(InProcessCache::new(100_000)),
        };
        let revocations = Revocations::default();
        let members = Members::new(db.clone());
        let local = match mode {
            AuthMode::Local => Some(Arc::new(
                LocalAccounts::new(
                    db,
                    &settings.data_dir,
                    LocalAccountsConfig {
                        jwt_key: settings
                            .jwt_key
                            .as_ref()
                            .map(|key| key.expose_secret().as_bytes().to_vec()),
                        token_ttl: Duration::from_secs(settings.token_ttl_seconds),
                        session_ttl: Duration::from_secs(settings.session_ttl_seconds),
                        sign_up: SignUpPolicy::from_setting(&settings.signup),
                    },
                    LocalAccountsParts {
                        hashing: PasswordHashing::new(settings.argon2_concurrency),
                        limiter: LoginLimiter::new(cache, settings.login_attempts_per_minute),
                        revocations: revocations.clone(),
                    },
                )
                .map_err(|e| e.to_string())?,
            )),
            AuthMode::Oidc => None,
        };
        let verifier: SharedVerifier = match &local {
            Some(accounts) => accounts.clone(),
            None => Arc::new(OidcVerifier::new(
                settings.oidc_issuer.as_deref().unwrap_or_default(),
                settings.oidc_audience.as_deref().unwrap_or_default(),
                Duration::from_secs(settings.oidc_jwks_refetch_seconds),
                oidc_policy(settings),
                members.clone(),
            )),
        };
        Ok(Self {
            verifier,
            local,
            members,
            invitations: Invitations::new(db.clone()),
            revocations,
            proxies: TrustedProxies(settings.trusted_proxy_ranges()),
        })
    }
}

fn lower_list(value: Option<&str>) -> Vec<String> {
    value
        .map(|value| settings_list(value).map(str::to_lowercase).collect())
        .unwrap_or_default()
}

fn oidc_policy(settings: &Settings) -> OidcPolicy {
    let policy = OidcPolicy {
        client_id: settings.oidc_client_id.clone(),
        allowed_emails: lower_list(settings.oidc_allowed_emails.as_deref()),
        allowed_domains: lower_list(settings.oidc_allowed_domains.as_deref()),
        required_claim: settings.oidc_required_claim.as_deref().and_then(|claim| {
            claim
                .split_once('=')
                .map(|(name, value)| (name.trim().to_owned(), value.trim().to_owned()))
        }),
        admin_emails: lower_list(settings.admin_emails.as_deref()),
    };
    if policy.allowed_emails.is_empty()
        && policy.allowed_domains.is_empty()
        && policy.required_claim.is_none()
    {
        tracing::warn!(
            "OIDC mode without SCRIBEVAULT_OIDC_ALLOWED_EMAILS, _ALLOWED_DOMAINS or _REQUIRED_CLAIM: \
             every user the issuer signs in may use this instance"
        );
    }
    policy
}

fn bind(addr: &str, key: &str) -> Result<TcpListener, StartupError> {
    let socket: std::net::SocketAddr = addr
        .parse()
        .map_err(|e| format!("invalid {key}={addr}: {e}"))?;
    Ok(TcpListener::bind(socket).map_err(|e| format!("cannot bind {key}={addr}: {e}"))?)
}

/// Everything the public app's handlers read, cloned into each worker.
#[derive(Clone)]
struct SharedData {
    local_accounts: web::Data<Option<Arc<LocalAccounts>>>,
    verifier: web::Data<SharedVerifier>,
    revocations: web::Data<Revocations>,
    members: web::Data<Members>,
    invitations: web::Data<Invitations>,
    proxies: web::Data<TrustedProxies>,
    csp: web::Data<ContentSecurityPolicy>,
    admin: web::Data<Admin>,
    clients: web::Data<ServiceClients>,
    readiness: web::Data<ReadinessChecks>,
    metrics: web::Data<HttpMetrics>,
    client_config: web::Data<ClientConfig>,
    frontend: web::Data<FrontendDir>,
    hub: web::Data<RealtimeHub>,
    engine_sessions: web::Data<EngineSessions>,
    upload_limit: web::Data<UploadLimit>,
    pdf_limit: web::Data<PdfLimit>,
    settings_store: web::Data<UserSettingsStore>,
    json: web::JsonConfig,
    document_json: web::JsonConfig,
}

/// The public port: the route table, the SPA and the edge's middleware.
fn public_app(
    shared: SharedData,
    frontend_dir: std::path::PathBuf,
) -> App<
    impl actix_web::dev::ServiceFactory<
        actix_web::dev::ServiceRequest,
        Config = (),
        Response = actix_web::dev::ServiceResponse<impl actix_web::body::MessageBody>,
        Error = actix_web::Error,
        InitError = (),
    >,
> {
    let mut app = App::new()
        .wrap(Compress::default())
        .wrap(from_fn(add_security_headers))
        .wrap(from_fn(record_requests))
        .wrap(from_fn(trace_requests))
        .app_data(shared.json.clone())
        .app_data(web::QueryConfig::default().error_handler(query_error))
        .app_data(web::PathConfig::default().error_handler(path_error))
        .app_data(shared.local_accounts)
        .app_data(shared.verifier)
        .app_data(shared.revocations)
        .app_data(shared.members)
        .app_data(shared.invitations)
        .app_data(shared.proxies)
        .app_data(shared.csp)
        .app_data(shared.admin)
        .app_data(shared.clients)
        .app_data(shared.readiness)
        .app_data(shared.metrics)
        .app_data(shared.client_config)
        .app_data(shared.frontend)
        .app_data(shared.hub)
        .app_data(shared.engine_sessions)
        .app_data(shared.upload_limit)
        .app_data(shared.pdf_limit)
        .app_data(shared.settings_store)
        .configure(|config| route_table::configure(config, &shared.document_json));
    if frontend_dir.join("index.html").is_file() {
        app = app.service(
            actix_files::Files::new("/", &frontend_dir)
                .index_file("index.html")
                .default_handler(web::to(spa::fallback)),
        );
    }
    app.default_service(web::to(spa::fallback))
}

/// Stops the event forwarding when the gateway goes away.
struct AbortOnDrop(tokio::task::JoinHandle<()>);

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        self.0.abort();
    }
}

impl Gateway {
    /// Migrates the gateway's tables and binds `SCRIBEVAULT_HTTP_ADDR` and the admin listener
    /// (port 0 picks a free one).
    ///
    /// # Errors
    /// Bad settings, migration failure, an unreachable Redis, or an address cannot be bound.
    pub async fn build(
        settings: &Settings,
        dependencies: GatewayDependencies,
    ) -> Result<Self, StartupError> {
        Migrator::up(&dependencies.db, None)
            .await
            .map_err(|e| format!("gateway migrations failed: {e}"))?;
        let mode = settings.auth_mode().map_err(|e| e.to_string())?;
        let access = AccessControl::build(settings, mode, &dependencies.db).await?;
        let clients = ServiceClients::connect_lazy(&dependencies.services)
            .map_err(|e| format!("invalid service address: {e}"))?;
        let readiness = web::Data::new(ReadinessChecks {
            own: dependencies.readiness,
            downstream: clients.readiness_checks(),
        });
        let metrics = web::Data::from(HttpMetrics::new());
        let hub = RealtimeHub::default();
        let settings_store = UserSettingsStore::new(dependencies.db.clone());
        let forwarding = tokio::spawn(
            hub.clone()
                .forward_events(dependencies.events.clone(), settings_store.clone()),
        );
        let admin = web::Data::new(Admin {
            members: access.members.clone(),
            invitations: access.invitations.clone(),
            settings: settings_store.clone(),
            local: access.local.clone(),
            revocations: access.revocations.clone(),
            proxies: access.proxies.clone(),
            invitation_hours: settings.invitation_hours,
        });
        let shared = SharedData {
            local_accounts: web::Data::new(access.local.clone()),
            verifier: web::Data::new(access.verifier.clone()),
            revocations: web::Data::new(access.revocations.clone()),
            members: web::Data::new(access.members.clone()),
            invitations: web::Data::new(access.invitations.clone()),
            proxies: web::Data::new(access.proxies.clone()),
            csp: web::Data::new(ContentSecurityPolicy::new(
                (mode == AuthMode::Oidc)
                    .then_some(settings.oidc_issuer.as_deref())
                    .flatten(),
            )),
            admin,
            clients: web::Data::new(clients),
            readiness: readiness.clone(),
            metrics: metrics.clone(),
            client_config: web::Data::new(ClientConfig::from_settings(
                settings,
                mode,
                access.local.as_ref().map(|local| local.sign_up_policy()),
            )),
            frontend: web::Data::new(FrontendDir(settings.frontend_dir.clone())),
            hub: web::Data::new(hub),
            engine_sessions: web::Data::new(EngineSessions::default()),
            upload_limit: web::Data::new(UploadLimit(settings.max_upload_bytes)),
            pdf_limit: web::Data::new(PdfLimit(settings.max_pdf_bytes)),
            settings_store: web::Data::new(settings_store),
            json: web::JsonConfig::default()
                .limit(settings.max_json_bytes)
                .error_handler(json_error),
            // Vault saves and content edits carry whole documents: up to the library's message size.
            document_json: web::JsonConfig::default()
                .limit(scribevault_proto::library::MAX_MESSAGE_BYTES - 1024 * 1024)
                .error_handler(json_error),
        };
        let listener = bind(&settings.http_addr, "SCRIBEVAULT_HTTP_ADDR")?;
        let port = listener.local_addr().map_err(|e| e.to_string())?.port();
        let frontend_dir = settings.frontend_dir.clone();
        let server = HttpServer::new(move || public_app(shared.clone(), frontend_dir.clone()))
            .listen(listener)
            .map_err(|e| e.to_string())?
            .shutdown_timeout(10)
            .disable_signals()
            .run();
        let admin_addr = settings
            .admin_http_addr
            .clone()
            .unwrap_or_else(|| "127.0.0.1:0".to_owned());
        let admin_listener = bind(&admin_addr, "SCRIBEVAULT_ADMIN_HTTP_ADDR")?;
        let admin_port = admin_listener
            .local_addr()
            .map_err(|e| e.to_string())?
            .port();
        let admin_server = HttpServer::new(move || {
            App::new()
                .app_data(readiness.clone())
                .app_data(metrics.clone())
                .app_data(web::Data::new(ReadinessDetail(true)))
                .route("/healthz", web::get().to(health::healthz))
                .route("/readyz", web::get().to(health::readyz))
                .route("/metrics", web::get().to(metrics_endpoint))
        })
        .workers(1)
        .listen(admin_listener)
        .map_err(|e| e.to_string())?
        .shutdown_timeout(5)
        .disable_signals()
        .run();
        Ok(Self {
            server,
            admin_server,
            port,
            admin_port,
            _forwarding: AbortOnDrop(forwarding),
        })
    }

    /// The bound HTTP port.
    #[must_use]
    pub fn port(&self) -> u16 {
        self.port
    }

    /// The bound admin port (`/metrics`, detailed `/readyz`).
    #[must_use]
    pub fn admin_port(&self) -> u16 {
        self.admin_port
    }

    /// A handle that stops both listeners.
    #[must_use]
    pub fn handle(&self) -> GatewayHandle {
        GatewayHandle {
            public: self.server.handle(),
            admin: self.admin_server.handle(),
        }
    }

    /// Serves until stopped.
    ///
    /// # Errors
    /// A server fails.
    pub async fn run(self) -> std::io::Result<()> {
        let (public, admin) = futures::join!(self.server, self.admin_server);
        public.and(admin)
    }
}

/// Why the gateway could not start; one printable line naming the cause.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct StartupError(String);

impl From<String> for StartupError {
    fn from(message: String) -> Self {
        Self(message)
    }
}
