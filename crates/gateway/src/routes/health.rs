//! Liveness and readiness. The public port answers names and states only; the admin listener
//! also says why a dependency fails and, with `?verbose`, checks every downstream service
//! (five calls per request: not for strangers to trigger).

use actix_web::{HttpRequest, HttpResponse, web};
use serde::Serialize;
use utoipa::{OpenApi, ToSchema};

use crate::context::Context;
use crate::readiness::ReadinessChecks;
use crate::routes::table::{Access, RouteList};

/// Whether this listener may give reasons and run the downstream checks.
#[derive(Debug, Clone, Copy)]
pub struct ReadinessDetail(pub bool);

/// The process is alive.
#[derive(Serialize, ToSchema)]
pub struct Health {
    /// Always `ok`.
    status: &'static str,
}

/// A dependency the gateway needs that does not answer.
#[derive(Serialize, ToSchema)]
pub struct Failing {
    name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    reason: Option<String>,
}

/// A downstream service, on the admin listener with `?verbose`.
#[derive(Serialize, ToSchema)]
pub struct Downstream {
    name: String,
    status: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    reason: Option<String>,
}

/// Whether the gateway can serve requests.
#[derive(Serialize, ToSchema)]
pub struct Readiness {
    /// `ready` or `unavailable`.
    status: &'static str,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    failing: Vec<Failing>,
    #[serde(skip_serializing_if = "Option::is_none")]
    downstream: Option<Vec<Downstream>>,
}

/// Liveness: the process is alive and serving HTTP.
#[utoipa::path(get, path = "/healthz", tag = "health", responses((status = 200, body = Health)))]
pub async fn healthz() -> HttpResponse {
    HttpResponse::Ok().json(Health { status: "ok" })
}

/// Readiness: 200 when what the gateway itself needs (its database, the bus) answers, else
/// 503 naming what fails. The admin listener also gives reasons, and with `?verbose` checks
/// every downstream service.
#[utoipa::path(
    get,
    path = "/readyz",
    tag = "health",
    responses(
        (status = 200, description = "Ready", body = Readiness),
        (status = 503, description = "Not ready: `failing` names what", body = Readiness),
    )
)]
pub async fn readyz(request: HttpRequest, context: Context) -> HttpResponse {
    readiness(&request, &context.readiness, ReadinessDetail(false)).await
}

/// The admin listener's `/readyz`, with reasons and `?verbose`.
pub async fn readyz_detailed(
    request: HttpRequest,
    checks: web::Data<ReadinessChecks>,
) -> HttpResponse {
    readiness(&request, &checks, ReadinessDetail(true)).await
}

async fn readiness(
    request: &HttpRequest,
    checks: &ReadinessChecks,
    detail: ReadinessDetail,
) -> HttpResponse {
    let detailed = detail.0;
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

#[derive(OpenApi)]
#[openapi(paths(healthz, readyz))]
pub(crate) struct Docs;

pub(super) fn routes() -> RouteList {
    RouteList::default()
        .add::<__path_healthz>(Access::Public, || web::to(healthz))
        .answered_from_memory()
        .add::<__path_readyz>(Access::Public, || web::to(readyz))
}
