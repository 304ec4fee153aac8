//! `GET /config.json`: what the SPA needs to know before anyone signs in, so one build of the
//! SPA runs against any deployment.

use actix_web::{HttpResponse, web};
use utoipa::OpenApi;

use crate::auth::local::SignUpPolicy;
use crate::client_config::ClientConfig;
use crate::context::Context;
use crate::error::ApiError;
use crate::routes::table::{Access, RouteList};

/// What the SPA needs before anyone signs in: the auth mode and, for OIDC, the issuer to sign
/// in with. Never contains a secret.
///
/// # Errors
/// The members cannot be read (local mode).
#[utoipa::path(get, path = "/config.json", tag = "meta", responses((status = 200, body = ClientConfig)))]
pub async fn client_config(context: Context) -> Result<HttpResponse, ApiError> {
    let mut config = context.client_config.clone();
    if let ClientConfig::Local { signup } = &mut config
        && context.access.members.is_empty().await?
    {
        *signup = SignUpPolicy::Open.as_str();
    }
    Ok(HttpResponse::Ok()
        .insert_header(("Cache-Control", "no-cache"))
        .json(config))
}

#[derive(OpenApi)]
#[openapi(paths(client_config))]
pub(crate) struct Docs;

pub(super) fn routes() -> RouteList {
    RouteList::default()
        .add::<__path_client_config>(Access::Public, || web::to(client_config))
        .answered_from_memory()
}
