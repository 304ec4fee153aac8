//! Building and running the webhook target: its gRPC API beside the delivery jobs.

use std::sync::Arc;

use scribevault_bus::{EventBus, WorkQueue};
use scribevault_proto::webhooks::v1::webhooks_service_server::WebhooksServiceServer;
use sea_orm::DatabaseConnection;

use crate::config::WebhookConfig;
use crate::error::WebhookError;
use crate::grpc::WebhooksGrpc;
use crate::service::Webhooks;
use crate::store::WebhookStore;

/// The webhook target.
pub struct WebhooksServer {
    webhooks: Webhooks,
    work: Arc<dyn WorkQueue>,
}

impl WebhooksServer {
    /// Migrates the webhook tables and binds the service's queue to the user events, so that
    /// every event published once this returns reaches it.
    ///
    /// # Errors
    /// Migration failure, or the bus refuses the binding.
    pub async fn build(
        db: DatabaseConnection,
        events: Arc<dyn EventBus>,
        work: Arc<dyn WorkQueue>,
        config: WebhookConfig,
    ) -> Result<Self, WebhookError> {
        let store = WebhookStore::open(db).await?;
        crate::jobs::bind(events.as_ref()).await?;
        Ok(Self {
            webhooks: Webhooks::new(store, config),
            work,
        })
    }

    /// Serves gRPC on `listener` and delivers until `shutdown` resolves. Every replica may run
    /// this: the outbox makes their deliveries one.
    ///
    /// # Errors
    /// The gRPC transport fails.
    pub async fn run(
        self,
        listener: tokio::net::TcpListener,
        shutdown: impl std::future::Future<Output = ()> + Send,
    ) -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
        let delivering = crate::jobs::start(self.webhooks.clone(), self.work);
        let grpc = WebhooksServiceServer::new(WebhooksGrpc::new(self.webhooks));
        let result = scribevault_proto::server::serve(listener, grpc, shutdown).await;
        // An attempt cut short here is claimed again once its lease runs out.
        delivering.abort();
        result
    }
}
