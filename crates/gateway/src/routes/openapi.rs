//! The REST contract as an OpenAPI 3.1 document, generated from the handlers' `#[utoipa::path]`
//! and the views' `ToSchema`: `GET /api/openapi.json` serves it, `scribevault openapi` prints
//! it (`make openapi` writes `docs/openapi.json`, which the SPA's types are generated from).
//!
//! What every route answers because of where it sits in the route table (401 without a token,
//! 403 for members on admin routes, 400 for a bad path, query or body, 503 when a service is
//! down) is added here from the table, once, rather than repeated on 80 handlers.

use std::sync::OnceLock;

use actix_web::{HttpResponse, web};
use scribevault_core::ErrorCode;
use serde::Serialize;
use utoipa::openapi::path::{Operation, PathItem};
use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityRequirement, SecurityScheme};
use utoipa::openapi::{ContentBuilder, HttpMethod, RefOr, ResponseBuilder};
use utoipa::{OpenApi, ToSchema};

use super::table::{Access, RouteList, routes as route_table};
use super::{
    account, admin, auth, config, conversion, discovery, downloads, feeds, health, library,
    schedules, sources, tokens, transcription, transcription_queue, uploads, user_settings,
    webhooks,
};

/// The spec's error shape, the body of every 4xx and 5xx answer.
#[derive(Serialize, ToSchema)]
pub struct ErrorBody {
    pub error: ErrorObject,
}

/// What went wrong. Some errors carry more fields, named here so clients can rely on them.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ErrorObject {
    /// Safe to show to the user.
    pub message: String,
    pub code: ErrorCode,
    /// `true` on a sign-in that needs a second-factor code, or gave a wrong one: the sign-in
    /// screen asks for the code on this field, not on the message's wording.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub totp_required: Option<bool>,
    /// What could still be read of an encrypted or damaged PDF (its 422).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub recovered: Option<RecoveredPdf>,
}

/// The readable part of a PDF that could not be converted whole.
#[derive(Serialize, ToSchema)]
pub struct RecoveredPdf {
    pub title: String,
    /// Markdown of the pages that could be read.
    pub content: String,
    pub pages: u32,
}

#[derive(OpenApi)]
#[openapi(
    info(
        title = "Scribevault API",
        description = "The REST API of a Scribevault instance. Every answer is `{\"data\": …}` \
                       (lists may add `meta`) or the error shape `{\"error\": {message, code}}`. \
                       Signed-in routes take `Authorization: Bearer <token>`; real-time progress \
                       arrives over Socket.IO at `/socket.io/` (the event payloads are the \
                       `RealtimeEvent` schema).",
        license(name = "AGPL-3.0-or-later"),
    ),
    paths(openapi_document),
    components(schemas(ErrorBody, ErrorObject, scribevault_bus::contract::Event))
)]
struct ApiDoc;

/// Problems the route table itself answers, shared by reference.
const COMMON_RESPONSES: [(&str, &str, &str); 6] = [
    (
        "BadRequest",
        "400",
        "The path, query or body is not valid; the message says which.",
    ),
    (
        "Unauthenticated",
        "401",
        "No token, or a token that is expired, revoked or not valid.",
    ),
    (
        "Forbidden",
        "403",
        "Only an admin of the instance may do this.",
    ),
    (
        "NotFound",
        "404",
        "No such resource for the caller (another user's id reads the same).",
    ),
    (
        "PayloadTooLarge",
        "413",
        "The body is larger than this route takes.",
    ),
    (
        "Unavailable",
        "503",
        "A backend service is unavailable; try again.",
    ),
];

/// The whole document: every module's paths, the error responses the table implies, and the
/// bearer scheme.
#[must_use]
pub fn document() -> utoipa::openapi::OpenApi {
    let mut document = ApiDoc::openapi();
    for part in parts() {
        document.merge(part);
    }
    add_common_responses(&mut document);
    name_operations(&mut document);
    document
}

/// Operation ids default to the handler's name, and several modules have a `list` or a
/// `create`: each id is prefixed with its tag (`sources_list`), and the method is added where
/// one handler serves two (the socket's GET and POST), so every id is unique, as OpenAPI asks.
fn name_operations(document: &mut utoipa::openapi::OpenApi) {
    for item in document.paths.paths.values_mut() {
        let operations = [
            ("get", item.get.as_mut()),
            ("post", item.post.as_mut()),
            ("put", item.put.as_mut()),
            ("patch", item.patch.as_mut()),
            ("delete", item.delete.as_mut()),
            ("head", item.head.as_mut()),
        ];
        let several = operations.iter().filter(|(_, op)| op.is_some()).count() > 1;
        for (method, operation) in operations {
            let Some(operation) = operation else { continue };
            let tag = operation
                .tags
                .as_ref()
                .and_then(|tags| tags.first())
                .cloned()
                .unwrap_or_default();
            let name = operation.operation_id.clone().unwrap_or_default();
            // A GET handler that also answers HEAD documents both with one operation.
            let same_handler = several && (name.starts_with("socket") || method == "head");
            let mut id = format!("{tag}_{name}");
            if same_handler {
                id = format!("{id}_{method}");
            }
            operation.operation_id = Some(id);
        }
    }
}

/// Each module's part of the document.
fn parts() -> [utoipa::openapi::OpenApi; 20] {
    [
        health::Docs::openapi(),
        config::Docs::openapi(),
        crate::realtime::Docs::openapi(),
        auth::Docs::openapi(),
        account::Docs::openapi(),
        tokens::Docs::openapi(),
        crate::routes::openai::Docs::openapi(),
        feeds::Docs::openapi(),
        webhooks::Docs::openapi(),
        admin::Docs::openapi(),
        library::Docs::openapi(),
        discovery::Docs::openapi(),
        conversion::Docs::openapi(),
        user_settings::Docs::openapi(),
        sources::Docs::openapi(),
        downloads::Docs::openapi(),
        schedules::Docs::openapi(),
        uploads::Docs::openapi(),
        transcription::Docs::openapi(),
        transcription_queue::Docs::openapi(),
    ]
}

fn add_common_responses(document: &mut utoipa::openapi::OpenApi) {
    let components = document.components.get_or_insert_with(Default::default);
    components.security_schemes.insert(
        "bearer".to_owned(),
        SecurityScheme::Http(
            HttpBuilder::new()
                .scheme(HttpAuthScheme::Bearer)
                .bearer_format("JWT")
                .description(Some(
                    "A session token from `/api/auth/login` or the OIDC issuer.",
                ))
                .build(),
        ),
    );
    for (name, _, description) in COMMON_RESPONSES {
        components.responses.insert(
            name.to_owned(),
            RefOr::T(
                ResponseBuilder::new()
                    .description(description)
                    .content(
                        "application/json",
                        ContentBuilder::new()
                            .schema(Some(utoipa::openapi::Ref::from_schema_name("ErrorBody")))
                            .build(),
                    )
                    .build(),
            ),
        );
    }
    for route in route_table() {
        let Some(item) = document.paths.paths.get_mut(&route.path) else {
            continue;
        };
        let Some(operation) = operation_mut(item, &route.method) else {
            continue;
        };
        let mut answers = Vec::new();
        if route.reaches_services {
            answers.push("Unavailable");
        }
        if route.path.contains('{') {
            answers.extend(["BadRequest", "NotFound"]);
        }
        if operation.request_body.is_some() {
            answers.extend(["BadRequest", "PayloadTooLarge"]);
        }
        if operation.parameters.as_ref().is_some_and(|p| !p.is_empty()) {
            answers.push("BadRequest");
        }
        match route.access {
            Access::Public => {}
            Access::SignedIn => answers.push("Unauthenticated"),
            Access::Admin => answers.extend(["Unauthenticated", "Forbidden"]),
        }
        if route.access != Access::Public {
            operation
                .security
                .get_or_insert_with(Vec::new)
                .push(SecurityRequirement::new("bearer", Vec::<String>::new()));
        }
        for name in answers {
            let status = COMMON_RESPONSES
                .iter()
                .find(|(common, ..)| *common == name)
                .map_or("500", |(_, status, _)| *status);
            operation
                .responses
                .responses
                .entry(status.to_owned())
                .or_insert_with(|| {
                    RefOr::Ref(utoipa::openapi::Ref::new(format!(
                        "#/components/responses/{name}"
                    )))
                });
        }
    }
}

fn operation_mut<'a>(
    item: &'a mut PathItem,
    method: &actix_web::http::Method,
) -> Option<&'a mut Operation> {
    let method = match *method {
        actix_web::http::Method::GET => HttpMethod::Get,
        actix_web::http::Method::POST => HttpMethod::Post,
        actix_web::http::Method::PUT => HttpMethod::Put,
        actix_web::http::Method::PATCH => HttpMethod::Patch,
        actix_web::http::Method::DELETE => HttpMethod::Delete,
        actix_web::http::Method::HEAD => HttpMethod::Head,
        _ => return None,
    };
    match method {
        HttpMethod::Get => item.get.as_mut(),
        HttpMethod::Post => item.post.as_mut(),
        HttpMethod::Put => item.put.as_mut(),
        HttpMethod::Patch => item.patch.as_mut(),
        HttpMethod::Delete => item.delete.as_mut(),
        HttpMethod::Head => item.head.as_mut(),
        _ => None,
    }
}

/// The document as served and written to `docs/openapi.json` (pretty, with a final newline).
#[must_use]
pub fn document_json() -> &'static str {
    static DOCUMENT: OnceLock<String> = OnceLock::new();
    DOCUMENT.get_or_init(|| {
        let mut json = document()
            .to_pretty_json()
            .unwrap_or_else(|error| format!("{{\"error\": \"{error}\"}}"));
        json.push('\n');
        json
    })
}

/// This API's OpenAPI 3.1 document.
#[utoipa::path(
    get,
    path = "/api/openapi.json",
    tag = "meta",
    responses((status = 200, description = "The OpenAPI document", content_type = "application/json"))
)]
pub async fn openapi_document() -> HttpResponse {
    HttpResponse::Ok()
        .content_type("application/json")
        .insert_header(("Cache-Control", "no-cache"))
        .body(document_json())
}

pub(super) fn routes() -> RouteList {
    RouteList::default()
        .add::<__path_openapi_document>(Access::Public, || web::to(openapi_document))
        .answered_from_memory()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every route the server registers is in the document, and nothing else is: the
    /// document is the contract the SPA's types are generated from.
    #[test]
    fn the_document_has_every_registered_route_and_nothing_else() {
        let document = document();
        let mut documented: Vec<(String, String)> = document
            .paths
            .paths
            .iter()
            .flat_map(|(path, item)| {
                [
                    ("GET", item.get.is_some()),
                    ("POST", item.post.is_some()),
                    ("PUT", item.put.is_some()),
                    ("PATCH", item.patch.is_some()),
                    ("DELETE", item.delete.is_some()),
                    ("HEAD", item.head.is_some()),
                    ("OPTIONS", item.options.is_some()),
                    ("TRACE", item.trace.is_some()),
                ]
                .into_iter()
                .filter(|(_, present)| *present)
                .map(|(method, _)| (method.to_owned(), path.clone()))
            })
            .collect();
        let mut registered: Vec<(String, String)> = route_table()
            .into_iter()
            .map(|route| (route.method.to_string(), route.path))
            .collect();
        documented.sort();
        registered.sort();
        assert_eq!(documented, registered);
    }

    #[test]
    fn every_operation_id_is_unique() {
        let document = document();
        let mut ids = std::collections::BTreeSet::new();
        for item in document.paths.paths.values() {
            for operation in [
                &item.get,
                &item.post,
                &item.put,
                &item.patch,
                &item.delete,
                &item.head,
            ]
            .into_iter()
            .flatten()
            {
                let id = operation.operation_id.clone().expect("an operation id");
                assert!(ids.insert(id.clone()), "{id} is used twice");
            }
        }
    }

    /// Two views of the same name in different modules would silently replace each other
    /// when the parts are merged: every name must mean one schema.
    #[test]
    fn no_two_modules_give_one_schema_name_different_shapes() {
        let mut seen: std::collections::BTreeMap<String, String> = Default::default();
        for part in parts().into_iter().chain([ApiDoc::openapi()]) {
            for (name, schema) in part.components.map(|c| c.schemas).unwrap_or_default() {
                let shape = serde_json::to_string(&schema).expect("serialisable");
                if let Some(earlier) = seen.insert(name.clone(), shape.clone()) {
                    assert_eq!(earlier, shape, "two different schemas are named {name}");
                }
            }
        }
    }

    /// Every documented operation says what it answers, and every signed-in one needs the
    /// bearer token and may answer 401.
    #[test]
    fn every_operation_has_a_description_and_its_error_answers() {
        let document = document();
        for route in route_table() {
            let item = document.paths.paths.get(&route.path).expect("documented");
            let mut item = item.clone();
            let operation = operation_mut(&mut item, &route.method).expect("documented");
            let described = operation.summary.as_deref().is_some_and(|s| !s.is_empty())
                || operation
                    .description
                    .as_deref()
                    .is_some_and(|s| !s.is_empty());
            assert!(
                described,
                "{} {} has no description",
                route.method, route.path
            );
            assert!(
                operation
                    .responses
                    .responses
                    .keys()
                    .any(|status| status.starts_with('2')
                        || status.starts_with('3')
                        || status == "101"),
                "{} {} documents no success answer",
                route.method,
                route.path
            );
            if route.access != Access::Public {
                assert!(operation.responses.responses.contains_key("401"));
                assert!(operation.security.is_some());
            }
            if route.access == Access::Admin {
                assert!(operation.responses.responses.contains_key("403"));
            }
        }
    }

    /// The errors a route is documented with are ones it can give: `/healthz` and
    /// `/config.json` are answered from memory (no 503), take no id or body (no 400, 404,
    /// 413) and no token (no 401, 403).
    #[test]
    fn routes_answered_from_memory_document_only_their_success() {
        let document = document();
        for path in ["/healthz", "/config.json", "/api/openapi.json"] {
            let get = document.paths.paths[path].get.as_ref().expect("a GET");
            let statuses: Vec<&String> = get.responses.responses.keys().collect();
            assert_eq!(statuses, ["200"], "{path}");
        }
        let readyz = document.paths.paths["/readyz"].get.as_ref().expect("a GET");
        assert!(
            readyz.responses.responses.contains_key("503"),
            "readyz says when it is not ready"
        );
    }
}
