//! Engine.IO v4 text packets, and the framing of several packets in one long-polling body.
//!
//! A packet is a type digit and its data: `0` open, `1` close, `2` ping, `3` pong, `4` message
//! (a Socket.IO packet), `5` upgrade, `6` noop. A WebSocket frame carries one packet; a
//! long-polling body carries several, separated by the record separator `\x1e`. The packets
//! this server sends carry JSON, which escapes control characters, so the separator never
//! appears inside one.

/// What separates packets in a long-polling body.
pub const RECORD_SEPARATOR: char = '\x1e';

/// An Engine.IO packet a client sent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EnginePacket {
    /// The handshake (only servers send it).
    Open,
    /// The client is leaving.
    Close,
    /// A ping; `probe` when a WebSocket tests an upgrade.
    Ping(String),
    /// The answer to the server's ping.
    Pong,
    /// A Socket.IO packet.
    Message(String),
    /// The client switches to the probed WebSocket.
    Upgrade,
    /// Nothing.
    Noop,
}

/// Why a client's packet or payload could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EngineError {
    /// A packet without even a type.
    #[error("empty Engine.IO packet")]
    Empty,
    /// A base64 binary packet (`b…`); this server speaks text only.
    #[error("binary Engine.IO packets are not supported")]
    Binary,
    /// A type outside `0`–`6`.
    #[error("unknown Engine.IO packet type {0:?}")]
    UnknownType(char),
}

impl EnginePacket {
    /// Reads one packet (a WebSocket frame, or one record of a polling body).
    ///
    /// # Errors
    /// [`EngineError`] when the text is not an Engine.IO text packet.
    pub fn decode(text: &str) -> Result<Self, EngineError> {
        let mut chars = text.chars();
        let kind = chars.next().ok_or(EngineError::Empty)?;
        let data = chars.as_str();
        match kind {
            '0' => Ok(Self::Open),
            '1' => Ok(Self::Close),
            '2' => Ok(Self::Ping(data.to_owned())),
            '3' => Ok(Self::Pong),
            '4' => Ok(Self::Message(data.to_owned())),
            '5' => Ok(Self::Upgrade),
            '6' => Ok(Self::Noop),
            'b' => Err(EngineError::Binary),
            other => Err(EngineError::UnknownType(other)),
        }
    }
}

/// The server's ping.
pub const PING: &str = "2";
/// The close packet, answering a pending poll of a session the server ended.
pub const CLOSE: &str = "1";
/// The noop packet, answering a pending poll the client no longer needs (upgrade, close).
pub const NOOP: &str = "6";

/// The pong answering a client's ping with `data`.
#[must_use]
pub fn pong(data: &str) -> String {
    format!("3{data}")
}

/// Reads a long-polling body: packets separated by [`RECORD_SEPARATOR`].
///
/// # Errors
/// [`EngineError`] for the first packet that cannot be read; a body with a bad packet is
/// refused whole, so nothing of it is acted on.
pub fn decode_payload(body: &str) -> Result<Vec<EnginePacket>, EngineError> {
    body.split(RECORD_SEPARATOR)
        .map(EnginePacket::decode)
        .collect()
}

/// Writes encoded packets as one long-polling body.
#[must_use]
pub fn encode_payload<S: AsRef<str>>(packets: &[S]) -> String {
    let mut body =
        String::with_capacity(packets.iter().map(|packet| packet.as_ref().len() + 1).sum());
    for (index, packet) in packets.iter().enumerate() {
        if index > 0 {
            body.push(RECORD_SEPARATOR);
        }
        body.push_str(packet.as_ref());
    }
    body
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_every_packet_type() {
        assert_eq!(EnginePacket::decode("0"), Ok(EnginePacket::Open));
        assert_eq!(EnginePacket::decode("1"), Ok(EnginePacket::Close));
        assert_eq!(
            EnginePacket::decode("2probe"),
            Ok(EnginePacket::Ping("probe".into()))
        );
        assert_eq!(EnginePacket::decode("3"), Ok(EnginePacket::Pong));
        assert_eq!(
            EnginePacket::decode(r#"40{"token":"t"}"#),
            Ok(EnginePacket::Message(r#"0{"token":"t"}"#.into()))
        );
        assert_eq!(EnginePacket::decode("5"), Ok(EnginePacket::Upgrade));
        assert_eq!(EnginePacket::decode("6"), Ok(EnginePacket::Noop));
    }

    #[test]
    fn refuses_what_is_not_a_text_packet() {
        assert_eq!(EnginePacket::decode(""), Err(EngineError::Empty));
        assert_eq!(EnginePacket::decode("bAQIDBA=="), Err(EngineError::Binary));
        assert_eq!(
            EnginePacket::decode("7"),
            Err(EngineError::UnknownType('7'))
        );
        assert_eq!(
            EnginePacket::decode("abc"),
            Err(EngineError::UnknownType('a'))
        );
        assert_eq!(
            EnginePacket::decode("é"),
            Err(EngineError::UnknownType('é'))
        );
    }

    #[test]
    fn reads_a_polling_body_split_on_the_record_separator() {
        assert_eq!(
            decode_payload("4hello\x1e3\x1e4€€€"),
            Ok(vec![
                EnginePacket::Message("hello".into()),
                EnginePacket::Pong,
                EnginePacket::Message("€€€".into()),
            ])
        );
        assert_eq!(
            decode_payload(r#"40{"userId":"u","token":"t"}"#),
            Ok(vec![EnginePacket::Message(
                r#"0{"userId":"u","token":"t"}"#.into()
            )])
        );
    }

    #[test]
    fn refuses_a_polling_body_with_any_bad_packet() {
        assert_eq!(decode_payload(""), Err(EngineError::Empty));
        assert_eq!(decode_payload("4a\x1e\x1e4b"), Err(EngineError::Empty));
        assert_eq!(decode_payload("4a\x1e"), Err(EngineError::Empty));
        assert_eq!(
            decode_payload("4hello\x1ebAQIDBA=="),
            Err(EngineError::Binary)
        );
    }

    #[test]
    fn writes_a_polling_body_the_client_splits_back() {
        assert_eq!(encode_payload::<&str>(&[]), "");
        assert_eq!(encode_payload(&["6"]), "6");
        assert_eq!(
            encode_payload(&["4hello", PING, "4world"]),
            "4hello\x1e2\x1e4world"
        );
        // A JSON payload holding the separator escapes it, so it stays one packet.
        let event = crate::realtime::packet::event(
            "/",
            "notification",
            &serde_json::json!({ "text": "a\u{1e}b" }),
        );
        let body = encode_payload(&[event.as_str(), PING]);
        assert_eq!(body.split(RECORD_SEPARATOR).count(), 2);
        assert_eq!(
            decode_payload(&body).unwrap()[0],
            EnginePacket::Message(event[1..].to_owned())
        );
    }

    #[test]
    fn answers_pings_with_their_data() {
        assert_eq!(pong("probe"), "3probe");
        assert_eq!(pong(""), "3");
    }
}
