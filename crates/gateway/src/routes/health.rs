//! Liveness and readiness. The public port answers names and states only; the admin listener
//! also says why a dependency fails and, with `?verbose`, checks every downstream service
//! (five calls per request: not for strangers to trigger).

use actix_web::{HttpRequest, HttpResponse, web};
use serde::Serialize;

use crate::readiness::ReadinessChecks;

/// Whether this listener may give reasons and run the downstream checks.
#[derive(Debug, Clone, Copy)]
pub struct ReadinessDetail(pub bool);

#[derive(Serialize)]
pub struct Health {
    status: &'static str,
}

#[derive(Serialize)]
pub struct Failing {
    name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    reason: Option<String>,
}

#[derive(Serialize)]
pub struct Downstream {
    name: String,
    status: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    reason: Option<String>,
}

#[derive(Serialize)]
pub struct Readiness {
    status: &'static str,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    failing: Vec<Failing>,
    #[serde(skip_serializing_if = "Option::is_none")]
    downstream: Option<Vec<Downstream>>,
}

/// `GET /healthz`: the process is alive and serving HTTP.
pub async fn healthz() -> HttpResponse {
    HttpResponse::Ok().json(Health { status: "ok" })
}

/// `GET /readyz`: 200 when what the gateway itself needs answers, else 503 naming what fails.
/// On the admin listener, with reasons, and with `?verbose` every downstream service too.
pub async fn readyz(
    request: HttpRequest,
    checks: web::Data<ReadinessChecks>,
    detail: Option<web::Data<ReadinessDetail>>,
) -> HttpResponse {
    let detailed = detail.is_some_and(|detail| detail.0);
    let verbose = detailed
        && request
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
    let failing: Vec<Failing> = failures
        .into_iter()
        .map(|(name, reason)| Failing {
            name,
            reason: detailed.then_some(reason),
        })
        .collect();
    let downstream = verbose.then(|| {
        checks
            .downstream_names()
            .map(|name| {
                match downstream_failures
                    .iter()
                    .find(|(failed, _)| failed == name)
                {
                    Some((_, reason)) => Downstream {
                        name: name.to_owned(),
                        status: "failing",
                        reason: Some(reason.clone()),
                    },
                    None => Downstream {
                        name: name.to_owned(),
                        status: "serving",
                        reason: None,
                    },
                }
            })
            .collect()
    });
    let ready = failing.is_empty();
    let body = Readiness {
        status: if ready { "ready" } else { "unavailable" },
        failing,
        downstream,
    };
    if ready {
        HttpResponse::Ok().json(body)
    } else {
        HttpResponse::ServiceUnavailable().json(body)
    }
}
