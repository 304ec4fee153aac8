//! Builds the gateway's HTTP server.

use std::net::TcpListener;
use std::sync::Arc;
use std::time::Duration;

use actix_web::dev::Server;
use actix_web::middleware::{Compress, from_fn};
use actix_web::{App, HttpServer, web};
use scribevault_bus::EventBus;
use scribevault_core::{AuthMode, Settings};
use sea_orm::DatabaseConnection;
use sea_orm_migration::MigratorTrait as _;

use crate::auth::local::LocalAccounts;
use crate::auth::oidc::OidcVerifier;
use crate::auth::{SharedVerifier, require_authentication};
use crate::clients::{ServiceAddresses, ServiceClients};
use crate::error::{json_error, path_error, query_error};
use crate::metrics::{HttpMetrics, metrics_endpoint, record_requests};
use crate::migration::Migrator;
use crate::readiness::{ReadinessCheck, ReadinessChecks};
use crate::realtime::{EngineSessions, RealtimeHub, socket_io_endpoint};
use crate::routes::config::ClientConfig;
use crate::routes::conversion::PdfLimit;
use crate::routes::spa::FrontendDir;
use crate::routes::uploads::UploadLimit;
use crate::routes::{
    auth, config, conversion, discovery, downloads, health, library, schedules, sources, spa,
    transcription, uploads, user_settings as settings_routes,
};
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
    port: u16,
    _forwarding: AbortOnDrop,
}

/// Stops the event forwarding when the gateway goes away.
struct AbortOnDrop(tokio::task::JoinHandle<()>);

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        self.0.abort();
    }
}

impl Gateway {
    /// Migrates the gateway's tables and binds `SCRIBEVAULT_HTTP_ADDR` (port 0 picks a free one).
    ///
    /// # Errors
    /// Bad settings, migration failure, or the address cannot be bound.
    pub async fn build(
        settings: &Settings,
        dependencies: GatewayDependencies,
    ) -> Result<Self, StartupError> {
        Migrator::up(&dependencies.db, None)
            .await
            .map_err(|e| format!("gateway migrations failed: {e}"))?;
        let mode = settings.auth_mode().map_err(|e| e.to_string())?;
        let local_accounts = match mode {
            AuthMode::Local => Some(Arc::new(
                LocalAccounts::new(
                    dependencies.db.clone(),
                    &settings.data_dir,
                    Duration::from_secs(settings.token_ttl_seconds),
                    settings.login_attempts_per_minute,
                )
                .map_err(|e| e.to_string())?,
            )),
            AuthMode::Oidc => None,
        };
        let verifier: SharedVerifier = match (&local_accounts, mode) {
            (Some(accounts), _) => accounts.clone(),
            (None, _) => Arc::new(OidcVerifier::new(
                settings.oidc_issuer.as_deref().unwrap_or_default(),
                settings.oidc_audience.as_deref().unwrap_or_default(),
                Duration::from_secs(settings.oidc_jwks_refetch_seconds),
            )),
        };
        let clients = ServiceClients::connect_lazy(&dependencies.services)
            .map_err(|e| format!("invalid service address: {e}"))?;
        let readiness_checks = ReadinessChecks {
            own: dependencies.readiness,
            downstream: clients.readiness_checks(),
        };

        let local_accounts = web::Data::new(local_accounts);
        let verifier = web::Data::new(verifier);
        let clients = web::Data::new(clients);
        let readiness = web::Data::new(readiness_checks);
        let metrics = web::Data::from(HttpMetrics::new());
        let client_config = web::Data::new(ClientConfig::from_settings(settings, mode));
        let frontend = web::Data::new(FrontendDir(settings.frontend_dir.clone()));
        let frontend_dir = settings.frontend_dir.clone();
        let hub = RealtimeHub::default();
        let settings_store = UserSettingsStore::new(dependencies.db.clone());
        let forwarding = tokio::spawn(
            hub.clone()
                .forward_events(dependencies.events.clone(), settings_store.clone()),
        );
        let settings_store = web::Data::new(settings_store);
        let hub = web::Data::new(hub);
        let engine_sessions = web::Data::new(EngineSessions::default());
        let upload_limit = web::Data::new(UploadLimit(settings.max_upload_bytes));
        let pdf_limit = web::Data::new(PdfLimit(settings.max_pdf_bytes));
        let serve_static = frontend_dir.join("index.html").is_file();
        let json_config = web::JsonConfig::default()
            .limit(settings.max_json_bytes)
            .error_handler(json_error);
        // Vault saves and content edits carry whole documents: up to the library's message size.
        let large_json = web::JsonConfig::default()
            .limit(scribevault_proto::library::MAX_MESSAGE_BYTES - 1024 * 1024)
            .error_handler(json_error);
        let query_config = web::QueryConfig::default().error_handler(query_error);
        let path_config = web::PathConfig::default().error_handler(path_error);

        let listener = TcpListener::bind(settings.http_socket_addr().map_err(|e| e.to_string())?)
            .map_err(|e| {
            format!(
                "cannot bind SCRIBEVAULT_HTTP_ADDR={}: {e}",
                settings.http_addr
            )
        })?;
        let port = listener.local_addr().map_err(|e| e.to_string())?.port();
        let server = HttpServer::new(move || {
            let mut app = App::new()
                .wrap(from_fn(require_authentication))
                .wrap(Compress::default())
                .wrap(from_fn(record_requests))
                .wrap(from_fn(trace_requests))
                .app_data(json_config.clone())
                .app_data(query_config.clone())
                .app_data(path_config.clone())
                .app_data(local_accounts.clone())
                .app_data(verifier.clone())
                .app_data(clients.clone())
                .app_data(readiness.clone())
                .app_data(metrics.clone())
                .app_data(client_config.clone())
                .app_data(frontend.clone())
                .app_data(hub.clone())
                .app_data(engine_sessions.clone())
                .app_data(upload_limit.clone())
                .app_data(pdf_limit.clone())
                .app_data(settings_store.clone())
                .route("/socket.io/", web::route().to(socket_io_endpoint))
                .route("/healthz", web::get().to(health::healthz))
                .route("/readyz", web::get().to(health::readyz))
                .route("/metrics", web::get().to(metrics_endpoint))
                .route("/config.json", web::get().to(config::client_config))
                .service(
                    web::scope("/api")
                        .route("/auth/signup", web::post().to(auth::sign_up))
                        .route("/auth/login", web::post().to(auth::log_in))
                        .route(
                            "/library/transcripts",
                            web::get().to(library::list_transcripts),
                        )
                        .route("/library/stats", web::get().to(library::stats))
                        .route("/library/tags", web::get().to(library::tags))
                        .route(
                            "/library/system/init-tags",
                            web::post().to(library::init_tags),
                        )
                        .route(
                            "/library/system/init-gwth-tags",
                            web::post().to(library::init_gwth_tags),
                        )
                        .route(
                            "/library/process/batch",
                            web::post().to(library::process_batch),
                        )
                        .route("/library/export/bulk", web::post().to(library::export_bulk))
                        .route(
                            "/library/exports/{id}",
                            web::get().to(library::download_export),
                        )
                        .route(
                            "/library/syllabus-sections",
                            web::get().to(library::sections),
                        )
                        .route(
                            "/library/syllabus-sections",
                            web::post().to(library::create_section),
                        )
                        .route(
                            "/library/syllabus-sections/order",
                            web::put().to(library::reorder_sections),
                        )
                        .route(
                            "/library/syllabus-sections/{id}",
                            web::patch().to(library::update_section),
                        )
                        .route(
                            "/library/syllabus-sections/{id}",
                            web::delete().to(library::delete_section),
                        )
                        .route("/library/transcripts/{id}", web::get().to(library::get))
                        .route("/library/transcripts/{id}", web::patch().to(library::rate))
                        .route(
                            "/library/transcripts/{id}/metadata",
                            web::put().to(library::update_metadata),
                        )
                        .route(
                            "/library/transcripts/{id}/suggestions",
                            web::get().to(library::suggestions),
                        )
                        .route(
                            "/library/transcripts/{id}/export",
                            web::post().to(library::export),
                        )
                        .service(
                            web::resource("/vault/save")
                                .app_data(large_json.clone())
                                .route(web::post().to(library::save_to_vault)),
                        )
                        .route(
                            "/library/transcripts/{id}",
                            web::delete().to(library::delete),
                        )
                        .route(
                            "/library/transcripts/{id}/content",
                            web::get().to(library::content),
                        )
                        .service(
                            web::resource("/library/transcripts/{id}/content")
                                .app_data(large_json.clone())
                                .route(web::put().to(library::update_content)),
                        )
                        .route(
                            "/youtube-discovery/channel-videos",
                            web::post().to(discovery::channel_videos),
                        )
                        .route(
                            "/youtube-discovery/export",
                            web::post().to(discovery::export),
                        )
                        .route(
                            "/convert/markdown/batch",
                            web::post().to(conversion::markdown_batch),
                        )
                        .route(
                            "/convert/templates",
                            web::get().to(conversion::list_templates),
                        )
                        .route(
                            "/convert/templates",
                            web::post().to(conversion::create_template),
                        )
                        .route(
                            "/convert/templates/{id}",
                            web::put().to(conversion::update_template),
                        )
                        .route(
                            "/convert/templates/{id}",
                            web::delete().to(conversion::delete_template),
                        )
                        .route("/convert/pdf", web::post().to(conversion::convert_pdf))
                        .route(
                            "/convert/pdf/batch",
                            web::post().to(conversion::convert_pdf_batch),
                        )
                        .route(
                            "/pdf-sources/reprocess-transcript/{id}",
                            web::post().to(conversion::reprocess),
                        )
                        .route("/user/settings", web::get().to(settings_routes::get))
                        .route("/user/settings", web::patch().to(settings_routes::update))
                        .route(
                            "/user/settings/reset",
                            web::post().to(settings_routes::reset),
                        )
                        .route("/youtube-discovery/quota", web::get().to(discovery::quota))
                        .route("/sources", web::get().to(sources::list))
                        .route("/sources", web::post().to(sources::create))
                        .route("/sources/{id}", web::delete().to(sources::delete))
                        .route("/sources/{id}/videos", web::get().to(sources::videos))
                        .route("/downloads", web::get().to(downloads::list))
                        .route("/downloads", web::post().to(downloads::create))
                        .route("/downloads/{id}", web::delete().to(downloads::cancel))
                        .route("/downloads/{id}/retry", web::post().to(downloads::retry))
                        .route("/schedules", web::get().to(schedules::list))
                        .route("/schedules", web::post().to(schedules::create))
                        .route("/schedules/{id}", web::patch().to(schedules::update))
                        .route("/schedules/{id}", web::delete().to(schedules::delete))
                        .route("/schedules/{id}/run", web::post().to(schedules::run))
                        .route("/video-mp3/upload", web::post().to(uploads::upload_manual))
                        .route(
                            "/video-mp3/upload/{videoId}",
                            web::post().to(uploads::upload_for_video),
                        )
                        .route("/video-mp3/status", web::get().to(uploads::status))
                        .route(
                            "/video-mp3/manual-uploads",
                            web::get().to(uploads::manual_uploads),
                        )
                        .route("/files", web::get().to(uploads::download))
                        .route("/transcription/start", web::post().to(transcription::start))
                        .route(
                            "/transcription/schedule",
                            web::post().to(transcription::schedule),
                        )
                        .route("/transcription/retry", web::post().to(transcription::retry))
                        .route(
                            "/transcription/cancel",
                            web::post().to(transcription::cancel),
                        )
                        .route(
                            "/transcription/history/{jobId}",
                            web::get().to(transcription::history),
                        )
                        .route(
                            "/transcription/jobs/{jobId}",
                            web::get().to(transcription::job),
                        )
                        .route(
                            "/transcription/models",
                            web::get().to(transcription::models),
                        )
                        .default_service(web::to(spa::fallback)),
                );
            if serve_static {
                app = app.service(
                    actix_files::Files::new("/", &frontend_dir)
                        .index_file("index.html")
                        .default_handler(web::to(spa::fallback)),
                );
            }
            app.default_service(web::to(spa::fallback))
        })
        .listen(listener)
        .map_err(|e| e.to_string())?
        .shutdown_timeout(10)
        .disable_signals()
        .run();
        Ok(Self {
            server,
            port,
            _forwarding: AbortOnDrop(forwarding),
        })
    }

    /// The bound HTTP port.
    #[must_use]
    pub fn port(&self) -> u16 {
        self.port
    }

    /// A handle that stops the server.
    #[must_use]
    pub fn handle(&self) -> actix_web::dev::ServerHandle {
        self.server.handle()
    }

    /// Serves until stopped.
    ///
    /// # Errors
    /// The server fails.
    pub async fn run(self) -> std::io::Result<()> {
        self.server.await
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
