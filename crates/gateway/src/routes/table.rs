//! Every route of the gateway, with its access level, in one table. The HTTP server is built
//! from it and the access tests iterate it, so a route cannot be added without deciding who may
//! call it, nor forgotten by the tests.

use actix_web::http::Method;
use actix_web::middleware::from_fn;
use actix_web::{Route, guard, web};

use super::{
    account, admin, auth, config, conversion, discovery, downloads, feeds, health, library,
    openapi, schedules, sources, tokens, transcription, transcription_queue, uploads,
    user_settings, webhooks,
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

/// One route of the table. Its method and path come from the handler's `#[utoipa::path]`, so
/// the OpenAPI document and the server cannot disagree on where a route is.
pub struct ApiRoute {
    pub method: Method,
    pub path: String,
    pub access: Access,
    pub body: BodyLimit,
    /// Whether the answer needs the database or a downstream service, so it can be 503 when
    /// one is down (false: answered from the process's own memory, like `/healthz`).
    pub reaches_services: bool,
    route: Route,
}

/// A module's routes, in registration order.
#[derive(Default)]
pub struct RouteList(Vec<ApiRoute>);

impl RouteList {
    /// Adds the handler documented by `P` (its `__path_<handler>` type) for each of its methods;
    /// `handler` makes the actix route (`web::to(handler)`).
    #[must_use]
    pub fn add<P: utoipa::Path>(mut self, access: Access, handler: impl Fn() -> Route) -> Self {
        for method in P::methods() {
            self.0.push(ApiRoute {
                method: http_method(&method),
                path: P::path(),
                access,
                body: BodyLimit::Normal,
                reaches_services: true,
                route: handler(),
            });
        }
        self
    }

    /// The route added last takes whole documents as its body.
    #[must_use]
    pub fn with_document_body(mut self) -> Self {
        if let Some(route) = self.0.last_mut() {
            route.body = BodyLimit::Document;
        }
        self
    }

    /// The route added last is answered from the process's own memory: it never answers 503.
    #[must_use]
    pub fn answered_from_memory(mut self) -> Self {
        if let Some(route) = self.0.last_mut() {
            route.reaches_services = false;
        }
        self
    }

    /// Appends another module's routes.
    #[must_use]
    pub fn merge(mut self, other: RouteList) -> Self {
        self.0.extend(other.0);
        self
    }
}

fn http_method(method: &utoipa::openapi::HttpMethod) -> Method {
    use utoipa::openapi::HttpMethod;
    match method {
        HttpMethod::Get => Method::GET,
        HttpMethod::Post => Method::POST,
        HttpMethod::Put => Method::PUT,
        HttpMethod::Delete => Method::DELETE,
        HttpMethod::Options => Method::OPTIONS,
        HttpMethod::Head => Method::HEAD,
        HttpMethod::Patch => Method::PATCH,
        HttpMethod::Trace => Method::TRACE,
    }
}

/// The public HTTP port's routes, module by module (metrics and verbose readiness live on the
/// admin listener).
#[must_use]
pub fn routes() -> Vec<ApiRoute> {
    RouteList::default()
        .merge(realtime_routes())
        .merge(health::routes())
        .merge(config::routes())
        .merge(openapi::routes())
        .merge(auth::routes())
        .merge(account::routes())
        .merge(tokens::routes())
        .merge(super::openai::routes())
        .merge(feeds::routes())
        .merge(webhooks::routes())
        .merge(admin::routes())
        .merge(library::routes())
        .merge(discovery::routes())
        .merge(conversion::routes())
        .merge(user_settings::routes())
        .merge(sources::routes())
        .merge(downloads::routes())
        .merge(schedules::routes())
        .merge(uploads::routes())
        .merge(transcription::routes())
        .merge(transcription_queue::routes())
        .0
}

fn realtime_routes() -> RouteList {
    RouteList::default().add::<crate::realtime::__path_socket_io_endpoint>(Access::Public, || {
        web::to(socket_io_endpoint)
    })
}

/// `(method, path, access)` of every route: what the access tests walk.
#[must_use]
pub fn route_table() -> Vec<(Method, String, Access)> {
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
        ..
    } in routes()
    {
        let mut resource = web::resource(path.as_str()).guard(guard::Method(method));
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
