//! `GET /api/account`: who the caller is, in either auth mode (the SPA shows the Users tab to
//! admins).

use actix_web::{HttpResponse, web};
use serde::Serialize;
use utoipa::{OpenApi, ToSchema};

use crate::auth::Caller;
use crate::context::Context;
use crate::error::{ApiError, Envelope, data};
use crate::routes::table::{Access, RouteList};

/// The caller as the SPA sees them.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AccountView {
    id: String,
    email: String,
    is_admin: bool,
    /// Signs in with an authenticator code (local accounts; the issuer's business in OIDC mode).
    two_factor_enabled: bool,
}

/// Who the signed-in caller is, in either auth mode (the SPA shows the Users tab to admins).
///
/// # Errors
/// The gateway's database cannot be read.
#[utoipa::path(get, path = "/api/account", tag = "auth", responses((status = 200, body = Envelope<AccountView>)))]
pub async fn get(caller: Caller, context: Context) -> Result<HttpResponse, ApiError> {
    let two_factor_enabled = match context.access.local.as_ref() {
        Some(local) => local.two_factor_enabled(caller.user.as_str()).await?,
        None => false,
    };
    Ok(data(AccountView {
        id: caller.user.to_string(),
        email: caller.email,
        is_admin: caller.is_admin,
        two_factor_enabled,
    }))
}

#[derive(OpenApi)]
#[openapi(paths(get))]
pub(crate) struct Docs;

pub(super) fn routes() -> RouteList {
    RouteList::default().add::<__path_get>(Access::SignedIn, || web::to(get))
}
