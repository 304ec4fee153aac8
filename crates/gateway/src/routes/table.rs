//! Every route of the gateway, with its access level, in one table. The HTTP server is built
//! from it and the access tests iterate it, so a route cannot be added without deciding who may
//! call it, nor forgotten by the tests.

use actix_web::http::Method;
use actix_web::middleware::from_fn;
use actix_web::{Route, guard, web};

use super::{
    account, admin, auth, config, conversion, discovery, downloads, health, library, schedules,
    sources, transcription, uploads, user_settings,
};
use crate::auth::{require_admin, require_authentication};
use crate::realtime::socket_io_endpoint;

/// Who may call a route.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    /// Anyone (sign-in itself, health, the client configuration, signed export links whose
    /// signature the library checks, the socket whose CONNECT carries the token).
    Public,
    /// A member with a valid token.
    SignedIn,
    /// An admin of the instance.
    Admin,
}

/// How large a JSON body a route takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BodyLimit {
    /// `SCRIBEVAULT_MAX_JSON_BYTES`.
    Normal,
    /// Whole documents (Vault saves, content edits): up to the library's message size.
    Document,
}

/// One route of the table.
pub struct ApiRoute {
    pub method: Method,
    pub path: &'static str,
    pub access: Access,
    pub body: BodyLimit,
    route: Route,
}

fn entry(method: Method, path: &'static str, access: Access, route: Route) -> ApiRoute {
    ApiRoute {
        method,
        path,
        access,
        body: BodyLimit::Normal,
        route,
    }
}

fn document(mut route: ApiRoute) -> ApiRoute {
    route.body = BodyLimit::Document;
    route
}

/// The public HTTP port's routes (metrics and verbose readiness live on the admin listener).
#[must_use]
#[allow(clippy::too_many_lines)] // one line per route is the point of the table
pub fn routes() -> Vec<ApiRoute> {
    use Access::{Admin, Public, SignedIn};
    let get = || Method::GET;
    let post = || Method::POST;
    let put = || Method::PUT;
    let patch = || Method::PATCH;
    let delete = || Method::DELETE;
    let to = web::route;
    vec![
        entry(get(), "/socket.io/", Public, to().to(socket_io_endpoint)),
        entry(post(), "/socket.io/", Public, to().to(socket_io_endpoint)),
        entry(get(), "/healthz", Public, to().to(health::healthz)),
        entry(get(), "/readyz", Public, to().to(health::readyz)),
        entry(
            get(),
            "/config.json",
            Public,
            to().to(config::client_config),
        ),
        entry(post(), "/api/auth/signup", Public, to().to(auth::sign_up)),
        entry(post(), "/api/auth/login", Public, to().to(auth::log_in)),
        entry(
            get(),
            "/api/auth/invitations/{secret}",
            Public,
            to().to(auth::invitation),
        ),
        // Public: the handler checks the (possibly expired) token against its live session.
        entry(post(), "/api/auth/refresh", Public, to().to(auth::refresh)),
        entry(post(), "/api/auth/logout", SignedIn, to().to(auth::log_out)),
        entry(
            post(),
            "/api/auth/logout-all",
            SignedIn,
            to().to(auth::log_out_everywhere),
        ),
        entry(
            post(),
            "/api/auth/password",
            SignedIn,
            to().to(auth::change_password),
        ),
        entry(
            post(),
            "/api/auth/2fa/setup",
            SignedIn,
            to().to(auth::begin_two_factor),
        ),
        entry(
            post(),
            "/api/auth/2fa/enable",
            SignedIn,
            to().to(auth::enable_two_factor),
        ),
        entry(
            post(),
            "/api/auth/2fa/disable",
            SignedIn,
            to().to(auth::disable_two_factor),
        ),
        entry(get(), "/api/account", SignedIn, to().to(account::get)),
        entry(get(), "/api/admin/users", Admin, to().to(admin::list_users)),
        entry(
            patch(),
            "/api/admin/users/{id}",
            Admin,
            to().to(admin::update_user),
        ),
        entry(
            delete(),
            "/api/admin/users/{id}",
            Admin,
            to().to(admin::delete_user),
        ),
        entry(
            get(),
            "/api/admin/invitations",
            Admin,
            to().to(admin::list_invitations),
        ),
        entry(
            post(),
            "/api/admin/invitations",
            Admin,
            to().to(admin::create_invitation),
        ),
        entry(
            delete(),
            "/api/admin/invitations/{id}",
            Admin,
            to().to(admin::delete_invitation),
        ),
        entry(
            get(),
            "/api/library/transcripts",
            SignedIn,
            to().to(library::list_transcripts),
        ),
        entry(
            get(),
            "/api/library/stats",
            SignedIn,
            to().to(library::stats),
        ),
        entry(get(), "/api/library/tags", SignedIn, to().to(library::tags)),
        entry(
            post(),
            "/api/library/system/init-tags",
            SignedIn,
            to().to(library::init_tags),
        ),
        entry(
            post(),
            "/api/library/system/init-gwth-tags",
            SignedIn,
            to().to(library::init_gwth_tags),
        ),
        entry(
            post(),
            "/api/library/process/batch",
            SignedIn,
            to().to(library::process_batch),
        ),
        entry(
            post(),
            "/api/library/export/bulk",
            SignedIn,
            to().to(library::export_bulk),
        ),
        entry(
            get(),
            "/api/library/exports/{id}",
            Public,
            to().to(library::download_export),
        ),
        entry(
            get(),
            "/api/library/syllabus-sections",
            SignedIn,
            to().to(library::sections),
        ),
        entry(
            post(),
            "/api/library/syllabus-sections",
            SignedIn,
            to().to(library::create_section),
        ),
        entry(
            put(),
            "/api/library/syllabus-sections/order",
            SignedIn,
            to().to(library::reorder_sections),
        ),
        entry(
            patch(),
            "/api/library/syllabus-sections/{id}",
            SignedIn,
            to().to(library::update_section),
        ),
        entry(
            delete(),
            "/api/library/syllabus-sections/{id}",
            SignedIn,
            to().to(library::delete_section),
        ),
        entry(
            get(),
            "/api/library/transcripts/{id}",
            SignedIn,
            to().to(library::get),
        ),
        entry(
            patch(),
            "/api/library/transcripts/{id}",
            SignedIn,
            to().to(library::rate),
        ),
        entry(
            delete(),
            "/api/library/transcripts/{id}",
            SignedIn,
            to().to(library::delete),
        ),
        entry(
            put(),
            "/api/library/transcripts/{id}/metadata",
            SignedIn,
            to().to(library::update_metadata),
        ),
        entry(
            get(),
            "/api/library/transcripts/{id}/suggestions",
            SignedIn,
            to().to(library::suggestions),
        ),
        entry(
            post(),
            "/api/library/transcripts/{id}/export",
            SignedIn,
            to().to(library::export),
        ),
        entry(
            get(),
            "/api/library/transcripts/{id}/content",
            SignedIn,
            to().to(library::content),
        ),
        document(entry(
            put(),
            "/api/library/transcripts/{id}/content",
            SignedIn,
            to().to(library::update_content),
        )),
        document(entry(
            post(),
            "/api/vault/save",
            SignedIn,
            to().to(library::save_to_vault),
        )),
        entry(
            post(),
            "/api/youtube-discovery/channel-videos",
            SignedIn,
            to().to(discovery::channel_videos),
        ),
        entry(
            post(),
            "/api/youtube-discovery/export",
            SignedIn,
            to().to(discovery::export),
        ),
        entry(
            get(),
            "/api/youtube-discovery/quota",
            SignedIn,
            to().to(discovery::quota),
        ),
        entry(
            post(),
            "/api/convert/markdown/batch",
            SignedIn,
            to().to(conversion::markdown_batch),
        ),
        entry(
            get(),
            "/api/convert/templates",
            SignedIn,
            to().to(conversion::list_templates),
        ),
        entry(
            post(),
            "/api/convert/templates",
            SignedIn,
            to().to(conversion::create_template),
        ),
        entry(
            put(),
            "/api/convert/templates/{id}",
            SignedIn,
            to().to(conversion::update_template),
        ),
        entry(
            delete(),
            "/api/convert/templates/{id}",
            SignedIn,
            to().to(conversion::delete_template),
        ),
        entry(
            post(),
            "/api/convert/pdf",
            SignedIn,
            to().to(conversion::convert_pdf),
        ),
        entry(
            post(),
            "/api/convert/pdf/batch",
            SignedIn,
            to().to(conversion::convert_pdf_batch),
        ),
        entry(
            post(),
            "/api/pdf-sources/reprocess-transcript/{id}",
            SignedIn,
            to().to(conversion::reprocess),
        ),
        entry(
            get(),
            "/api/user/settings",
            SignedIn,
            to().to(user_settings::get),
        ),
        entry(
            patch(),
            "/api/user/settings",
            SignedIn,
            to().to(user_settings::update),
        ),
        entry(
            post(),
            "/api/user/settings/reset",
            SignedIn,
            to().to(user_settings::reset),
        ),
        entry(get(), "/api/sources", SignedIn, to().to(sources::list)),
        entry(post(), "/api/sources", SignedIn, to().to(sources::create)),
        entry(
            delete(),
            "/api/sources/{id}",
            SignedIn,
            to().to(sources::delete),
        ),
        entry(
            get(),
            "/api/sources/{id}/videos",
            SignedIn,
            to().to(sources::videos),
        ),
        entry(get(), "/api/downloads", SignedIn, to().to(downloads::list)),
        entry(
            post(),
            "/api/downloads",
            SignedIn,
            to().to(downloads::create),
        ),
        entry(
            delete(),
            "/api/downloads/{id}",
            SignedIn,
            to().to(downloads::cancel),
        ),
        entry(
            post(),
            "/api/downloads/{id}/retry",
            SignedIn,
            to().to(downloads::retry),
        ),
        entry(get(), "/api/schedules", SignedIn, to().to(schedules::list)),
        entry(
            post(),
            "/api/schedules",
            SignedIn,
            to().to(schedules::create),
        ),
        entry(
            patch(),
            "/api/schedules/{id}",
            SignedIn,
            to().to(schedules::update),
        ),
        entry(
            delete(),
            "/api/schedules/{id}",
            SignedIn,
            to().to(schedules::delete),
        ),
        entry(
            post(),
            "/api/schedules/{id}/run",
            SignedIn,
            to().to(schedules::run),
        ),
        entry(
            post(),
            "/api/video-mp3/upload",
            SignedIn,
            to().to(uploads::upload_manual),
        ),
        entry(
            post(),
            "/api/video-mp3/upload/{videoId}",
            SignedIn,
            to().to(uploads::upload_for_video),
        ),
        entry(
            get(),
            "/api/video-mp3/status",
            SignedIn,
            to().to(uploads::status),
        ),
        entry(
            get(),
            "/api/video-mp3/manual-uploads",
            SignedIn,
            to().to(uploads::manual_uploads),
        ),
        entry(get(), "/api/files", SignedIn, to().to(uploads::download)),
        entry(
            post(),
            "/api/transcription/start",
            SignedIn,
            to().to(transcription::start),
        ),
        entry(
            post(),
            "/api/transcription/schedule",
            SignedIn,
            to().to(transcription::schedule),
        ),
        entry(
            post(),
            "/api/transcription/retry",
            SignedIn,
            to().to(transcription::retry),
        ),
        entry(
            post(),
            "/api/transcription/cancel",
            SignedIn,
            to().to(transcription::cancel),
        ),
        entry(
            get(),
            "/api/transcription/history/{jobId}",
            SignedIn,
            to().to(transcription::history),
        ),
        entry(
            get(),
            "/api/transcription/jobs/{jobId}",
            SignedIn,
            to().to(transcription::job),
        ),
        entry(
            get(),
            "/api/transcription/models",
            SignedIn,
            to().to(transcription::models),
        ),
    ]
}

/// `(method, path, access)` of every route: what the access tests walk.
#[must_use]
pub fn route_table() -> Vec<(Method, &'static str, Access)> {
    routes()
        .into_iter()
        .map(|route| (route.method, route.path, route.access))
        .collect()
}

/// Registers every route, each wrapped with the checks its access level needs.
pub fn configure(config: &mut web::ServiceConfig, document_json: &web::JsonConfig) {
    for ApiRoute {
        method,
        path,
        access,
        body,
        route,
    } in routes()
    {
        let mut resource = web::resource(path).guard(guard::Method(method));
        if body == BodyLimit::Document {
            resource = resource.app_data(document_json.clone());
        }
        let resource = resource.route(route);
        match access {
            Access::Public => config.service(resource),
            Access::SignedIn => config.service(resource.wrap(from_fn(require_authentication))),
            Access::Admin => config.service(
                resource
                    .wrap(from_fn(require_admin))
                    .wrap(from_fn(require_authentication)),
            ),
        };
    }
}
