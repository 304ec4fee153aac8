//! `/api/webhooks`: a member's webhooks (Settings → Webhooks), kept and delivered by the
//! webhook service; this is its REST mapping. A personal API token may list, test and delete
//! them; only a signed-in session makes, changes or rotates them, since what a leaked token made
//! would outlive the token (docs/security.md).

use actix_web::{HttpResponse, web};
use chrono::{DateTime, Utc};
use scribevault_bus::webhook::{WebhookEvent, WebhookPayload};
use scribevault_proto::webhooks::v1 as pb;
use serde::{Deserialize, Serialize};
use utoipa::{OpenApi, ToSchema};

use crate::auth::InteractiveCaller;
use crate::clients::UserClients;
use crate::error::{ApiError, Envelope, created, data};
use crate::routes::openapi::ErrorBody;
use crate::routes::table::{Access, RouteList};

/// A webhook as Settings lists it: never its secret.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct WebhookView {
    id: String,
    url: String,
    description: String,
    events: Vec<WebhookEvent>,
    enabled: bool,
    /// Why it was switched off (the receiver answered 410 Gone).
    disabled_reason: Option<String>,
    created_at: DateTime<Utc>,
    updated_at: DateTime<Utc>,
    /// The newest attempt, when there was one.
    last_attempt: Option<WebhookAttemptView>,
}

/// A time the service sent (RFC 3339): its own, so a bad one is the gateway's fault.
fn moment(text: &str) -> Result<DateTime<Utc>, ApiError> {
    DateTime::parse_from_rfc3339(text)
        .map(|at| at.with_timezone(&Utc))
        .map_err(|error| ApiError::internal(format!("webhook service time {text:?}: {error}")))
}

impl TryFrom<pb::Webhook> for WebhookView {
    type Error = ApiError;

    fn try_from(hook: pb::Webhook) -> Result<Self, ApiError> {
        Ok(Self {
            created_at: moment(&hook.created_at)?,
            updated_at: moment(&hook.updated_at)?,
            events: hook
                .events
                .iter()
                .filter_map(|name| WebhookEvent::parse(name))
                .collect(),
            last_attempt: hook
                .last_attempt
                .map(WebhookAttemptView::try_from)
                .transpose()?,
            id: hook.id,
            url: hook.url,
            description: hook.description,
            enabled: hook.enabled,
            disabled_reason: hook.disabled_reason,
        })
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

impl TryFrom<pb::Attempt> for WebhookAttemptView {
    type Error = ApiError;

    fn try_from(attempt: pb::Attempt) -> Result<Self, ApiError> {
        Ok(Self {
            attempted_at: moment(&attempt.attempted_at)?,
            next_attempt_at: attempt.next_attempt_at.as_deref().map(moment).transpose()?,
            id: attempt.id,
            delivery_id: attempt.delivery_id,
            event: attempt.event,
            attempt: attempt.attempt,
            status_code: attempt
                .status_code
                .and_then(|code| u16::try_from(code).ok()),
            duration_ms: attempt.duration_ms,
            response_excerpt: attempt.response_excerpt,
            error: attempt.error,
            succeeded: attempt.succeeded,
        })
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

fn event_names(events: &[WebhookEvent]) -> Vec<String> {
    events
        .iter()
        .map(|event| event.as_str().to_owned())
        .collect()
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
    _session: InteractiveCaller,
    services: UserClients,
    body: web::Json<NewWebhookRequest>,
) -> Result<HttpResponse, ApiError> {
    let body = body.into_inner();
    let made = services
        .webhooks()
        .create_webhook(pb::CreateWebhookRequest {
            url: body.url,
            events: event_names(&body.events),
            description: body.description.unwrap_or_default(),
        })
        .await?
        .into_inner();
    let webhook = made
        .webhook
        .ok_or_else(|| ApiError::internal("the webhook service answered no webhook"))?;
    Ok(created(NewWebhookView {
        secret: made.secret,
        webhook: WebhookView::try_from(webhook)?,
    }))
}

/// The caller's webhooks, oldest first, each with its newest attempt.
#[utoipa::path(get, path = "/api/webhooks", tag = "webhooks",
    responses((status = 200, body = Envelope<WebhooksView>)))]
pub async fn list_webhooks(services: UserClients) -> Result<HttpResponse, ApiError> {
    let listed = services
        .webhooks()
        .list_webhooks(pb::ListWebhooksRequest {})
        .await?
        .into_inner();
    let webhooks = listed
        .webhooks
        .into_iter()
        .map(WebhookView::try_from)
        .collect::<Result<_, _>>()?;
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
    _session: InteractiveCaller,
    services: UserClients,
    id: web::Path<String>,
    body: web::Json<WebhookChangeRequest>,
) -> Result<HttpResponse, ApiError> {
    let body = body.into_inner();
    let updated = services
        .webhooks()
        .update_webhook(pb::UpdateWebhookRequest {
            id: id.into_inner(),
            url: body.url,
            events: body.events.map(|events| pb::EventNames {
                names: event_names(&events),
            }),
            description: body.description,
            enabled: body.enabled,
        })
        .await?
        .into_inner();
    Ok(data(WebhookView::try_from(updated)?))
}

/// Deletes a webhook, with what it still had to deliver and its log.
///
/// # Errors
/// Unknown id or another member's (404).
#[utoipa::path(delete, path = "/api/webhooks/{id}", tag = "webhooks", params(("id" = String, Path)),
    responses((status = 204, description = "Deleted")))]
pub async fn delete_webhook(
    services: UserClients,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    services
        .webhooks()
        .delete_webhook(pb::DeleteWebhookRequest {
            id: id.into_inner(),
        })
        .await?;
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
    _session: InteractiveCaller,
    services: UserClients,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let rotated = services
        .webhooks()
        .rotate_webhook_secret(pb::RotateWebhookSecretRequest {
            id: id.into_inner(),
        })
        .await?
        .into_inner();
    Ok(data(WebhookSecretView {
        secret: rotated.secret,
    }))
}

/// The webhook's delivery log: its last 50 attempts, newest first.
///
/// # Errors
/// Unknown id or another member's (404).
#[utoipa::path(get, path = "/api/webhooks/{id}/deliveries", tag = "webhooks",
    params(("id" = String, Path)),
    responses((status = 200, body = Envelope<WebhookDeliveriesView>)))]
pub async fn list_webhook_deliveries(
    services: UserClients,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let log = services
        .webhooks()
        .list_attempts(pb::ListAttemptsRequest {
            id: id.into_inner(),
        })
        .await?
        .into_inner();
    let attempts = log
        .attempts
        .into_iter()
        .map(WebhookAttemptView::try_from)
        .collect::<Result<_, _>>()?;
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
    services: UserClients,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let attempt = services
        .webhooks()
        .test_webhook(pb::TestWebhookRequest {
            id: id.into_inner(),
        })
        .await?
        .into_inner();
    Ok(data(WebhookAttemptView::try_from(attempt)?))
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
