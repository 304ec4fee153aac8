//! Liveness and readiness.

use actix_web::{HttpRequest, HttpResponse, web};

use crate::readiness::ReadinessChecks;

/// `GET /healthz`: the process is alive and serving HTTP.
pub async fn healthz() -> HttpResponse {
    HttpResponse::Ok().json(serde_json::json!({ "status": "ok" }))
}

/// `GET /readyz`: 200 when what the gateway itself needs answers, else 503 naming what fails.
/// With `?verbose`, the answer also lists every downstream service and whether it answers.
pub async fn readyz(request: HttpRequest, checks: web::Data<ReadinessChecks>) -> HttpResponse {
    let verbose = request
        .query_string()
        .split('&')
        .any(|pair| pair == "verbose" || pair.starts_with("verbose="));
    let (failures, downstream_failures) = if verbose {
        futures::join!(checks.failures(), checks.downstream_failures())
    } else {
        (checks.failures().await, Vec::new())
    };
    for (name, reason) in &failures {
        tracing::warn!(dependency = %name, reason = %reason, "not ready");
    }
    let failing: Vec<serde_json::Value> = failures
        .iter()
        .map(|(name, reason)| serde_json::json!({ "name": name, "reason": reason }))
        .collect();
    let mut body = if failing.is_empty() {
        serde_json::json!({ "status": "ready" })
    } else {
        serde_json::json!({ "status": "unavailable", "failing": failing })
    };
    if verbose {
        let downstream: Vec<serde_json::Value> = checks
            .downstream_names()
            .map(|name| {
                match downstream_failures
                    .iter()
                    .find(|(failed, _)| failed == name)
                {
                    Some((_, reason)) => {
                        serde_json::json!({ "name": name, "status": "failing", "reason": reason })
                    }
                    None => serde_json::json!({ "name": name, "status": "serving" }),
                }
            })
            .collect();
        body["downstream"] = serde_json::Value::Array(downstream);
    }
    if failing.is_empty() {
        HttpResponse::Ok().json(body)
    } else {
        HttpResponse::ServiceUnavailable().json(body)
    }
}
