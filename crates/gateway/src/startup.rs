//! Builds the gateway's HTTP servers: the public port (the route table, the SPA, the edge's
//! middleware, one [`ApiContext`]) and the admin listener (`/metrics`, detailed `/readyz`).

use std::net::TcpListener;
use std::sync::Arc;

use actix_web::dev::Server;
use actix_web::middleware::{Compress, from_fn};
use actix_web::{App, HttpServer, web};
use scribevault_bus::EventBus;
use scribevault_cache::{Cache, InProcessCache, RedisCache};
use scribevault_core::AuthMode;
use sea_orm::DatabaseConnection;
use sea_orm_migration::MigratorTrait as _;
use secrecy::ExposeSecret as _;

use crate::auth::allow_list::EmailAllowList;
use crate::auth::api_tokens::{ApiTokens, WithApiTokens};
use crate::auth::client_address::TrustedProxies;
use crate::auth::invitations::Invitations;
use crate::auth::limiter::LoginLimiter;
use crate::auth::local::{LocalAccounts, LocalAccountsConfig, LocalAccountsParts};
use crate::auth::members::Members;
use crate::auth::oidc::OidcVerifier;
use crate::auth::password::PasswordHashing;
use crate::auth::{Revocations, SharedVerifier};
use crate::client_config::ClientConfig;
use crate::clients::{ServiceAddresses, ServiceClients};
use crate::config::{AuthConfig, GatewayConfig};
use crate::context::{AccessState, ApiContext, Limits, RealtimeState};
use crate::error::{json_error, path_error, query_error};
use crate::metrics::{HttpMetrics, metrics_endpoint, record_requests};
use crate::migration::Migrator;
use crate::readiness::{ReadinessCheck, ReadinessChecks};
use crate::realtime::{EngineSessions, RealtimeHub};
use crate::routes::health;
use crate::routes::spa;
use crate::routes::table as route_table;
use crate::security_headers::{ContentSecurityPolicy, SecurityHeaders, add_security_headers};
use crate::startup_error::StartupError;
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

/// The Socket.IO endpoint's state: this replica's sockets and how a CONNECT's token is checked.
fn realtime_state(hub: RealtimeHub, access: &AccessState) -> web::Data<RealtimeState> {
    web::Data::new(RealtimeState {
        hub,
        sessions: EngineSessions::default(),
        verifier: access.verifier.clone(),
        revocations: access.revocations.clone(),
        proxies: access.proxies.clone(),
    })
}

/// How large a JSON body the routes take: ordinary ones, and whole documents (Vault saves and
/// content edits, up to the library's message size).
fn json_configs(config: &GatewayConfig) -> (web::JsonConfig, web::JsonConfig) {
    let json = web::JsonConfig::default()
        .limit(config.limits.json_bytes)
        .error_handler(json_error);
    let document_json = web::JsonConfig::default()
        .limit(scribevault_proto::library::MAX_MESSAGE_BYTES - 1024 * 1024)
        .error_handler(json_error);
    (json, document_json)
}

/// Who may come in: the verifier of the auth mode, the members, and what sign-in shares.
async fn access_state(
    config: &GatewayConfig,
    db: &DatabaseConnection,
) -> Result<AccessState, StartupError> {
    let auth = &config.auth;
    let cache: Arc<dyn Cache> = match &config.redis_url {
        Some(url) => Arc::new(
            RedisCache::connect(url.expose_secret())
                .await
                .map_err(|error| StartupError::Redis(error.to_string()))?,
        ),
        // Bounded: keys an attacker invents are evicted, and every counter expires.
        None => Arc::new(InProcessCache::new(100_000)),
    };
    let revocations = Revocations::default();
    let members = Members::new(db.clone());
    let local = match auth.mode {
        AuthMode::Local => Some(Arc::new(local_accounts(config, db, cache, &revocations)?)),
        AuthMode::Oidc => None,
    };
    let mode_verifier: SharedVerifier = match &local {
        Some(accounts) => accounts.clone(),
        None => Arc::new(oidc_verifier(auth, members.clone())),
    };
    let tokens = ApiTokens::new(db.clone());
    let allow_list = match &local {
        Some(_) => EmailAllowList::default(),
        None => auth.oidc.policy.email_allow_list(),
    };
    let verifier: SharedVerifier = Arc::new(WithApiTokens {
        inner: mode_verifier,
        tokens: tokens.clone(),
        members: members.clone(),
        allow_list: allow_list.clone(),
    });
    Ok(AccessState {
        verifier,
        local,
        members,
        tokens,
        invitations: Invitations::new(db.clone()),
        revocations,
        allow_list,
        proxies: TrustedProxies(auth.trusted_proxies.clone()),
        invitation_hours: auth.invitation_hours,
    })
}

fn local_accounts(
    config: &GatewayConfig,
    db: &DatabaseConnection,
    cache: Arc<dyn Cache>,
    revocations: &Revocations,
) -> Result<LocalAccounts, StartupError> {
    let auth = &config.auth;
    LocalAccounts::new(
        db,
        &config.data_dir,
        LocalAccountsConfig {
            jwt_key: auth
                .jwt_key
                .as_ref()
                .map(|key| key.expose_secret().as_bytes().to_vec()),
            token_ttl: auth.token_ttl,
            session_ttl: auth.session_ttl,
            session_lifetime: auth.session_lifetime,
            sign_up: auth.sign_up,
        },
        LocalAccountsParts {
            hashing: PasswordHashing::new(auth.argon2_concurrency),
            limiter: LoginLimiter::new(cache, auth.login_attempts_per_minute),
            revocations: revocations.clone(),
        },
    )
    .map_err(|error| StartupError::LocalAccounts(error.to_string()))
}

fn oidc_verifier(auth: &AuthConfig, members: Members) -> OidcVerifier {
    let policy = &auth.oidc.policy;
    if policy.allowed_emails.is_empty()
        && policy.allowed_domains.is_empty()
        && policy.required_claim.is_none()
    {
        tracing::warn!(
            "OIDC mode without SCRIBEVAULT_OIDC_ALLOWED_EMAILS, _ALLOWED_DOMAINS or _REQUIRED_CLAIM: \
             every user the issuer signs in may use this instance"
        );
    }
    OidcVerifier::new(
        &auth.oidc.issuer,
        &auth.oidc.audience,
        auth.oidc.jwks_refetch,
        policy.clone(),
        members,
    )
}

fn bind(addr: &str, key: &'static str) -> Result<TcpListener, StartupError> {
    let bind_error = |reason: String| StartupError::Bind {
        key,
        addr: addr.to_owned(),
        reason,
    };
    let socket: std::net::SocketAddr = addr.parse().map_err(|e| bind_error(format!("{e}")))?;
    TcpListener::bind(socket).map_err(|e| bind_error(e.to_string()))
}

fn port_of(listener: &TcpListener, key: &'static str) -> Result<u16, StartupError> {
    listener
        .local_addr()
        .map(|addr| addr.port())
        .map_err(|error| StartupError::Bind {
            key,
            addr: String::new(),
            reason: error.to_string(),
        })
}

/// The public port: the route table, the SPA and the edge's middleware.
fn public_app(
    context: web::Data<ApiContext>,
    (json, document_json): (web::JsonConfig, web::JsonConfig),
    mcp: crate::mcp::McpService,
) -> App<
    impl actix_web::dev::ServiceFactory<
        actix_web::dev::ServiceRequest,
        Config = (),
        Response = actix_web::dev::ServiceResponse<impl actix_web::body::MessageBody>,
        Error = actix_web::Error,
        InitError = (),
    >,
> {
    let frontend_dir = context.frontend_dir.clone();
    let mut app = App::new()
        .wrap(Compress::default())
        .wrap(from_fn(add_security_headers))
        .wrap(from_fn(record_requests))
        .wrap(from_fn(trace_requests))
        // Middleware and extractors read narrow data of their own, not the whole context.
        .app_data(context.realtime.clone())
        .app_data(web::Data::from(context.access.verifier.clone()))
        .app_data(web::Data::from(context.metrics.clone()))
        .app_data(web::Data::new(context.clients.clone()))
        .app_data(web::Data::new(SecurityHeaders {
            csp: context.csp.clone(),
            proxies: context.access.proxies.clone(),
        }))
        .app_data(context)
        // actix's extractors read their configuration from app data; the rest is the context.
        .app_data(json)
        .app_data(web::QueryConfig::default().error_handler(query_error))
        .app_data(web::PathConfig::default().error_handler(path_error))
        .configure(|config| route_table::configure(config, &document_json))
        .configure(|config| crate::mcp::configure(config, mcp));
    if frontend_dir.join("index.html").is_file() {
        app = app.service(
            actix_files::Files::new("/", &frontend_dir)
                .index_file("index.html")
                .default_handler(web::to(spa::fallback)),
        );
    }
    app.default_service(web::to(spa::fallback))
}

fn admin_server(
    listener: TcpListener,
    readiness: Arc<ReadinessChecks>,
    metrics: Arc<HttpMetrics>,
) -> std::io::Result<Server> {
    let readiness = web::Data::from(readiness);
    let metrics = web::Data::from(metrics);
    Ok(HttpServer::new(move || {
        App::new()
            .app_data(readiness.clone())
            .app_data(metrics.clone())
            .route("/healthz", web::get().to(health::healthz))
            .route("/readyz", web::get().to(health::readyz_detailed))
            .route("/metrics", web::get().to(metrics_endpoint))
    })
    .workers(1)
    .listen(listener)?
    .shutdown_timeout(5)
    .disable_signals()
    .run())
}

/// Stops the event forwarding when the gateway goes away.
struct AbortOnDrop(tokio::task::JoinHandle<()>);

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        self.0.abort();
    }
}

impl Gateway {
    /// Migrates the gateway's tables and binds the public and admin listeners (port 0 picks
    /// a free one).
    ///
    /// # Errors
    /// Migration failure, an unreachable Redis, a bad service address, or an address that
    /// cannot be bound.
    pub async fn build(
        config: &GatewayConfig,
        dependencies: GatewayDependencies,
    ) -> Result<Self, StartupError> {
        Migrator::up(&dependencies.db, None)
            .await
            .map_err(|error| StartupError::Migration(error.to_string()))?;
        let access = access_state(config, &dependencies.db).await?;
        let clients = ServiceClients::connect_lazy(&dependencies.services)
            .map_err(|error| StartupError::ServiceAddress(error.to_string()))?;
        let readiness = Arc::new(ReadinessChecks {
            own: dependencies.readiness,
            downstream: clients.readiness_checks(),
        });
        let metrics = HttpMetrics::new();
        let hub = RealtimeHub::default();
        let settings = UserSettingsStore::new(dependencies.db.clone());
        let forwarding = tokio::spawn(
            hub.clone()
                .forward_events(dependencies.events.clone(), settings.clone()),
        );
        let auth = &config.auth;
        let realtime = realtime_state(hub, &access);
        let context = web::Data::new(ApiContext {
            clients,
            client_config: ClientConfig::new(
                auth,
                access.local.as_ref().map(|local| local.sign_up_policy()),
            ),
            csp: ContentSecurityPolicy::new(
                (auth.mode == AuthMode::Oidc).then_some(auth.oidc.issuer.as_str()),
            ),
            access,
            settings,
            frontend_dir: config.frontend_dir.clone(),
            realtime,
            readiness: readiness.clone(),
            metrics: metrics.clone(),
            limits: Limits {
                upload_bytes: config.limits.upload_bytes,
                pdf_bytes: config.limits.pdf_bytes,
            },
            openai: crate::openai::OpenAiState::new(&config.openai, &config.data_dir),
            feeds: crate::feeds::Feeds::new(dependencies.db.clone(), config.public_url.clone()),
        });
        let (json, document_json) = json_configs(config);
        let listener = bind(&config.http_addr, "SCRIBEVAULT_HTTP_ADDR")?;
        let port = port_of(&listener, "SCRIBEVAULT_HTTP_ADDR")?;
        let mcp = crate::mcp::service(context.clients.clone());
        let server = HttpServer::new(move || {
            public_app(
                context.clone(),
                (json.clone(), document_json.clone()),
                mcp.clone(),
            )
        })
        .listen(listener)
        .map_err(StartupError::Serve)?
        .shutdown_timeout(10)
        .disable_signals()
        .run();
        let admin_listener = bind(&config.admin_http_addr, "SCRIBEVAULT_ADMIN_HTTP_ADDR")?;
        let admin_port = port_of(&admin_listener, "SCRIBEVAULT_ADMIN_HTTP_ADDR")?;
        let admin_server =
            admin_server(admin_listener, readiness, metrics).map_err(StartupError::Serve)?;
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
