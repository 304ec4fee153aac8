//! Engine.IO v4 and Socket.IO v5 text packets.
//!
//! Engine.IO: `0` open, `1` close, `2` ping, `3` pong, `4` message, `6` noop. A `4` carries a
//! Socket.IO packet: `0` CONNECT, `1` DISCONNECT, `2` EVENT, `3` ACK, `4` CONNECT_ERROR, each
//! optionally followed by `/namespace,` and (for EVENT/ACK) an ack id, then a JSON payload.

use serde_json::Value;

/// A Socket.IO packet received from a client.
#[derive(Debug, Clone, PartialEq)]
pub enum ClientPacket {
    /// Join a namespace with an auth payload.
    Connect { namespace: String, auth: Value },
    /// Leave a namespace.
    Disconnect { namespace: String },
    /// A named event, maybe asking for an acknowledgement.
    Event {
        namespace: String,
        ack_id: Option<u64>,
        name: String,
        args: Vec<Value>,
    },
    /// An acknowledgement of a server event (we never ask for one; ignored).
    Ack,
}

/// Why a packet could not be read.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[error("malformed Socket.IO packet: {0}")]
pub struct PacketError(pub String);

/// Parses the Socket.IO part of an Engine.IO message (everything after the `4`).
///
/// # Errors
/// [`PacketError`] for anything that is not a well-formed text packet.
pub fn parse_client_packet(text: &str) -> Result<ClientPacket, PacketError> {
    let mut chars = text.chars();
    let kind = chars.next().ok_or_else(|| PacketError("empty".into()))?;
    let rest = chars.as_str();
    let (namespace, rest) = if rest.starts_with('/') {
        match rest.split_once(',') {
            Some((namespace, rest)) => (namespace.to_owned(), rest),
            None => (rest.to_owned(), ""),
        }
    } else {
        ("/".to_owned(), rest)
    };
    match kind {
        '0' => {
            let auth = if rest.is_empty() {
                Value::Null
            } else {
                serde_json::from_str(rest).map_err(|e| PacketError(e.to_string()))?
            };
            Ok(ClientPacket::Connect { namespace, auth })
        }
        '1' => Ok(ClientPacket::Disconnect { namespace }),
        '2' => {
            let digits = rest.chars().take_while(char::is_ascii_digit).count();
            let ack_id = if digits > 0 {
                Some(
                    rest[..digits]
                        .parse()
                        .map_err(|_| PacketError("ack id".into()))?,
                )
            } else {
                None
            };
            let payload: Value =
                serde_json::from_str(&rest[digits..]).map_err(|e| PacketError(e.to_string()))?;
            let Value::Array(mut items) = payload else {
                return Err(PacketError("event payload is not an array".into()));
            };
            if items.is_empty() {
                return Err(PacketError("event without a name".into()));
            }
            let Value::String(name) = items.remove(0) else {
                return Err(PacketError("event name is not a string".into()));
            };
            Ok(ClientPacket::Event {
                namespace,
                ack_id,
                name,
                args: items,
            })
        }
        '3' => Ok(ClientPacket::Ack),
        other => Err(PacketError(format!("unsupported packet type {other}"))),
    }
}

fn namespace_prefix(namespace: &str) -> String {
    if namespace == "/" {
        String::new()
    } else {
        format!("{namespace},")
    }
}

/// Engine.IO message frame `40[/nsp,]{"sid":…}`
#[must_use]
pub fn connect_ok(namespace: &str, sid: &str) -> String {
    format!(
        "40{}{}",
        namespace_prefix(namespace),
        serde_json::json!({ "sid": sid })
    )
}

/// `44[/nsp,]{"message":…}`
#[must_use]
pub fn connect_error(namespace: &str, message: &str) -> String {
    format!(
        "44{}{}",
        namespace_prefix(namespace),
        serde_json::json!({ "message": message })
    )
}

/// `42[/nsp,]["name", data]`
#[must_use]
pub fn event(namespace: &str, name: &str, data: &Value) -> String {
    format!(
        "42{}{}",
        namespace_prefix(namespace),
        Value::Array(vec![Value::String(name.to_owned()), data.clone()])
    )
}

/// `43[/nsp,]<id>[args…]`
#[must_use]
/// The arguments are already JSON (an array), so answers whose key order is part of the
/// wire keep it: a JSON map's order depends on serde_json's features.
pub fn ack_serialized(namespace: &str, ack_id: u64, args: &str) -> String {
    format!("43{}{ack_id}{args}", namespace_prefix(namespace))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_what_socket_io_client_sends() {
        assert_eq!(
            parse_client_packet(r#"0{"userId":"u","token":"t"}"#).unwrap(),
            ClientPacket::Connect {
                namespace: "/".into(),
                auth: serde_json::json!({"userId": "u", "token": "t"})
            }
        );
        assert_eq!(
            parse_client_packet("0/admin,").unwrap(),
            ClientPacket::Connect {
                namespace: "/admin".into(),
                auth: Value::Null
            }
        );
        assert_eq!(
            parse_client_packet(r#"212["testMessage",{"message":"hi"}]"#).unwrap(),
            ClientPacket::Event {
                namespace: "/".into(),
                ack_id: Some(12),
                name: "testMessage".into(),
                args: vec![serde_json::json!({"message": "hi"})]
            }
        );
        assert_eq!(
            parse_client_packet(r#"2/admin,["ping"]"#).unwrap(),
            ClientPacket::Event {
                namespace: "/admin".into(),
                ack_id: None,
                name: "ping".into(),
                args: vec![]
            }
        );
        assert_eq!(
            parse_client_packet("1").unwrap(),
            ClientPacket::Disconnect {
                namespace: "/".into()
            }
        );
        assert!(parse_client_packet("2{}").is_err());
        assert!(parse_client_packet("9").is_err());
    }

    #[test]
    fn writes_what_socket_io_client_reads() {
        assert_eq!(connect_ok("/", "abc"), r#"40{"sid":"abc"}"#);
        assert_eq!(
            connect_error("/admin", "no"),
            r#"44/admin,{"message":"no"}"#
        );
        assert_eq!(
            event(
                "/",
                "libraryUpdate",
                &serde_json::json!({"type": "created"})
            ),
            r#"42["libraryUpdate",{"type":"created"}]"#
        );
        assert_eq!(
            ack_serialized("/", 3, r#"[{"ok":true}]"#),
            r#"433[{"ok":true}]"#
        );
    }
}
