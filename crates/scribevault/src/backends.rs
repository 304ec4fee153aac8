//! Connects the backends the settings name: SQLite or PostgreSQL, the in-process bus or
//! RabbitMQ, local files or S3. Every failure names the setting to fix.

use std::sync::Arc;

use anyhow::Context as _;
use scribevault_blob::{BlobStore, LocalBlobStore, S3BlobStore, S3Settings};
use scribevault_bus::{EventBus, InProcessBus, RabbitMqBus, WorkQueue};
use scribevault_core::Settings;
use scribevault_gateway::ReadinessCheck;
use sea_orm::DatabaseConnection;
use secrecy::ExposeSecret as _;

/// The message bus, seen through both of its traits.
#[derive(Clone)]
pub struct Bus {
    pub events: Arc<dyn EventBus>,
    pub work: Arc<dyn WorkQueue>,
}

/// Opens the database and fails with one line naming the key if it cannot.
pub async fn database(settings: &Settings) -> anyhow::Result<DatabaseConnection> {
    let url = settings.effective_database_url();
    scribevault_db::connect_with_pool(&url, settings.database_max_connections)
        .await
        .context("SCRIBEVAULT_DATABASE_URL")
}

/// RabbitMQ when `SCRIBEVAULT_AMQP_URL` is set, else the in-process bus.
pub async fn bus(settings: &Settings) -> anyhow::Result<Bus> {
    match &settings.amqp_url {
        Some(url) => {
            let bus = RabbitMqBus::connect(url, settings.max_deliveries)
                .await
                .context("SCRIBEVAULT_AMQP_URL")?;
            Ok(Bus {
                events: Arc::new(bus.clone()),
                work: Arc::new(bus),
            })
        }
        None => {
            let bus = InProcessBus::new(settings.max_deliveries);
            Ok(Bus {
                events: Arc::new(bus.clone()),
                work: Arc::new(bus),
            })
        }
    }
}

/// S3 when `SCRIBEVAULT_S3_ENDPOINT` is set, else files under `<data dir>/blobs`.
pub async fn blob_store(settings: &Settings) -> anyhow::Result<Arc<dyn BlobStore>> {
    match &settings.s3_endpoint {
        Some(endpoint) => {
            let store = S3BlobStore::connect(S3Settings {
                endpoint: endpoint.clone(),
                bucket: settings.s3_bucket.clone(),
                region: settings.s3_region.clone(),
                access_key_id: settings
                    .s3_access_key_id
                    .as_ref()
                    .context("SCRIBEVAULT_S3_ACCESS_KEY_ID (or AWS_ACCESS_KEY_ID) is required with SCRIBEVAULT_S3_ENDPOINT")?
                    .expose_secret()
                    .to_owned(),
                secret_access_key: settings
                    .s3_secret_access_key
                    .as_ref()
                    .context("SCRIBEVAULT_S3_SECRET_ACCESS_KEY (or AWS_SECRET_ACCESS_KEY) is required with SCRIBEVAULT_S3_ENDPOINT")?
                    .expose_secret()
                    .to_owned(),
                part_size: usize::try_from(settings.s3_part_size_bytes)
                    .context("SCRIBEVAULT_S3_PART_SIZE_BYTES")?,
            })
            .await
            .context("SCRIBEVAULT_S3_ENDPOINT")?;
            Ok(Arc::new(store))
        }
        None => {
            let root = settings.data_dir.join("blobs");
            Ok(Arc::new(LocalBlobStore::new(&root).with_context(|| {
                format!("SCRIBEVAULT_DATA_DIR: cannot create {}", root.display())
            })?))
        }
    }
}

/// `/readyz` checks for the backends this process uses.
pub fn readiness_checks(
    db: &DatabaseConnection,
    bus: &Bus,
    blob: Option<&Arc<dyn BlobStore>>,
) -> Vec<ReadinessCheck> {
    let mut checks = Vec::new();
    let db = db.clone();
    checks.push(ReadinessCheck::new("database", move || {
        let db = db.clone();
        Box::pin(async move { db.ping().await.map_err(|e| e.to_string()) })
    }));
    let events = bus.events.clone();
    checks.push(ReadinessCheck::new("bus", move || {
        let events = events.clone();
        Box::pin(async move { events.check_ready().await.map_err(|e| e.to_string()) })
    }));
    if let Some(blob) = blob {
        let blob = blob.clone();
        checks.push(ReadinessCheck::new("blob store", move || {
            let blob = blob.clone();
            Box::pin(async move { blob.check_ready().await.map_err(|e| e.to_string()) })
        }));
    }
    checks
}
