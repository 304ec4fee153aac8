//! `GET /api/account`: who the caller is, in either auth mode (the SPA shows the Users tab to
//! admins).

use actix_web::HttpResponse;
use serde::Serialize;

use crate::auth::Caller;
use crate::error::{ApiError, data};
use crate::routes::auth::LocalAccountsData;

/// The caller as the SPA sees them.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AccountView {
    id: String,
    email: String,
    is_admin: bool,
    /// Signs in with an authenticator code (local accounts; the issuer's business in OIDC mode).
    two_factor_enabled: bool,
}

/// The signed-in caller.
///
/// # Errors
/// The gateway's database cannot be read.
pub async fn get(caller: Caller, local: LocalAccountsData) -> Result<HttpResponse, ApiError> {
    let two_factor_enabled = match local.as_ref() {
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
