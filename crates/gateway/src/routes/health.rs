//! Liveness and readiness.

use actix_web::{HttpResponse, web};

use crate::readiness::ReadinessChecks;

/// `GET /healthz`: the process is alive and serving HTTP.
pub async fn healthz() -> HttpResponse {
    HttpResponse::Ok().json(serde_json::json!({ "status": "ok" }))
}

/// `GET /readyz`: 200 when every dependency answers, else 503 naming what fails.
pub async fn readyz(checks: web::Data<ReadinessChecks>) -> HttpResponse {
    let failures = checks.failures().await;
    if failures.is_empty() {
        return HttpResponse::Ok().json(serde_json::json!({ "status": "ready" }));
    }
    for (name, reason) in &failures {
        tracing::warn!(dependency = %name, reason = %reason, "not ready");
    }
    let failing: Vec<serde_json::Value> = failures
        .into_iter()
        .map(|(name, reason)| serde_json::json!({ "name": name, "reason": reason }))
        .collect();
    HttpResponse::ServiceUnavailable()
        .json(serde_json::json!({ "status": "unavailable", "failing": failing }))
}
