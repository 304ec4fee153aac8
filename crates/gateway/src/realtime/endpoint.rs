//! `/socket.io/`: reads the Engine.IO query and hands the request to its transport.

use actix_web::http::Method;
use actix_web::{HttpRequest, HttpResponse, web};

use super::RealtimeState;
use super::polling;
use super::request_error::EngineRequestError;
use super::session::{SessionDeps, Via};
use super::websocket;

/// The Engine.IO query parameters.
struct EngineQuery {
    eio: Option<String>,
    transport: Option<String>,
    sid: Option<String>,
}

impl EngineQuery {
    fn parse(query: &str) -> Self {
        let mut parsed = Self {
            eio: None,
            transport: None,
            sid: None,
        };
        for (key, value) in url::form_urlencoded::parse(query.as_bytes()) {
            let slot = match key.as_ref() {
                "EIO" => &mut parsed.eio,
                "transport" => &mut parsed.transport,
                "sid" => &mut parsed.sid,
                _ => continue,
            };
            slot.get_or_insert_with(|| value.into_owned());
        }
        parsed
    }
}

/// Every method of `/socket.io/?EIO=4&transport=polling|websocket[&sid=…]`.
///
/// # Errors
/// An Engine.IO error (HTTP 400, 413 for an oversized POST, 429/503 for a handshake past the
/// caps on unconnected sessions) for a request no transport takes, or the WebSocket
/// handshake's own error.
#[utoipa::path(
    method(get, post),
    path = "/socket.io/",
    tag = "realtime",
    params(
        ("EIO" = String, Query, description = "Engine.IO protocol version; only `4`"),
        ("transport" = String, Query, description = "`polling` or `websocket`"),
        ("sid" = Option<String>, Query, description = "The session, after the handshake"),
    ),
    responses(
        (status = 200, description = "Engine.IO packets (long polling); the Socket.IO CONNECT \
                                      carries `{token}`, and events follow as `RealtimeEvent`"),
        (status = 101, description = "Switched to WebSocket"),
        (status = 400, description = "A request no transport takes", body = String),
        (status = 413, description = "A POST past the payload limit", body = String),
        (status = 429, description = "Too many unconnected sessions from this address", body = String),
    )
)]
pub async fn socket_io_endpoint(
    request: HttpRequest,
    body: web::Payload,
    realtime: web::Data<RealtimeState>,
) -> Result<HttpResponse, actix_web::Error> {
    let sessions = &realtime.sessions;
    let query = EngineQuery::parse(request.query_string());
    if query.eio.as_deref() != Some("4") {
        return Err(EngineRequestError::UnsupportedProtocolVersion.into());
    }
    let deps = SessionDeps {
        hub: realtime.hub.clone(),
        verifier: realtime.verifier.clone(),
        revocations: realtime.revocations.clone(),
        config: sessions.config(),
    };
    let transport = match query.transport.as_deref() {
        Some("polling") => Via::Polling,
        Some("websocket") => Via::WebSocket,
        _ => return Err(EngineRequestError::UnknownTransport.into()),
    };
    let existing = match query.sid.as_deref() {
        None => None,
        Some(sid) => Some(
            sessions
                .get(sid)
                .ok_or(EngineRequestError::UnknownSession)?,
        ),
    };
    let method = request.method().clone();
    // The client behind a trusted proxy, so the per-address cap does not count the proxy.
    let address = || realtime.proxies.client_of(&request);
    match (transport, existing) {
        (_, None) if method != Method::GET => Err(EngineRequestError::BadHandshakeMethod.into()),
        (Via::Polling, None) => Ok(polling::handshake(&deps, sessions, address()).await?),
        (Via::Polling, Some(handle)) if method == Method::GET => Ok(polling::poll(&handle).await?),
        (Via::Polling, Some(handle)) if method == Method::POST => {
            let limit = deps.config.max_payload;
            Ok(polling::post(&handle, &request, body, limit).await?)
        }
        (Via::Polling, Some(_)) => Err(EngineRequestError::BadRequest.into()),
        (Via::WebSocket, None) => websocket::open(&request, body, &deps, sessions, address()),
        (Via::WebSocket, Some(handle)) if method == Method::GET => {
            websocket::upgrade(&request, body, handle, &deps)
        }
        (Via::WebSocket, Some(_)) => Err(EngineRequestError::BadRequest.into()),
    }
}
