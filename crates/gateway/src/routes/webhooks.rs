//! `/api/webhooks`: a member's webhooks (Settings → Webhooks). A personal API token may manage
//! them too: they are what scripts set up, and a webhook can only call out with data its owner
//! can already read.

use actix_web::{HttpResponse, web};
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::{OpenApi, ToSchema};

use crate::auth::{AuthenticatedUser, InteractiveCaller};
use crate::context::Context;
use crate::error::{ApiError, Envelope, created, data};
use crate::routes::openapi::ErrorBody;
use crate::routes::table::{Access, RouteList};
use crate::webhooks::signature::new_secret;
use crate::webhooks::store::{
    Attempt, MAX_DESCRIPTION_CHARS, MAX_WEBHOOKS_PER_USER, NewWebhook, Webhook, WebhookChange,
};
use crate::webhooks::{WebhookError, WebhookEvent, WebhookPayload};

/// A webhook as Settings lists it: never its secret.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct WebhookView {
    id: String,
    url: String,
    description: String,
    events: Vec<WebhookEvent>,
    enabled: bool,
    /// Why the gateway switched it off (the receiver answered 410 Gone).
    disabled_reason: Option<String>,
    created_at: DateTime<Utc>,
    updated_at: DateTime<Utc>,
    /// The newest attempt, when there was one.
    last_attempt: Option<WebhookAttemptView>,
}

impl WebhookView {
    fn new(hook: Webhook, last_attempt: Option<Attempt>) -> Self {
        Self {
            id: hook.id,
            url: hook.url,
            description: hook.description,
            events: hook.events,
            enabled: hook.enabled,
            disabled_reason: hook.disabled_reason,
            created_at: hook.created_at,
            updated_at: hook.updated_at,
            last_attempt: last_attempt.map(WebhookAttemptView::from),
        }
    }
}

#[derive(Serialize, ToSchema)]
pub struct WebhooksView {
    webhooks: Vec<WebhookView>,
}

/// A new webhook with its signing secret, shown this once.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct NewWebhookView {
    /// `whsec_…`: the Standard Webhooks secret receivers verify signatures with. Not
    /// retrievable later; rotate it to get a new one.
    secret: String,
    #[serde(flatten)]
    webhook: WebhookView,
}

/// A webhook's new secret, shown this once.
#[derive(Serialize, ToSchema)]
pub struct WebhookSecretView {
    /// `whsec_…`; the old one stops working at once.
    secret: String,
}

/// One attempt of one delivery.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct WebhookAttemptView {
    id: String,
    /// The `webhook-id` header: the same on every attempt of a delivery.
    delivery_id: String,
    event: String,
    /// 1 for the first try of a delivery.
    attempt: u32,
    attempted_at: DateTime<Utc>,
    /// The receiver's HTTP status, when it answered.
    status_code: Option<u16>,
    duration_ms: u64,
    /// The first KiB of the receiver's answer.
    response_excerpt: Option<String>,
    /// Why there was no answer (timeout, refused address, connection error).
    error: Option<String>,
    /// A 2xx answer.
    succeeded: bool,
    /// When the delivery is tried again; absent when it is not.
    next_attempt_at: Option<DateTime<Utc>>,
}

impl From<Attempt> for WebhookAttemptView {
    fn from(attempt: Attempt) -> Self {
        Self {
            id: attempt.id,
            delivery_id: attempt.delivery_id,
            event: attempt.event,
            attempt: attempt.attempt,
            attempted_at: attempt.attempted_at,
            status_code: attempt.status_code,
            duration_ms: attempt.duration_ms,
            response_excerpt: attempt.response_excerpt,
            error: attempt.error,
            succeeded: attempt.succeeded,
            next_attempt_at: attempt.next_attempt_at,
        }
    }
}

/// A webhook's delivery log, newest first (the last 50 attempts).
#[derive(Serialize, ToSchema)]
pub struct WebhookDeliveriesView {
    attempts: Vec<WebhookAttemptView>,
}

/// What a webhook is made with.
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct NewWebhookRequest {
    /// `http(s)://…`, at most 2,048 characters, no credentials; must reach a public address
    /// unless the admin allows private ones.
    url: String,
    /// At least one.
    events: Vec<WebhookEvent>,
    /// At most 200 characters.
    #[serde(default)]
    description: Option<String>,
}

/// A change to a webhook; absent fields stay as they are.
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct WebhookChangeRequest {
    #[serde(default)]
    url: Option<String>,
    #[serde(default)]
    events: Option<Vec<WebhookEvent>>,
    #[serde(default)]
    description: Option<String>,
    /// Switching a webhook on again clears why it was switched off.
    #[serde(default)]
    enabled: Option<bool>,
}

fn checked_events(events: Vec<WebhookEvent>) -> Result<Vec<WebhookEvent>, WebhookError> {
    if events.contains(&WebhookEvent::Test) {
        return Err(WebhookError::TestEvent);
    }
    let mut unique = Vec::new();
    for event in WebhookEvent::SUBSCRIBABLE {
        if events.contains(&event) {
            unique.push(event);
        }
    }
    if unique.is_empty() {
        return Err(WebhookError::NoEvents);
    }
    Ok(unique)
}

fn checked_description(description: Option<String>) -> Result<String, WebhookError> {
    let description = description.unwrap_or_default().trim().to_owned();
    if description.chars().count() > MAX_DESCRIPTION_CHARS {
        return Err(WebhookError::DescriptionTooLong);
    }
    Ok(description)
}

async fn owned(context: &Context, user: &str, id: &str) -> Result<Webhook, WebhookError> {
    context
        .webhooks
        .store()
        .get(user, id)
        .await?
        .ok_or(WebhookError::NotFound)
}

/// Makes a webhook; its signing secret is in this answer only.
///
/// # Errors
/// A refused URL, no or unknown events, a long description (400), too many webhooks (409).
#[utoipa::path(post, path = "/api/webhooks", tag = "webhooks", request_body = NewWebhookRequest,
    responses(
        (status = 201, body = Envelope<NewWebhookView>),
        (status = 400, description = "A refused URL (scheme, credentials, private address) or events", body = ErrorBody),
        (status = 409, description = "Too many webhooks", body = ErrorBody)))]
pub async fn create_webhook(
    InteractiveCaller(interactive): InteractiveCaller,
    context: Context,
    body: web::Json<NewWebhookRequest>,
) -> Result<HttpResponse, ApiError> {
    // A session only: what a leaked API token made would outlive the token (docs/security.md).
    let caller = AuthenticatedUser(interactive.user);
    let body = body.into_inner();
    let user = caller.0.as_str();
    let events = checked_events(body.events)?;
    let description = checked_description(body.description)?;
    let url = context
        .webhooks
        .policy()
        .check(&body.url)
        .await
        .map_err(WebhookError::from)?;
    let store = context.webhooks.store();
    if store.count(user).await? >= MAX_WEBHOOKS_PER_USER as u64 {
        return Err(WebhookError::TooMany.into());
    }
    let secret = new_secret();
    let new = NewWebhook {
        url: url.to_string(),
        description,
        events,
    };
    let hook = store.create(user, new, secret.clone(), Utc::now()).await?;
    tracing::info!(user = %user, webhook = %hook.id, "webhook created");
    Ok(created(NewWebhookView {
        secret,
        webhook: WebhookView::new(hook, None),
    }))
}

/// The caller's webhooks, oldest first, each with its newest attempt.
#[utoipa::path(get, path = "/api/webhooks", tag = "webhooks",
    responses((status = 200, body = Envelope<WebhooksView>)))]
pub async fn list_webhooks(
    caller: AuthenticatedUser,
    context: Context,
) -> Result<HttpResponse, ApiError> {
    let store = context.webhooks.store();
    let hooks = store.list(caller.0.as_str()).await?;
    let ids: Vec<String> = hooks.iter().map(|hook| hook.id.clone()).collect();
    let mut last = store.last_attempts(&ids).await?;
    let webhooks = hooks
        .into_iter()
        .map(|hook| {
            let attempt = last.remove(&hook.id);
            WebhookView::new(hook, attempt)
        })
        .collect();
    Ok(data(WebhooksView { webhooks }))
}

/// Changes a webhook's URL, events, description, or switches it on or off.
///
/// # Errors
/// Unknown id or another member's (404), a refused URL or events (400).
#[utoipa::path(patch, path = "/api/webhooks/{id}", tag = "webhooks", params(("id" = String, Path)),
    request_body = WebhookChangeRequest,
    responses(
        (status = 200, body = Envelope<WebhookView>),
        (status = 400, description = "A refused URL or events", body = ErrorBody)))]
pub async fn update_webhook(
    InteractiveCaller(interactive): InteractiveCaller,
    context: Context,
    id: web::Path<String>,
    body: web::Json<WebhookChangeRequest>,
) -> Result<HttpResponse, ApiError> {
    // A session only: what a leaked API token made would outlive the token (docs/security.md).
    let caller = AuthenticatedUser(interactive.user);
    let body = body.into_inner();
    let user = caller.0.as_str();
    owned(&context, user, &id).await?;
    let events = body.events.map(checked_events).transpose()?;
    let description = body
        .description
        .map(|text| checked_description(Some(text)))
        .transpose()?;
    let url = match body.url {
        Some(url) => Some(
            context
                .webhooks
                .policy()
                .check(&url)
                .await
                .map_err(WebhookError::from)?
                .to_string(),
        ),
        None => None,
    };
    let change = WebhookChange {
        url,
        description,
        events,
        enabled: body.enabled,
    };
    let store = context.webhooks.store();
    let hook = store
        .update(user, &id, change, Utc::now())
        .await?
        .ok_or(WebhookError::NotFound)?;
    let last = store.last_attempts(std::slice::from_ref(&hook.id)).await?;
    let attempt = last.into_values().next();
    Ok(data(WebhookView::new(hook, attempt)))
}

/// Deletes a webhook, with what it still had to deliver and its log.
///
/// # Errors
/// Unknown id or another member's (404).
#[utoipa::path(delete, path = "/api/webhooks/{id}", tag = "webhooks", params(("id" = String, Path)),
    responses((status = 204, description = "Deleted")))]
pub async fn delete_webhook(
    caller: AuthenticatedUser,
    context: Context,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let user = caller.0.as_str();
    if !context.webhooks.store().delete(user, &id).await? {
        return Err(WebhookError::NotFound.into());
    }
    tracing::info!(user = %user, webhook = %id, "webhook deleted");
    Ok(HttpResponse::NoContent().finish())
}

/// Gives a webhook a new signing secret; the old one stops working at once.
///
/// # Errors
/// Unknown id or another member's (404).
#[utoipa::path(post, path = "/api/webhooks/{id}/rotate-secret", tag = "webhooks",
    params(("id" = String, Path)),
    responses((status = 200, body = Envelope<WebhookSecretView>)))]
pub async fn rotate_webhook_secret(
    InteractiveCaller(interactive): InteractiveCaller,
    context: Context,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    // A session only: what a leaked API token made would outlive the token (docs/security.md).
    let caller = AuthenticatedUser(interactive.user);
    let secret = new_secret();
    if !context
        .webhooks
        .store()
        .set_secret(caller.0.as_str(), &id, &secret)
        .await?
    {
        return Err(WebhookError::NotFound.into());
    }
    Ok(data(WebhookSecretView { secret }))
}

/// The webhook's delivery log: its last 50 attempts, newest first.
///
/// # Errors
/// Unknown id or another member's (404).
#[utoipa::path(get, path = "/api/webhooks/{id}/deliveries", tag = "webhooks",
    params(("id" = String, Path)),
    responses((status = 200, body = Envelope<WebhookDeliveriesView>)))]
pub async fn list_webhook_deliveries(
    caller: AuthenticatedUser,
    context: Context,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let hook = owned(&context, caller.0.as_str(), &id).await?;
    let attempts = context
        .webhooks
        .store()
        .attempts(&hook.id)
        .await?
        .into_iter()
        .map(WebhookAttemptView::from)
        .collect();
    Ok(data(WebhookDeliveriesView { attempts }))
}

/// 'Send test': delivers a `webhook.test` event now (even to a switched-off webhook) and
/// answers how the attempt went. A receiver's failure is this call's success: the answer says
/// what the receiver did.
///
/// # Errors
/// Unknown id or another member's (404); tested less than 10 seconds ago (429).
#[utoipa::path(post, path = "/api/webhooks/{id}/test", tag = "webhooks",
    params(("id" = String, Path)),
    responses((status = 200, body = Envelope<WebhookAttemptView>),
        (status = 429, description = "This webhook was tested less than 10 seconds ago", body = crate::routes::openapi::ErrorBody)))]
pub async fn test_webhook(
    caller: AuthenticatedUser,
    context: Context,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let hook = owned(&context, caller.0.as_str(), &id).await?;
    if !context.webhooks.claim_test(&hook.id).await {
        return Err(ApiError::new(
            scribevault_core::ErrorCode::TooManyRequests,
            format!(
                "This webhook was tested less than {} seconds ago; wait a moment and send the test again",
                context.webhooks.test_interval().as_secs()
            ),
        ));
    }
    let attempt = context.webhooks.send_test(&hook).await?;
    Ok(data(WebhookAttemptView::from(attempt)))
}

#[derive(OpenApi)]
#[openapi(
    paths(
        create_webhook,
        list_webhooks,
        update_webhook,
        delete_webhook,
        rotate_webhook_secret,
        list_webhook_deliveries,
        test_webhook
    ),
    components(schemas(WebhookPayload))
)]
pub(crate) struct Docs;

pub(super) fn routes() -> RouteList {
    use Access::SignedIn;
    RouteList::default()
        .add::<__path_create_webhook>(SignedIn, || web::to(create_webhook))
        .add::<__path_list_webhooks>(SignedIn, || web::to(list_webhooks))
        .add::<__path_update_webhook>(SignedIn, || web::to(update_webhook))
        .add::<__path_delete_webhook>(SignedIn, || web::to(delete_webhook))
        .add::<__path_rotate_webhook_secret>(SignedIn, || web::to(rotate_webhook_secret))
        .add::<__path_list_webhook_deliveries>(SignedIn, || web::to(list_webhook_deliveries))
        .add::<__path_test_webhook>(SignedIn, || web::to(test_webhook))
}
