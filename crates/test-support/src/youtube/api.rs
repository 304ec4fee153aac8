//! The fake's answers, independent of HTTP: `handle` takes an endpoint name and a query string
//! and returns a status and a body, recording the call and charging quota. What the fake knows
//! is in `state.rs`, the shared parameters in `params.rs`, Google's error envelopes in
//! `errors.rs`, and each list method in `endpoints/<name>.rs`.

use serde_json::Value;

use super::endpoints;
use super::errors::{invalid_key, missing_key, not_found, quota_exceeded};
use super::params::Params;
use super::state::{DEFAULT_DAILY_QUOTA, RecordedCall, State};

/// A response body.
pub(crate) enum Body {
    Json(Value),
    Html(&'static str),
}

/// A status and a body.
pub(crate) struct Reply {
    pub(crate) status: u16,
    pub(crate) body: Body,
    /// Indented JSON (the real default) or compact (`prettyPrint=false`).
    pub(crate) pretty: bool,
}

/// An endpoint's answer: `Err` carries an error reply.
pub(crate) type Answer = Result<Reply, Reply>;

/// The quota cost of an endpoint; `None` for endpoints the fake does not know.
fn cost(endpoint: &str) -> Option<u64> {
    match endpoint {
        "channels" | "playlistItems" | "videos" | "playlists" => Some(1),
        "search" => Some(100),
        _ => None,
    }
}

fn parse_query(raw_query: &str) -> Vec<(String, String)> {
    url::form_urlencoded::parse(raw_query.as_bytes())
        .into_owned()
        .collect()
}

/// Answers a request for a path that is no API method (404, free) and records it as `label`.
pub(crate) fn handle_unknown(state: &mut State, label: &str, raw_query: &str) -> Reply {
    let query = parse_query(raw_query);
    let reply = not_found();
    state.calls.push(RecordedCall {
        endpoint: label.to_string(),
        key: Params(&query).get("key").map(str::to_string),
        query,
        units: 0,
        status: reply.status,
    });
    reply
}

/// Answers one request to `/youtube/v3/{endpoint}` and records it.
pub(crate) fn handle(state: &mut State, endpoint: &str, raw_query: &str) -> Reply {
    let query = parse_query(raw_query);
    let params = Params(&query);
    let key = params.get("key");
    let (reply, units) = match (cost(endpoint), key) {
        (None, _) => (not_found(), 0),
        (Some(_), None) => (missing_key(), 0),
        (Some(_), Some(key)) if key.is_empty() || state.invalid_keys.contains(key) => {
            (invalid_key(), 0)
        }
        (Some(cost), Some(key)) => {
            let limit = state
                .quota_limits
                .get(key)
                .copied()
                .unwrap_or(DEFAULT_DAILY_QUOTA);
            let used = state.quota_used(key);
            if used.saturating_add(cost) > limit {
                (quota_exceeded(), 0)
            } else {
                state.quota_used.insert(key.to_string(), used + cost);
                let reply = match endpoint {
                    "channels" => endpoints::channels::list(state, &params),
                    "playlistItems" => endpoints::playlist_items::list(state, &params),
                    "videos" => endpoints::videos::list(state, &params),
                    "playlists" => endpoints::playlists::list(state, &params),
                    _ => endpoints::search::list(state, &params),
                }
                .unwrap_or_else(|error| error);
                (reply, cost)
            }
        }
    };
    state.calls.push(RecordedCall {
        endpoint: endpoint.to_string(),
        key: key.map(str::to_string),
        query: query.clone(),
        units,
        status: reply.status,
    });
    reply
}
