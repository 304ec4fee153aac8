//! `/readyz`: the gateway is ready when its database, the bus, the blob store and every
//! downstream gRPC service answer. The binary decides which checks exist (it knows the
//! backends); the gateway adds one per downstream service.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

/// A future answering whether one dependency is usable.
pub type ReadinessFuture = Pin<Box<dyn Future<Output = Result<(), String>> + Send>>;

/// One named dependency check.
#[derive(Clone)]
pub struct ReadinessCheck {
    /// Shown in the 503 answer when the check fails.
    pub name: String,
    check: Arc<dyn Fn() -> ReadinessFuture + Send + Sync>,
}

impl ReadinessCheck {
    /// A check named `name` that runs `check`.
    pub fn new(
        name: impl Into<String>,
        check: impl Fn() -> ReadinessFuture + Send + Sync + 'static,
    ) -> Self {
        Self {
            name: name.into(),
            check: Arc::new(check),
        }
    }
}

/// Every check `/readyz` runs.
#[derive(Clone, Default)]
pub struct ReadinessChecks(pub Vec<ReadinessCheck>);

const CHECK_TIMEOUT: Duration = Duration::from_secs(2);

impl ReadinessChecks {
    /// Runs every check concurrently; returns the failing ones with their reasons.
    pub async fn failures(&self) -> Vec<(String, String)> {
        let runs = self.0.iter().map(|check| async move {
            match tokio::time::timeout(CHECK_TIMEOUT, (check.check)()).await {
                Ok(Ok(())) => None,
                Ok(Err(reason)) => Some((check.name.clone(), reason)),
                Err(_) => Some((check.name.clone(), "timed out".to_owned())),
            }
        });
        futures::future::join_all(runs)
            .await
            .into_iter()
            .flatten()
            .collect()
    }
}
