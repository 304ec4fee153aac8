//! One Socket.IO connection over actix-ws: the Engine.IO handshake and heartbeat, namespace
//! CONNECT with token verification, client events and acknowledgements, and delivery of the
//! user's events.

use std::collections::HashSet;
use std::time::Duration;

use actix_web::{HttpRequest, HttpResponse, web};
use actix_ws::Message;
use futures::StreamExt as _;
use serde_json::{Value, json};
use tokio::sync::mpsc;

use super::hub::RealtimeHub;
use super::packet::{self, ClientPacket};
use crate::auth::SharedVerifier;

const PING_INTERVAL: Duration = Duration::from_secs(25);
const PING_TIMEOUT: Duration = Duration::from_secs(20);
const MAX_PAYLOAD: usize = 1_000_000;
const OUTGOING_BUFFER: usize = 256;

fn engine_error(code: u8, message: &str) -> HttpResponse {
    HttpResponse::BadRequest().json(json!({ "code": code, "message": message }))
}

/// `GET /socket.io/?EIO=4&transport=websocket`
pub async fn socket_io_endpoint(
    request: HttpRequest,
    body: web::Payload,
    hub: web::Data<RealtimeHub>,
    verifier: web::Data<SharedVerifier>,
) -> Result<HttpResponse, actix_web::Error> {
    let query: Vec<(String, String)> =
        url::form_urlencoded::parse(request.query_string().as_bytes())
            .into_owned()
            .collect();
    let param = |name: &str| {
        query
            .iter()
            .find(|(key, _)| key == name)
            .map(|(_, value)| value.as_str())
    };
    if param("EIO") != Some("4") {
        return Ok(engine_error(5, "Unsupported protocol version"));
    }
    if param("transport") != Some("websocket") {
        // Long-polling is not offered; clients listing websocket first connect over it.
        return Ok(engine_error(0, "Transport unknown"));
    }
    let (response, session, messages) = actix_ws::handle(&request, body)?;
    let hub = hub.get_ref().clone();
    let verifier = verifier.get_ref().clone();
    actix_web::rt::spawn(run_session(
        session,
        messages.max_frame_size(MAX_PAYLOAD),
        hub,
        verifier,
    ));
    Ok(response)
}

async fn run_session(
    mut session: actix_ws::Session,
    mut messages: actix_ws::MessageStream,
    hub: RealtimeHub,
    verifier: SharedVerifier,
) {
    let engine_sid = uuid::Uuid::new_v4().simple().to_string();
    let open = json!({
        "sid": engine_sid,
        "upgrades": [],
        "pingInterval": PING_INTERVAL.as_millis() as u64,
        "pingTimeout": PING_TIMEOUT.as_millis() as u64,
        "maxPayload": MAX_PAYLOAD,
    });
    if session.text(format!("0{open}")).await.is_err() {
        return;
    }
    let (sender, mut outgoing) = mpsc::channel::<String>(OUTGOING_BUFFER);
    let mut user: Option<String> = None;
    let mut namespaces: HashSet<String> = HashSet::new();
    let mut ping =
        tokio::time::interval_at(tokio::time::Instant::now() + PING_INTERVAL, PING_INTERVAL);
    let mut pong_deadline: Option<tokio::time::Instant> = None;
    loop {
        let deadline = pong_deadline
            .unwrap_or_else(|| tokio::time::Instant::now() + Duration::from_secs(3600));
        tokio::select! {
            frame = outgoing.recv() => {
                let Some(frame) = frame else { break };
                if session.text(frame).await.is_err() { break }
            }
            _ = ping.tick() => {
                if session.text("2").await.is_err() { break }
                pong_deadline.get_or_insert(tokio::time::Instant::now() + PING_TIMEOUT);
            }
            () = tokio::time::sleep_until(deadline) => {
                tracing::debug!(sid = %engine_sid, "no pong: closing");
                break;
            }
            message = messages.next() => {
                let text = match message {
                    Some(Ok(Message::Text(text))) => text,
                    Some(Ok(Message::Ping(bytes))) => { if session.pong(&bytes).await.is_err() { break } continue }
                    Some(Ok(Message::Close(_))) | None | Some(Err(_)) => break,
                    Some(Ok(_)) => continue,
                };
                match text.chars().next() {
                    Some('3') => pong_deadline = None,
                    Some('1') => break,
                    Some('4') => {
                        let reply = handle_packet(&text[1..], &engine_sid, &verifier, &hub, &sender, &mut user, &mut namespaces).await;
                        for frame in reply {
                            if session.text(frame).await.is_err() { break }
                        }
                    }
                    _ => {}
                }
            }
        }
    }
    if let Some(user) = &user {
        hub.unregister(user, &engine_sid);
    }
    let _ = session.close(None).await;
}

/// Handles one Socket.IO packet; returns the frames to send back.
async fn handle_packet(
    text: &str,
    sid: &str,
    verifier: &SharedVerifier,
    hub: &RealtimeHub,
    sender: &mpsc::Sender<String>,
    user: &mut Option<String>,
    namespaces: &mut HashSet<String>,
) -> Vec<String> {
    let packet = match packet::parse_client_packet(text) {
        Ok(packet) => packet,
        Err(error) => {
            tracing::debug!(error = %error, "ignoring a malformed packet");
            return Vec::new();
        }
    };
    match packet {
        ClientPacket::Connect { namespace, auth } => match authenticate(verifier, &auth).await {
            Ok(verified) => {
                if user.as_deref().is_some_and(|current| current != verified) {
                    return vec![packet::connect_error(
                        &namespace,
                        "This connection belongs to another user",
                    )];
                }
                if user.is_none() {
                    hub.register(&verified, sid, sender.clone());
                    *user = Some(verified);
                }
                namespaces.insert(namespace.clone());
                vec![packet::connect_ok(
                    &namespace,
                    &format!("{sid}{}", namespace.len()),
                )]
            }
            Err(message) => vec![packet::connect_error(&namespace, message)],
        },
        ClientPacket::Disconnect { namespace } => {
            namespaces.remove(&namespace);
            Vec::new()
        }
        ClientPacket::Event {
            namespace,
            ack_id,
            name,
            args,
        } => {
            if !namespaces.contains(&namespace) {
                return Vec::new();
            }
            let mut frames = Vec::new();
            if name == "testMessage" {
                let data = args.first().cloned().unwrap_or(Value::Null);
                frames.push(packet::event(&namespace, "testMessage", &data));
            }
            if let Some(ack_id) = ack_id {
                frames.push(packet::ack(
                    &namespace,
                    ack_id,
                    &[json!({ "received": true, "event": name })],
                ));
            }
            frames
        }
        ClientPacket::Ack => Vec::new(),
    }
}

/// Verifies `{userId, token}`: the token must be valid and belong to `userId`.
async fn authenticate(verifier: &SharedVerifier, auth: &Value) -> Result<String, &'static str> {
    let token = auth
        .get("token")
        .and_then(Value::as_str)
        .filter(|token| !token.is_empty())
        .ok_or("Authentication required")?;
    let claimed = auth
        .get("userId")
        .and_then(Value::as_str)
        .ok_or("Authentication required")?;
    let verified = verifier
        .verify(token)
        .await
        .map_err(|_| "Invalid or expired token")?;
    if verified.as_str() != claimed {
        return Err("The token does not belong to this user");
    }
    Ok(verified.as_str().to_owned())
}
