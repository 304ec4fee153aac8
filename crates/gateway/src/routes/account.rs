//! `GET /api/account`: who the caller is, in either auth mode (the SPA shows the Users tab to
//! admins).

use actix_web::HttpResponse;
use serde::Serialize;

use crate::auth::Caller;
use crate::error::data;

/// The caller as the SPA sees them.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AccountView {
    id: String,
    email: String,
    is_admin: bool,
}

/// The signed-in caller.
pub async fn get(caller: Caller) -> HttpResponse {
    data(AccountView {
        id: caller.user.to_string(),
        email: caller.email,
        is_admin: caller.is_admin,
    })
}
