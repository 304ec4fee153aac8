//! `/api/user/settings`: the caller's settings (the gateway owns them).

use actix_web::{HttpResponse, web};

use crate::auth::AuthenticatedUser;
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
    clients: web::Data<ServiceClients>,
    body: web::Json<serde_json::Value>,
) -> Result<HttpResponse, ApiError> {
    let current = store.get(user.0.as_str()).await?;
    let next = current
        .with_changes(&body)
        .map_err(|invalid| ApiError::bad_request(invalid.0))?;
    push_effects(&clients, &user.0, &next).await?;
    store.put(user.0.as_str(), &next).await?;
    Ok(data(next))
}

/// `POST /api/user/settings/reset`: back to the defaults.
pub async fn reset(
    user: AuthenticatedUser,
    store: web::Data<UserSettingsStore>,
    clients: web::Data<ServiceClients>,
) -> Result<HttpResponse, ApiError> {
    let defaults = UserSettings::default();
    push_effects(&clients, &user.0, &defaults).await?;
    store.put(user.0.as_str(), &defaults).await?;
    Ok(data(defaults))
}
