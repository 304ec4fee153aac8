//! `/readyz`: the gateway is ready when what it needs itself answers (its database, the bus).
//! Downstream gRPC services are checked too, but only reported (`/readyz?verbose`): one slow or
//! absent conversion pod must not take every gateway replica out of its Service, which would
//! turn a partial outage into a total one. The binary decides which backend checks exist (it
//! knows the backends); the gateway adds one per downstream service.

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

/// Every check `/readyz` knows.
#[derive(Clone, Default)]
pub struct ReadinessChecks {
    /// What the gateway needs to answer at all; a failure makes it unready.
    pub own: Vec<ReadinessCheck>,
    /// The services behind it; reported, never a reason to be unready.
    pub downstream: Vec<ReadinessCheck>,
}

const CHECK_TIMEOUT: Duration = Duration::from_secs(2);

impl ReadinessChecks {
    /// Runs the gateway's own checks concurrently; returns the failing ones with their reasons.
    pub async fn failures(&self) -> Vec<(String, String)> {
        run_checks(&self.own).await
    }

    /// Runs the downstream checks concurrently; returns the failing ones with their reasons.
    pub async fn downstream_failures(&self) -> Vec<(String, String)> {
        run_checks(&self.downstream).await
    }

    /// The names of the downstream checks.
    pub fn downstream_names(&self) -> impl Iterator<Item = &str> {
        self.downstream.iter().map(|check| check.name.as_str())
    }
}

async fn run_checks(checks: &[ReadinessCheck]) -> Vec<(String, String)> {
    let runs = checks.iter().map(|check| async move {
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
