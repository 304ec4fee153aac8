//! The WebSocket transport: a session of its own (no sid), or the upgrade of a long-polling
//! session (`sid` given) after the `2probe` / `3probe` / `5` exchange.
//!
//! Reading a WebSocket must stay on the actix worker that accepted it (its stream is not
//! `Send`), so a small task here reads frames and hands them to the session as commands; the
//! session writes to the socket itself.

use std::net::IpAddr;

use actix_web::{HttpRequest, HttpResponse, web};
use actix_ws::Message;
use futures::StreamExt as _;
use tokio::sync::oneshot;

use super::engine::{self, EnginePacket};
use super::registry::EngineSessions;
use super::session::{self, Command, Ended, SessionDeps, SessionHandle, Via};

/// The data of the client's upgrade probe (`2probe`).
const PROBE: &str = "probe";

/// `GET /socket.io/?EIO=4&transport=websocket`: a session carried by this WebSocket alone,
/// admitted (before the upgrade) like a polling handshake from `address`.
///
/// # Errors
/// Too many unconnected sessions (429/503); the request is not a WebSocket handshake.
pub fn open(
    request: &HttpRequest,
    body: web::Payload,
    deps: &SessionDeps,
    sessions: &EngineSessions,
    address: Option<IpAddr>,
) -> Result<HttpResponse, actix_web::Error> {
    let account = sessions.admit(address)?;
    let (response, socket, messages) = actix_ws::handle(request, body)?;
    let messages = messages.max_frame_size(deps.config.max_payload);
    let handle = session::start_websocket(deps, socket.clone(), account);
    actix_web::rt::spawn(forward_frames(socket, messages, handle));
    Ok(response)
}

/// `GET /socket.io/?EIO=4&transport=websocket&sid=…`: a WebSocket offered to a long-polling
/// session; it carries the session once the client completes the upgrade.
///
/// # Errors
/// The request is not a WebSocket handshake.
pub fn upgrade(
    request: &HttpRequest,
    body: web::Payload,
    handle: SessionHandle,
    deps: &SessionDeps,
) -> Result<HttpResponse, actix_web::Error> {
    let (response, socket, messages) = actix_ws::handle(request, body)?;
    let messages = messages.max_frame_size(deps.config.max_payload);
    let timeout = deps.config.upgrade_timeout;
    actix_web::rt::spawn(async move {
        let mut socket = socket;
        let mut messages = messages;
        let probed =
            tokio::time::timeout(timeout, probe(&mut socket, &mut messages, &handle)).await;
        if matches!(probed, Ok(Ok(()))) && upgraded(&handle, &socket).await {
            forward_frames(socket, messages, handle).await;
        } else {
            tracing::debug!(result = ?probed, "WebSocket upgrade abandoned");
            let _ = handle.send(Command::ProbeFailed).await;
            let _ = socket.close(None).await;
        }
    });
    Ok(response)
}

/// Hands `socket` to the session; `false` when the session ended or already has one (the
/// session closed `socket` then).
async fn upgraded(handle: &SessionHandle, socket: &actix_ws::Session) -> bool {
    let (accepted, answer) = oneshot::channel();
    let command = Command::Upgrade {
        socket: socket.clone(),
        accepted,
    };
    handle.send(command).await.is_ok() && answer.await == Ok(true)
}

/// Why an upgrade did not happen.
#[derive(Debug, PartialEq, Eq)]
enum ProbeError {
    /// The socket closed or failed.
    Closed,
    /// Something other than `2probe` then `5`.
    Unexpected,
    /// The session ended meanwhile, or already has its WebSocket.
    Refused,
}

/// Answers the client's `2probe` with `3probe` once the session accepts the probe, and waits
/// for `5`.
async fn probe(
    socket: &mut actix_ws::Session,
    messages: &mut actix_ws::MessageStream,
    handle: &SessionHandle,
) -> Result<(), ProbeError> {
    let first = next_text(socket, messages).await?;
    if EnginePacket::decode(&first) != Ok(EnginePacket::Ping(PROBE.to_owned())) {
        return Err(ProbeError::Unexpected);
    }
    let (accepted, answer) = oneshot::channel();
    handle
        .send(Command::Probe(accepted))
        .await
        .map_err(|_| ProbeError::Refused)?;
    if answer.await != Ok(true) {
        return Err(ProbeError::Refused);
    }
    socket
        .text(engine::pong(PROBE))
        .await
        .map_err(|_| ProbeError::Closed)?;
    let second = next_text(socket, messages).await?;
    if EnginePacket::decode(&second) != Ok(EnginePacket::Upgrade) {
        return Err(ProbeError::Unexpected);
    }
    Ok(())
}

/// The next text frame, answering WebSocket pings meanwhile.
async fn next_text(
    socket: &mut actix_ws::Session,
    messages: &mut actix_ws::MessageStream,
) -> Result<String, ProbeError> {
    loop {
        match messages.next().await {
            Some(Ok(Message::Text(text))) => return Ok(text.to_string()),
            Some(Ok(Message::Ping(bytes))) => {
                socket.pong(&bytes).await.map_err(|_| ProbeError::Closed)?;
            }
            Some(Ok(Message::Pong(_))) => {}
            Some(Ok(_)) => return Err(ProbeError::Unexpected),
            Some(Err(_)) | None => return Err(ProbeError::Closed),
        }
    }
}

/// Hands every text frame to the session, as one packet, until the socket or the session ends.
async fn forward_frames(
    mut socket: actix_ws::Session,
    mut messages: actix_ws::MessageStream,
    handle: SessionHandle,
) {
    let ended = loop {
        let packet = match messages.next().await {
            Some(Ok(Message::Text(text))) => match EnginePacket::decode(&text) {
                Ok(packet) => packet,
                Err(error) => {
                    tracing::debug!(error = %error, "closing a WebSocket that sent a bad packet");
                    break Ended::BadPayload;
                }
            },
            Some(Ok(Message::Ping(bytes))) => {
                if socket.pong(&bytes).await.is_err() {
                    break Ended::TransportClosed;
                }
                continue;
            }
            Some(Ok(Message::Close(_)) | Err(_)) | None => break Ended::TransportClosed,
            // Binary frames carry Socket.IO attachments, which this server does not offer.
            Some(Ok(_)) => continue,
        };
        let command = Command::Packets {
            packets: vec![packet],
            via: Via::WebSocket,
            done: None,
        };
        if handle.send(command).await.is_err() {
            return;
        }
    };
    let _ = handle.send(Command::Close(ended)).await;
}
