//! `/api/user/settings`: the caller's settings (the gateway owns them).

use actix_web::{HttpResponse, web};

use crate::auth::AuthenticatedUser;
use crate::auth::members::Members;
use crate::clients::ServiceClients;
use crate::error::{ApiError, data};
use crate::user_settings::{UserSettings, UserSettingsStore, push_effects};

/// `GET /api/user/settings`: stored values merged over the defaults.
pub async fn get(
    user: AuthenticatedUser,
    store: web::Data<UserSettingsStore>,
) -> Result<HttpResponse, ApiError> {
    Ok(data(store.get(user.0.as_str()).await?))
}

/// `PATCH /api/user/settings` with the full settings object (or part of it): every value
/// checked, handed to the services that act on it, then stored.
pub async fn update(
    user: AuthenticatedUser,
    store: web::Data<UserSettingsStore>,
    members: web::Data<Members>,
    clients: web::Data<ServiceClients>,
    body: web::Json<serde_json::Value>,
) -> Result<HttpResponse, ApiError> {
    let current = store.get(user.0.as_str()).await?;
    let next = current
        .with_changes(&body)
        .map_err(|invalid| ApiError::bad_request(invalid.0))?;
    let cap = storage_cap(&members, &user).await?;
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
    push_effects(&clients, &user.0, &next, cap).await?;
    store.put(user.0.as_str(), &next).await?;
    Ok(data(next))
}

/// `POST /api/user/settings/reset`: back to the defaults.
pub async fn reset(
    user: AuthenticatedUser,
    store: web::Data<UserSettingsStore>,
    members: web::Data<Members>,
    clients: web::Data<ServiceClients>,
) -> Result<HttpResponse, ApiError> {
    let defaults = UserSettings::default();
    let cap = storage_cap(&members, &user).await?;
    push_effects(&clients, &user.0, &defaults, cap).await?;
    store.put(user.0.as_str(), &defaults).await?;
    Ok(data(defaults))
}

/// The storage cap the admin set for the caller, if any.
async fn storage_cap(members: &Members, user: &AuthenticatedUser) -> Result<Option<u32>, ApiError> {
    Ok(members
        .get(user.0.as_str())
        .await?
        .and_then(|member| member.storage_cap_gb))
}
