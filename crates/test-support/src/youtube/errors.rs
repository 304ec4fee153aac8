//! Errors, in Google's envelope.

use serde_json::{Map, Value, json};

use super::api::{Body, Reply};

pub(crate) fn error_reply(
    code: u16,
    message: &str,
    errors: Vec<Value>,
    extra: Option<(&str, Value)>,
) -> Reply {
    let mut error = Map::new();
    error.insert("code".into(), json!(code));
    error.insert("message".into(), json!(message));
    error.insert("errors".into(), Value::Array(errors));
    if let Some((name, value)) = extra {
        error.insert(name.into(), value);
    }
    Reply {
        status: code,
        body: Body::Json(json!({ "error": error })),
        pretty: true,
    }
}

/// An error in the YouTube style: one `errors[]` entry with domain, reason and location.
pub(crate) fn youtube_error(
    code: u16,
    message: &str,
    domain: &str,
    reason: &str,
    location: Option<(&str, &str)>,
) -> Reply {
    let mut entry = json!({ "message": message, "domain": domain, "reason": reason });
    if let (Some((location, location_type)), Some(object)) = (location, entry.as_object_mut()) {
        object.insert("location".into(), json!(location));
        object.insert("locationType".into(), json!(location_type));
    }
    error_reply(code, message, vec![entry], None)
}

pub(crate) fn not_found() -> Reply {
    Reply {
        status: 404,
        pretty: true,
        body: Body::Html(
            "<!DOCTYPE html>\n<html lang=en><meta charset=utf-8><title>Error 404 (Not Found)</title>\
             <p><b>404.</b> <ins>That’s an error.</ins><p>The requested URL was not found on this \
             server. <ins>That’s all we know.</ins></html>\n",
        ),
    }
}

const UNREGISTERED: &str = "Method doesn't allow unregistered callers (callers without established \
                            identity). Please use API Key or other form of API consumer identity \
                            to call this API.";

pub(crate) fn missing_key() -> Reply {
    let entry = json!({ "message": UNREGISTERED, "domain": "global", "reason": "forbidden" });
    error_reply(
        403,
        UNREGISTERED,
        vec![entry],
        Some(("status", json!("PERMISSION_DENIED"))),
    )
}

const KEY_INVALID: &str = "API key not valid. Please pass a valid API key.";

pub(crate) fn invalid_key() -> Reply {
    let entry = json!({ "message": KEY_INVALID, "domain": "global", "reason": "badRequest" });
    let mut reply = error_reply(
        400,
        KEY_INVALID,
        vec![entry],
        Some(("status", json!("INVALID_ARGUMENT"))),
    );
    if let Body::Json(body) = &mut reply.body
        && let Some(error) = body.get_mut("error").and_then(Value::as_object_mut)
    {
        error.insert(
            "details".into(),
            json!([
                {
                    "@type": "type.googleapis.com/google.rpc.ErrorInfo",
                    "reason": "API_KEY_INVALID",
                    "domain": "googleapis.com",
                    "metadata": { "service": "youtube.googleapis.com" }
                },
                {
                    "@type": "type.googleapis.com/google.rpc.LocalizedMessage",
                    "locale": "en-US",
                    "message": KEY_INVALID
                }
            ]),
        );
    }
    reply
}

const QUOTA: &str = "The request cannot be completed because you have exceeded your \
                     <a href=\"/youtube/v3/getting-started#quota\">quota</a>.";

pub(crate) fn quota_exceeded() -> Reply {
    youtube_error(403, QUOTA, "youtube.quota", "quotaExceeded", None)
}

pub(crate) fn required(parameter: &str) -> Reply {
    youtube_error(
        400,
        &format!("Required parameter: {parameter}"),
        "global",
        "required",
        Some((parameter, "parameter")),
    )
}

pub(crate) fn no_filter(expected: &str) -> Reply {
    youtube_error(
        400,
        &format!("No filter selected. Expected one of: {expected}"),
        "youtube.parameter",
        "missingRequiredParameter",
        Some(("parameters.", "other")),
    )
}

pub(crate) fn incompatible(names: &[&str]) -> Reply {
    youtube_error(
        400,
        &format!(
            "Incompatible parameters specified in the request: {}",
            names.join(", ")
        ),
        "youtube.parameter",
        "incompatibleParameters",
        Some(("parameters.", "other")),
    )
}

pub(crate) fn invalid_filters() -> Reply {
    youtube_error(
        400,
        "The request specifies an invalid filter parameter.",
        "youtube.parameter",
        "invalidFilters",
        Some(("parameters.", "other")),
    )
}

pub(crate) fn authorization_required(parameter: &str) -> Reply {
    youtube_error(
        401,
        &format!(
            "The request uses the <code>{parameter}</code> parameter but is not properly authorized."
        ),
        "youtube.parameter",
        "authorizationRequired",
        Some((parameter, "parameter")),
    )
}

pub(crate) fn invalid_page_token() -> Reply {
    youtube_error(
        400,
        "The request specifies an invalid page token.",
        "youtube.parameter",
        "invalidPageToken",
        Some(("pageToken", "parameter")),
    )
}

pub(crate) fn playlist_not_found() -> Reply {
    youtube_error(
        404,
        "The playlist identified with the request's <code>playlistId</code> parameter cannot be \
         found.",
        "youtube.playlistItem",
        "playlistNotFound",
        Some(("playlistId", "parameter")),
    )
}
