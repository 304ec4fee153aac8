//! The timings and limits of Engine.IO sessions, and the handshake that announces them.

use std::time::Duration;

use serde_json::json;

/// How sessions behave. The defaults are the stock Socket.IO server's, so clients need no
/// configuration; tests shorten the timings.
#[derive(Debug, Clone)]
pub struct RealtimeConfig {
    /// How often the server pings (Engine.IO `pingInterval`). A pending long-poll is answered
    /// with the ping at the latest after this, so it is also the longest a poll is held.
    pub ping_interval: Duration,
    /// How long the client has to answer a ping (`pingTimeout`); a session whose client
    /// stopped answering (or stopped polling) ends then.
    pub ping_timeout: Duration,
    /// How long a session may stay without an authenticated Socket.IO CONNECT before it is
    /// closed (Socket.IO's `connectTimeout`), so anonymous sessions cannot pile up.
    pub connect_timeout: Duration,
    /// How long a WebSocket may take between opening for a polling session and completing the
    /// `2probe` / `3probe` / `5` upgrade.
    pub upgrade_timeout: Duration,
    /// The largest POST body and WebSocket frame accepted, and the size a poll answer is cut
    /// at (`maxPayload`).
    pub max_payload: usize,
    /// Events queued for a session that is not reading; beyond this the hub drops the user's
    /// events for that session (it can reload state), as it does for a slow WebSocket.
    pub max_buffered_events: usize,
    /// Replies (acks, pongs, CONNECT answers) queued for a client that keeps sending without
    /// reading; beyond this the session is closed instead of growing.
    pub max_buffered_replies: usize,
}

impl Default for RealtimeConfig {
    fn default() -> Self {
        Self {
            ping_interval: Duration::from_secs(25),
            ping_timeout: Duration::from_secs(20),
            connect_timeout: Duration::from_secs(45),
            upgrade_timeout: Duration::from_secs(10),
            max_payload: 1_000_000,
            max_buffered_events: 256,
            max_buffered_replies: 256,
        }
    }
}

impl RealtimeConfig {
    /// The Engine.IO open packet `0{"sid","upgrades","pingInterval","pingTimeout","maxPayload"}`.
    #[must_use]
    pub fn open_packet(&self, sid: &str, upgrades: &[&str]) -> String {
        let handshake = json!({
            "sid": sid,
            "upgrades": upgrades,
            "pingInterval": millis(self.ping_interval),
            "pingTimeout": millis(self.ping_timeout),
            "maxPayload": self.max_payload,
        });
        format!("0{handshake}")
    }
}

fn millis(duration: Duration) -> u64 {
    u64::try_from(duration.as_millis()).unwrap_or(u64::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_open_packet_announces_what_the_client_needs() {
        let open = RealtimeConfig::default().open_packet("abc", &["websocket"]);
        let handshake: serde_json::Value = serde_json::from_str(&open[1..]).unwrap();
        assert!(open.starts_with('0'));
        assert_eq!(
            handshake,
            json!({
                "sid": "abc",
                "upgrades": ["websocket"],
                "pingInterval": 25000,
                "pingTimeout": 20000,
                "maxPayload": 1_000_000,
            })
        );
    }
}
