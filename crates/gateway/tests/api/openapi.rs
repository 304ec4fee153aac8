//! `GET /api/openapi.json`: the document is served, and what the routes answer fits the
//! schemas it gives for them.

use serde_json::{Value, json};

use crate::helpers::{spawn_app, transcript};
use scribevault_proto::library::v1 as pb;

/// The schema `pointer` (`#/components/schemas/X`) names in `document`.
fn resolve<'a>(document: &'a Value, pointer: &str) -> &'a Value {
    document
        .pointer(pointer.trim_start_matches('#'))
        .unwrap_or_else(|| panic!("{pointer} is in the document"))
}

/// Why `value` does not fit `schema`, if it does not: `$ref`s, objects (their required keys
/// present, no key the schema does not declare), arrays, `oneOf`/`anyOf`, and JSON types. Enough
/// to catch a view and its documented schema drifting apart.
fn misfit(document: &Value, schema: &Value, value: &Value, at: &str) -> Option<String> {
    if let Some(pointer) = schema.get("$ref").and_then(Value::as_str) {
        return misfit(document, resolve(document, pointer), value, at);
    }
    for key in ["oneOf", "anyOf"] {
        if let Some(choices) = schema.get(key).and_then(Value::as_array) {
            return choices
                .iter()
                .all(|choice| misfit(document, choice, value, at).is_some())
                .then(|| format!("{at}: {value} fits none of {key}"));
        }
    }
    if let Some(types) = schema.get("type") {
        let types: Vec<&str> = match types {
            Value::String(one) => vec![one.as_str()],
            Value::Array(many) => many.iter().filter_map(Value::as_str).collect(),
            _ => Vec::new(),
        };
        let fits = types.iter().any(|kind| match *kind {
            "null" => value.is_null(),
            "boolean" => value.is_boolean(),
            "integer" => value.is_i64() || value.is_u64(),
            "number" => value.is_number(),
            "string" => value.is_string(),
            "array" => value.is_array(),
            "object" => value.is_object(),
            _ => true,
        });
        if !fits {
            return Some(format!("{at}: {value} is not {types:?}"));
        }
    }
    if let (Some(object), Some(properties)) = (
        value.as_object(),
        schema.get("properties").and_then(Value::as_object),
    ) {
        for required in schema
            .get("required")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
        {
            if !object.contains_key(required) {
                return Some(format!("{at}: required key {required} is missing"));
            }
        }
        for (key, field) in object {
            let Some(property) = properties.get(key) else {
                return Some(format!("{at}: {key} is not in the schema"));
            };
            if let Some(why) = misfit(document, property, field, &format!("{at}.{key}")) {
                return Some(why);
            }
        }
    }
    if let (Some(items), Some(values)) = (schema.get("items"), value.as_array()) {
        for (index, item) in values.iter().enumerate() {
            if let Some(why) = misfit(document, items, item, &format!("{at}[{index}]")) {
                return Some(why);
            }
        }
    }
    None
}

/// The JSON schema of `status` for `method path` in `document`.
fn response_schema<'a>(document: &'a Value, method: &str, path: &str, status: &str) -> &'a Value {
    let operation = &document["paths"][path][method];
    let schema = &operation["responses"][status]["content"]["application/json"]["schema"];
    assert!(
        !schema.is_null(),
        "{method} {path} documents a {status} body: {operation}"
    );
    schema
}

#[tokio::test]
async fn the_document_is_served_and_the_list_answer_fits_its_schema() {
    let app = spawn_app().await;
    let token = app.token().await;
    let served = app
        .send(reqwest::Method::GET, "/api/openapi.json", None, None)
        .await;
    assert_eq!(served.status, 200);
    let document = served.body;
    assert!(
        document["openapi"]
            .as_str()
            .is_some_and(|version| version.starts_with("3.1")),
        "{}",
        document["openapi"]
    );
    let schema = response_schema(&document, "get", "/api/library/transcripts", "200");
    assert_eq!(schema["$ref"], "#/components/schemas/TranscriptPage");
    let page = resolve(&document, "#/components/schemas/TranscriptPage");
    assert_eq!(page["required"], json!(["data", "meta"]));

    app.library
        .list_transcripts
        .answers(Ok(pb::ListTranscriptsResponse {
            transcripts: vec![transcript("t1")],
            meta: Some(pb::PageMeta {
                page: 1,
                limit: 20,
                total: 1_001,
                has_more: true,
                total_capped: true,
            }),
        }));
    let listed = app.get("/api/library/transcripts?q=word", &token).await;
    assert_eq!(listed.status, 200, "{}", listed.body);
    assert_eq!(misfit(&document, schema, &listed.body, "answer"), None);
    // The checker itself refuses an answer that drifted from the schema.
    let mut drifted = listed.body.clone();
    drifted["meta"].as_object_mut().unwrap().remove("hasMore");
    assert!(misfit(&document, schema, &drifted, "answer").is_some());
    drifted = listed.body.clone();
    drifted["data"][0]["sourceRef"] = json!("uploads/t1.mp3");
    assert!(misfit(&document, schema, &drifted, "answer").is_some());
}

#[tokio::test]
async fn an_error_answer_fits_the_documented_error_body() {
    let app = spawn_app().await;
    let served = app
        .send(reqwest::Method::GET, "/api/openapi.json", None, None)
        .await;
    let document = served.body;
    let unauthenticated = app
        .send(reqwest::Method::GET, "/api/library/stats", None, None)
        .await;
    assert_eq!(unauthenticated.status, 401);

    let error_body = json!({ "$ref": "#/components/schemas/ErrorBody" });
    assert_eq!(
        misfit(&document, &error_body, &unauthenticated.body, "answer"),
        None
    );
    let code = &resolve(&document, "#/components/schemas/ErrorCode")["enum"];
    assert!(
        code.as_array()
            .unwrap()
            .contains(&unauthenticated.body["error"]["code"]),
        "{code}"
    );
}
