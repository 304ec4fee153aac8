//! The HTTP long-polling transport: a GET without a sid opens a session, a GET with one waits
//! for the session's packets, a POST hands it the client's packets.

use std::net::IpAddr;

use actix_web::http::header::{self, ContentType};
use actix_web::web::{self, BytesMut};
use actix_web::{HttpRequest, HttpResponse};
use futures::StreamExt as _;
use tokio::sync::oneshot;

use super::engine;
use super::registry::EngineSessions;
use super::request_error::EngineRequestError;
use super::session::{self, Command, Ended, SessionDeps, SessionHandle, Via};

/// `GET /socket.io/?EIO=4&transport=polling`: opens a session and answers its open packet,
/// unless `address` (or the replica) holds as many unconnected sessions as it may.
pub async fn handshake(
    deps: &SessionDeps,
    sessions: &EngineSessions,
    address: Option<IpAddr>,
) -> Result<HttpResponse, EngineRequestError> {
    let account = sessions.admit(address)?;
    let handle = session::start_polling(deps, sessions, account);
    poll(&handle).await
}

/// `GET /socket.io/?EIO=4&transport=polling&sid=…`: the session's buffered packets, held until
/// there are some (the ping every `pingInterval` ends every wait).
pub async fn poll(handle: &SessionHandle) -> Result<HttpResponse, EngineRequestError> {
    let (reply, answer) = oneshot::channel();
    handle
        .send(Command::Poll(reply))
        .await
        .map_err(|_| EngineRequestError::UnknownSession)?;
    match answer.await {
        Ok(Ok(payload)) => Ok(text(payload)),
        Ok(Err(_refused)) => Err(EngineRequestError::BadRequest),
        Err(_ended) => Err(EngineRequestError::UnknownSession),
    }
}

/// `POST /socket.io/?EIO=4&transport=polling&sid=…`: packets separated by `\x1e`; answered
/// `ok` once the session has handled them. A body that is too large or not Engine.IO text
/// ends the session, as the reference server does.
pub async fn post(
    handle: &SessionHandle,
    request: &HttpRequest,
    body: web::Payload,
    max_payload: usize,
) -> Result<HttpResponse, EngineRequestError> {
    let Some(_posting) = handle.begin_post() else {
        return Err(refuse(
            handle,
            Ended::OverlappingPost,
            EngineRequestError::BadRequest,
        )
        .await);
    };
    if announces_more_than(request, max_payload) {
        let error = EngineRequestError::PayloadTooLarge;
        return Err(refuse(handle, Ended::PayloadTooLarge, error).await);
    }
    let body = match read_body(body, max_payload).await {
        Ok(body) => body,
        Err(error) => {
            let ended = if error == EngineRequestError::PayloadTooLarge {
                Ended::PayloadTooLarge
            } else {
                Ended::BadPayload
            };
            return Err(refuse(handle, ended, error).await);
        }
    };
    let packets = match std::str::from_utf8(&body)
        .ok()
        .and_then(|text| engine::decode_payload(text).ok())
    {
        Some(packets) => packets,
        None => {
            return Err(refuse(handle, Ended::BadPayload, EngineRequestError::BadRequest).await);
        }
    };
    let (done, handled) = oneshot::channel();
    handle
        .send(Command::Packets {
            packets,
            via: Via::Polling,
            done: Some(done),
        })
        .await
        .map_err(|_| EngineRequestError::UnknownSession)?;
    match handled.await {
        Ok(Ok(())) => Ok(text("ok".to_owned())),
        Ok(Err(_refused)) => Err(EngineRequestError::BadRequest),
        Err(_ended) => Err(EngineRequestError::UnknownSession),
    }
}

/// Ends the session for `ended` and answers `error`.
async fn refuse(
    handle: &SessionHandle,
    ended: Ended,
    error: EngineRequestError,
) -> EngineRequestError {
    // A session that has already ended needs no closing.
    let _ = handle.send(Command::Close(ended)).await;
    error
}

/// The POST body, refused once it passes `limit` bytes.
async fn read_body(mut body: web::Payload, limit: usize) -> Result<BytesMut, EngineRequestError> {
    let mut read = BytesMut::new();
    while let Some(chunk) = body.next().await {
        let chunk = chunk.map_err(|_| EngineRequestError::BadRequest)?;
        if read.len() + chunk.len() > limit {
            return Err(EngineRequestError::PayloadTooLarge);
        }
        read.extend_from_slice(&chunk);
    }
    Ok(read)
}

/// Whether the request announces a body over `limit`, which is then refused unread.
fn announces_more_than(request: &HttpRequest, limit: usize) -> bool {
    request
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.parse::<u64>().ok())
        .is_some_and(|length| length > u64::try_from(limit).unwrap_or(u64::MAX))
}

fn text(body: String) -> HttpResponse {
    HttpResponse::Ok()
        .content_type(ContentType::plaintext())
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .body(body)
}
