//! The Socket.IO layer of one Engine.IO session, the same whatever transport carries it:
//! namespace CONNECT with `{userId, token}` verified like a REST token, client events and their
//! acknowledgements, and the hub registration that brings the user's events to the session.

use std::collections::HashSet;

use serde_json::Value;

use super::hub::{RealtimeHub, SocketSender};

/// The acknowledgement of a client's event: `{"event":…,"received":true}`, in this order
/// (a struct keeps its fields' order; a JSON map's order depends on serde_json's features,
/// which another crate of the build can turn on).
#[derive(serde::Serialize)]
struct Received<'a> {
    event: &'a str,
    received: bool,
}
use super::packet::{self, ClientPacket};
use crate::auth::{Caller, SharedVerifier};

/// The only namespace the app serves. Any other is refused, so a client cannot make the
/// session hold an unbounded set of (up to megabyte-long) names.
const MAIN_NAMESPACE: &str = "/";

/// A session sent more CONNECT packets than it may; it ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TooManyConnects;

/// One session's Socket.IO state. Dropping it removes the session from the hub, so no
/// transport can forget to.
pub struct SocketIo {
    sid: String,
    verifier: SharedVerifier,
    hub: RealtimeHub,
    /// Where the hub delivers this session's events.
    events: SocketSender,
    user: Option<String>,
    /// The verified caller and the token that proved it, re-checked when sessions end.
    caller: Option<(Caller, String)>,
    namespaces: HashSet<String>,
    /// CONNECT packets received, accepted or not.
    connects: usize,
    /// Most CONNECT packets the session may send.
    max_connects: usize,
}

impl SocketIo {
    /// A session `sid` whose user's events will be delivered to `events` once it connects,
    /// and which may send up to `max_connects` CONNECT packets.
    #[must_use]
    pub fn new(
        sid: &str,
        verifier: SharedVerifier,
        hub: RealtimeHub,
        events: SocketSender,
        max_connects: usize,
    ) -> Self {
        Self {
            sid: sid.to_owned(),
            verifier,
            hub,
            events,
            user: None,
            caller: None,
            namespaces: HashSet::new(),
            connects: 0,
            max_connects,
        }
    }

    /// The verified caller, once a CONNECT was accepted.
    #[must_use]
    pub fn caller(&self) -> Option<&Caller> {
        self.caller.as_ref().map(|(caller, _)| caller)
    }

    /// Whether the token the session connected with is still good (its session not ended, its
    /// account not disabled): asked when a revocation is announced and now and then.
    pub async fn token_still_valid(&self) -> bool {
        match &self.caller {
            None => true,
            Some((caller, token)) => self
                .verifier
                .verify(token)
                .await
                .is_ok_and(|again| again.user == caller.user),
        }
    }

    /// Whether a CONNECT was accepted, i.e. the session belongs to a verified user.
    #[must_use]
    pub fn is_authenticated(&self) -> bool {
        self.user.is_some()
    }

    /// Handles one Socket.IO packet (an Engine.IO message's data); returns the encoded
    /// Engine.IO packets to send back. A malformed packet is ignored, as the reference server
    /// ignores what it cannot decode.
    ///
    /// # Errors
    /// [`TooManyConnects`] for a CONNECT past the session's cap (each costs a token
    /// verification, security review F5): the session ends.
    pub async fn on_message(&mut self, text: &str) -> Result<Vec<String>, TooManyConnects> {
        let packet = match packet::parse_client_packet(text) {
            Ok(packet) => packet,
            Err(error) => {
                tracing::debug!(sid = %self.sid, error = %error, "ignoring a malformed packet");
                return Ok(Vec::new());
            }
        };
        Ok(match packet {
            ClientPacket::Connect { namespace, auth } => {
                self.connects += 1;
                if self.connects > self.max_connects {
                    tracing::debug!(sid = %self.sid, "closing a session past its CONNECT cap");
                    return Err(TooManyConnects);
                }
                self.connect(namespace, &auth).await
            }
            ClientPacket::Disconnect { namespace } => {
                self.namespaces.remove(&namespace);
                Vec::new()
            }
            ClientPacket::Event {
                namespace,
                ack_id,
                name,
                args,
            } => {
                if !self.namespaces.contains(&namespace) {
                    return Ok(Vec::new());
                }
                let mut frames = Vec::new();
                if name == "testMessage" {
                    let data = args.first().cloned().unwrap_or(Value::Null);
                    frames.push(packet::event(&namespace, "testMessage", &data));
                }
                if let Some(ack_id) = ack_id {
                    let received = [Received {
                        event: &name,
                        received: true,
                    }];
                    frames.push(packet::ack_serialized(
                        &namespace,
                        ack_id,
                        &serde_json::to_string(&received).unwrap_or_default(),
                    ));
                }
                frames
            }
            ClientPacket::Ack => Vec::new(),
        })
    }

    async fn connect(&mut self, namespace: String, auth: &Value) -> Vec<String> {
        if namespace != MAIN_NAMESPACE {
            let shown: String = namespace.chars().take(64).collect();
            return vec![packet::connect_error(&shown, "Invalid namespace")];
        }
        let (caller, token) = match authenticate(&self.verifier, auth).await {
            Ok(verified) => verified,
            Err(message) => return vec![packet::connect_error(&namespace, message)],
        };
        let verified = caller.user.as_str().to_owned();
        if self
            .user
            .as_deref()
            .is_some_and(|current| current != verified)
        {
            return vec![packet::connect_error(
                &namespace,
                "This connection belongs to another user",
            )];
        }
        if self.user.is_none() {
            self.hub.register(&verified, &self.sid, self.events.clone());
            self.user = Some(verified);
        }
        // A reconnect with a renewed token keeps the session; its expiry moves with it.
        self.caller = Some((caller, token));
        let socket_sid = format!("{}{}", self.sid, namespace.len());
        self.namespaces.insert(namespace.clone());
        vec![packet::connect_ok(&namespace, &socket_sid)]
    }
}

impl Drop for SocketIo {
    fn drop(&mut self) {
        if let Some(user) = &self.user {
            self.hub.unregister(user, &self.sid);
        }
    }
}

/// Verifies `{userId, token}`: the token must be valid and belong to `userId`.
async fn authenticate(
    verifier: &SharedVerifier,
    auth: &Value,
) -> Result<(Caller, String), &'static str> {
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
    if verified.user.as_str() != claimed {
        return Err("The token does not belong to this user");
    }
    Ok((verified, token.to_owned()))
}
