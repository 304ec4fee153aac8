//! `/api/user/settings`: the caller's settings (the gateway owns them).

use actix_web::{HttpResponse, web};
use utoipa::OpenApi;

use crate::clients::UserClients;
use crate::context::Context;
use crate::error::{ApiError, Envelope, data};
use crate::routes::table::{Access, RouteList};
use crate::user_settings::{UserSettings, push_effects};

/// The caller's settings: stored values merged over the defaults.
#[utoipa::path(get, path = "/api/user/settings", tag = "settings", responses((status = 200, body = Envelope<UserSettings>)))]
pub async fn get(services: UserClients, context: Context) -> Result<HttpResponse, ApiError> {
    Ok(data(context.settings.get(services.user().as_str()).await?))
}

/// Changes the caller's settings with the full settings object or any part of it: every value
/// is checked, handed to the services that act on it, then stored.
#[utoipa::path(
    patch,
    path = "/api/user/settings",
    tag = "settings",
    request_body(content = UserSettings, description = "The whole object or any part of it"),
    responses((status = 200, description = "The settings as stored", body = Envelope<UserSettings>))
)]
pub async fn update(
    services: UserClients,
    context: Context,
    body: web::Json<serde_json::Value>,
) -> Result<HttpResponse, ApiError> {
    let user = services.user().as_str();
    let current = context.settings.get(user).await?;
    let next = current
        .with_changes(&body)
        .map_err(|invalid| ApiError::bad_request(invalid.0))?;
    let cap = storage_cap(&context, user).await?;
    // Only a change of the quota itself is refused: a stored value above a cap set later
    // must not block saving the theme (storage enforces the lower of the two either way).
    if let Some(cap) = cap
        && next.storage.max_storage_gb > cap
        && next.storage.max_storage_gb != current.storage.max_storage_gb
    {
        return Err(ApiError::bad_request(format!(
            "storage.maxStorageGB can be at most {cap} on this instance (a limit its admin set)"
        )));
    }
    push_effects(&services, &next, cap).await?;
    context.settings.put(user, &next).await?;
    Ok(data(next))
}

/// Puts the caller's settings back to the defaults.
#[utoipa::path(post, path = "/api/user/settings/reset", tag = "settings", responses((status = 200, body = Envelope<UserSettings>)))]
pub async fn reset(services: UserClients, context: Context) -> Result<HttpResponse, ApiError> {
    let user = services.user().as_str();
    let defaults = UserSettings::default();
    let cap = storage_cap(&context, user).await?;
    push_effects(&services, &defaults, cap).await?;
    context.settings.put(user, &defaults).await?;
    Ok(data(defaults))
}

/// The storage cap the admin set for the caller, if any.
async fn storage_cap(context: &Context, user: &str) -> Result<Option<u32>, ApiError> {
    Ok(context
        .access
        .members
        .get(user)
        .await?
        .and_then(|member| member.storage_cap_gb))
}

#[derive(OpenApi)]
#[openapi(paths(get, update, reset))]
pub(crate) struct Docs;

pub(super) fn routes() -> RouteList {
    use Access::SignedIn;
    RouteList::default()
        .add::<__path_get>(SignedIn, || web::to(get))
        .add::<__path_update>(SignedIn, || web::to(update))
        .add::<__path_reset>(SignedIn, || web::to(reset))
}
