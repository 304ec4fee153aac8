//! The timings and limits of Engine.IO sessions, and the handshake that announces them.

use std::time::Duration;

use serde_json::json;

/// Most Socket.IO CONNECT packets one session may send (accepted or not); past it the session
/// ends. A client sends one, and one more now and then with a renewed token: 16 leaves room,
/// while a client can no longer make each CONNECT cost a token verification without end
/// (security review F5).
pub const MAX_CONNECTS_PER_SESSION: usize = 16;
/// Most sessions without an accepted CONNECT one client address may hold; new handshakes
/// beyond it are answered 429. A browser opens one per tab, and a NAT of a few dozen users
/// rarely has 20 between handshake and CONNECT at once (security review F6).
pub const MAX_UNCONNECTED_PER_ADDRESS: usize = 20;
/// Most sessions without an accepted CONNECT this replica holds; new handshakes beyond it are
/// answered 503. Each costs a task, two channels and a timer for up to `connect_timeout`, so
/// 10,000 bound that at a few tens of MB whoever sends them (security review F6).
pub const MAX_UNCONNECTED_SESSIONS: usize = 10_000;

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
    /// closed (Socket.IO's `connectTimeout`), so anonymous sessions cannot pile up. A client
    /// sends its CONNECT right after the open packet, so 10 s is ample (the stock server's 45 s
    /// let one address hold 45 s worth of handshakes).
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
    /// [`MAX_CONNECTS_PER_SESSION`]; tests lower it.
    pub max_connects_per_session: usize,
    /// [`MAX_UNCONNECTED_PER_ADDRESS`]; tests lower it.
    pub max_unconnected_per_address: usize,
    /// [`MAX_UNCONNECTED_SESSIONS`]; tests lower it.
    pub max_unconnected_sessions: usize,
}

impl Default for RealtimeConfig {
    fn default() -> Self {
        Self {
            ping_interval: Duration::from_secs(25),
            ping_timeout: Duration::from_secs(20),
            connect_timeout: Duration::from_secs(10),
            upgrade_timeout: Duration::from_secs(10),
            max_payload: 1_000_000,
            max_buffered_events: 256,
            max_buffered_replies: 256,
            max_connects_per_session: MAX_CONNECTS_PER_SESSION,
            max_unconnected_per_address: MAX_UNCONNECTED_PER_ADDRESS,
            max_unconnected_sessions: MAX_UNCONNECTED_SESSIONS,
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

    /// F6: a session that never connects is gone after 10 s, not the stock 45 s.
    #[test]
    fn unconnected_sessions_are_short_lived_and_capped() {
        let config = RealtimeConfig::default();
        assert_eq!(config.connect_timeout, Duration::from_secs(10));
        assert_eq!(config.max_connects_per_session, 16);
        assert_eq!(config.max_unconnected_per_address, 20);
        assert_eq!(config.max_unconnected_sessions, 10_000);
    }

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
