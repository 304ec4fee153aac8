//! Thin gRPC adapter: proto in, domain call, proto out. No logic lives here.

use scribevault_core::identity::caller;
use scribevault_proto::webhooks::v1 as pb;
use scribevault_proto::webhooks::v1::webhooks_service_server::WebhooksService;
use tonic::{Request, Response, Status};

use crate::domain::{Attempt, Webhook};
use crate::service::{WebhookUpdate, WebhookWithLastAttempt, Webhooks};

/// Serves [`Webhooks`] over gRPC.
pub struct WebhooksGrpc {
    webhooks: Webhooks,
}

impl WebhooksGrpc {
    pub fn new(webhooks: Webhooks) -> Self {
        Self { webhooks }
    }
}

fn webhook_to_proto(webhook: Webhook, last_attempt: Option<Attempt>) -> pb::Webhook {
    pb::Webhook {
        id: webhook.id,
        url: webhook.url,
        description: webhook.description,
        events: webhook
            .events
            .into_iter()
            .map(|event| event.as_str().to_owned())
            .collect(),
        enabled: webhook.enabled,
        disabled_reason: webhook.disabled_reason,
        created_at: webhook.created_at.to_rfc3339(),
        updated_at: webhook.updated_at.to_rfc3339(),
        last_attempt: last_attempt.map(attempt_to_proto),
    }
}

fn listed_to_proto(listed: WebhookWithLastAttempt) -> pb::Webhook {
    webhook_to_proto(listed.webhook, listed.last_attempt)
}

fn attempt_to_proto(attempt: Attempt) -> pb::Attempt {
    pb::Attempt {
        id: attempt.id,
        delivery_id: attempt.delivery_id,
        event: attempt.event,
        attempt: attempt.attempt,
        attempted_at: attempt.attempted_at.to_rfc3339(),
        status_code: attempt.status_code.map(u32::from),
        duration_ms: attempt.duration_ms,
        response_excerpt: attempt.response_excerpt,
        error: attempt.error,
        succeeded: attempt.succeeded,
        next_attempt_at: attempt.next_attempt_at.map(|at| at.to_rfc3339()),
    }
}

#[tonic::async_trait]
impl WebhooksService for WebhooksGrpc {
    async fn create_webhook(
        &self,
        request: Request<pb::CreateWebhookRequest>,
    ) -> Result<Response<pb::CreatedWebhook>, Status> {
        let user = caller(&request)?;
        let request = request.into_inner();
        let (webhook, secret) = self
            .webhooks
            .create(&user, &request.url, &request.events, &request.description)
            .await?;
        Ok(Response::new(pb::CreatedWebhook {
            webhook: Some(webhook_to_proto(webhook, None)),
            secret,
        }))
    }

    async fn list_webhooks(
        &self,
        request: Request<pb::ListWebhooksRequest>,
    ) -> Result<Response<pb::ListWebhooksResponse>, Status> {
        let user = caller(&request)?;
        let webhooks = self.webhooks.list(&user).await?;
        Ok(Response::new(pb::ListWebhooksResponse {
            webhooks: webhooks.into_iter().map(listed_to_proto).collect(),
        }))
    }

    async fn update_webhook(
        &self,
        request: Request<pb::UpdateWebhookRequest>,
    ) -> Result<Response<pb::Webhook>, Status> {
        let user = caller(&request)?;
        let request = request.into_inner();
        let update = WebhookUpdate {
            url: request.url,
            events: request.events.map(|events| events.names),
            description: request.description,
            enabled: request.enabled,
        };
        let updated = self.webhooks.update(&user, &request.id, update).await?;
        Ok(Response::new(listed_to_proto(updated)))
    }

    async fn delete_webhook(
        &self,
        request: Request<pb::DeleteWebhookRequest>,
    ) -> Result<Response<pb::DeleteWebhookResponse>, Status> {
        let user = caller(&request)?;
        self.webhooks
            .delete(&user, &request.into_inner().id)
            .await?;
        Ok(Response::new(pb::DeleteWebhookResponse {}))
    }

    async fn rotate_webhook_secret(
        &self,
        request: Request<pb::RotateWebhookSecretRequest>,
    ) -> Result<Response<pb::RotateWebhookSecretResponse>, Status> {
        let user = caller(&request)?;
        let secret = self
            .webhooks
            .rotate_secret(&user, &request.into_inner().id)
            .await?;
        Ok(Response::new(pb::RotateWebhookSecretResponse { secret }))
    }

    async fn list_attempts(
        &self,
        request: Request<pb::ListAttemptsRequest>,
    ) -> Result<Response<pb::ListAttemptsResponse>, Status> {
        let user = caller(&request)?;
        let attempts = self
            .webhooks
            .attempts(&user, &request.into_inner().id)
            .await?;
        Ok(Response::new(pb::ListAttemptsResponse {
            attempts: attempts.into_iter().map(attempt_to_proto).collect(),
        }))
    }

    async fn test_webhook(
        &self,
        request: Request<pb::TestWebhookRequest>,
    ) -> Result<Response<pb::Attempt>, Status> {
        let user = caller(&request)?;
        let attempt = self
            .webhooks
            .send_test(&user, &request.into_inner().id)
            .await?;
        Ok(Response::new(attempt_to_proto(attempt)))
    }

    async fn delete_user_data(
        &self,
        request: Request<pb::DeleteUserDataRequest>,
    ) -> Result<Response<pb::DeleteUserDataResponse>, Status> {
        let user = caller(&request)?;
        let rows_deleted = self.webhooks.delete_user_data(&user).await?;
        Ok(Response::new(pb::DeleteUserDataResponse { rows_deleted }))
    }
}
