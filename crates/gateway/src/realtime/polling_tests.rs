//! The long-polling transport driven over HTTP in process, for what real clients never do:
//! malformed and oversized bodies, unknown sids, overlapping polls, silent clients. The real
//! `socket.io-client` and python-socketio drive it end to end in the binary's tests.

use std::rc::Rc;
use std::sync::Arc;
use std::time::Duration;

use actix_web::dev::ServiceResponse;
use actix_web::http::StatusCode;
use actix_web::{App, test, web};
use futures::future::LocalBoxFuture;
use scribevault_core::UserId;
use serde_json::{Value, json};

use super::RealtimeState;
use super::config::RealtimeConfig;
use super::engine::RECORD_SEPARATOR;
use super::hub::RealtimeHub;
use super::registry::EngineSessions;
use super::socket_io_endpoint;
use crate::auth::client_address::TrustedProxies;
use crate::auth::{AuthError, Caller, Revocations, SharedVerifier, TokenVerifier};

/// Accepts `token-of-<user>` as a token of `<user>`.
struct FakeVerifier;

#[async_trait::async_trait]
impl TokenVerifier for FakeVerifier {
    async fn verify(&self, token: &str) -> Result<Caller, AuthError> {
        token
            .strip_prefix("token-of-")
            .map(|user| Caller {
                user: UserId::new(user),
                email: format!("{user}@example.org"),
                is_admin: false,
                session: None,
                api_token: None,
                expires_at: chrono::Utc::now().timestamp() + 3600,
            })
            .ok_or_else(|| AuthError::InvalidToken("not a test token".into()))
    }
}

/// Calls the app under test.
type Call = Box<dyn Fn(test::TestRequest) -> LocalBoxFuture<'static, ServiceResponse>>;

struct Gateway {
    call: Call,
    hub: RealtimeHub,
    sessions: EngineSessions,
}

async fn gateway(config: RealtimeConfig) -> Gateway {
    let hub = RealtimeHub::default();
    let sessions = EngineSessions::with_config(config);
    let verifier: SharedVerifier = Arc::new(FakeVerifier);
    // The reverse proxy of these tests: requests from 10.0.0.0/8 name their client.
    let proxies = TrustedProxies(vec![
        scribevault_core::net::Cidr::parse("10.0.0.0/8").unwrap(),
    ]);
    let app = Rc::new(
        test::init_service(
            App::new()
                .app_data(web::Data::new(RealtimeState {
                    hub: hub.clone(),
                    sessions: sessions.clone(),
                    verifier,
                    revocations: Revocations::default(),
                    proxies,
                }))
                .route("/socket.io/", web::route().to(socket_io_endpoint)),
        )
        .await,
    );
    let call: Call = Box::new(move |request| {
        let app = app.clone();
        Box::pin(async move { test::call_service(&*app, request.to_request()).await })
    });
    Gateway {
        call,
        hub,
        sessions,
    }
}

impl Gateway {
    async fn get(&self, query: &str) -> (StatusCode, String) {
        let request = test::TestRequest::get().uri(&format!("/socket.io/?{query}"));
        read((self.call)(request).await).await
    }

    async fn post(&self, query: &str, body: impl Into<String>) -> (StatusCode, String) {
        let request = test::TestRequest::post()
            .uri(&format!("/socket.io/?{query}"))
            .set_payload(body.into());
        read((self.call)(request).await).await
    }

    /// A handshake from the client at `peer` (`ip` or `ip>forwarded-client` through a proxy).
    async fn handshake_from(&self, peer: &str) -> (StatusCode, String) {
        self.handshake_over("polling", peer).await
    }

    async fn handshake_over(&self, transport: &str, peer: &str) -> (StatusCode, String) {
        let (socket, forwarded) = match peer.split_once('>') {
            Some((proxy, client)) => (proxy, Some(client)),
            None => (peer, None),
        };
        let mut request = test::TestRequest::get()
            .uri(&format!("/socket.io/?EIO=4&transport={transport}"))
            .peer_addr(format!("{socket}:40000").parse().unwrap());
        if let Some(client) = forwarded {
            request = request.insert_header(("x-forwarded-for", client));
        }
        read((self.call)(request).await).await
    }

    /// Opens a session from `peer`; returns its sid.
    async fn open_from(&self, peer: &str) -> String {
        let (status, body) = self.handshake_from(peer).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        let open: Value = serde_json::from_str(&body[1..]).unwrap();
        open["sid"].as_str().unwrap().to_owned()
    }

    /// Joins `/` as `user` on the open session `sid`.
    async fn join(&self, sid: &str, user: &str) {
        let connect = json!({ "userId": user, "token": format!("token-of-{user}") });
        assert_eq!(
            self.send(sid, format!("40{connect}")).await,
            (StatusCode::OK, "ok".to_owned())
        );
        let (status, body) = self.poll(sid).await;
        assert_eq!(status, StatusCode::OK);
        assert!(body.starts_with("40{\"sid\""), "{body}");
    }

    /// Waits (up to a second) until a handshake from `peer` is accepted; its sid.
    async fn open_when_free(&self, peer: &str) -> String {
        for _ in 0..100 {
            let (status, body) = self.handshake_from(peer).await;
            if status == StatusCode::OK {
                let open: Value = serde_json::from_str(&body[1..]).unwrap();
                return open["sid"].as_str().unwrap().to_owned();
            }
            assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{body}");
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        panic!("no place came free for {peer}");
    }

    /// (live sessions, authenticated sessions) as the gauges say.
    fn gauges(&self) -> (i64, i64) {
        let gauges = self.sessions.gauges();
        (gauges.sessions.get(), gauges.authenticated.get())
    }

    /// Opens a session; returns its sid.
    async fn handshake(&self) -> String {
        let (status, body) = self.get("EIO=4&transport=polling").await;
        assert_eq!(status, StatusCode::OK, "{body}");
        let open: Value = serde_json::from_str(&body[1..]).unwrap();
        open["sid"].as_str().unwrap().to_owned()
    }

    async fn poll(&self, sid: &str) -> (StatusCode, String) {
        self.get(&format!("EIO=4&transport=polling&sid={sid}"))
            .await
    }

    async fn send(&self, sid: &str, body: impl Into<String>) -> (StatusCode, String) {
        self.post(&format!("EIO=4&transport=polling&sid={sid}"), body)
            .await
    }

    /// Polls until `count` packets have come.
    async fn poll_packets(&self, sid: &str, count: usize) -> Vec<String> {
        let mut packets = Vec::new();
        while packets.len() < count {
            let (status, body) = self.poll(sid).await;
            assert_eq!(status, StatusCode::OK, "{body}");
            packets.extend(body.split(RECORD_SEPARATOR).map(str::to_owned));
        }
        packets
    }

    /// Opens a session and joins `/` as `user`; returns the sid.
    async fn connect_as(&self, user: &str) -> String {
        let sid = self.handshake().await;
        let connect = json!({ "userId": user, "token": format!("token-of-{user}") });
        assert_eq!(
            self.send(&sid, format!("40{connect}")).await,
            (StatusCode::OK, "ok".to_owned())
        );
        let (status, body) = self.poll(&sid).await;
        assert_eq!(status, StatusCode::OK);
        assert!(body.starts_with("40{\"sid\""), "{body}");
        sid
    }
}

async fn read(response: ServiceResponse) -> (StatusCode, String) {
    let status = response.status();
    let body = test::read_body(response).await;
    (status, String::from_utf8(body.to_vec()).unwrap())
}

fn engine_error(code: u8, message: &str) -> String {
    json!({ "code": code, "message": message }).to_string()
}

fn fast() -> RealtimeConfig {
    RealtimeConfig {
        ping_interval: Duration::from_millis(100),
        ping_timeout: Duration::from_millis(100),
        ..RealtimeConfig::default()
    }
}

#[actix_web::test]
async fn the_handshake_offers_the_websocket_upgrade() {
    let gateway = gateway(RealtimeConfig::default()).await;
    let (status, body) = gateway.get("EIO=4&transport=polling&t=abc").await;
    assert_eq!(status, StatusCode::OK);
    let open: Value = serde_json::from_str(body.strip_prefix('0').unwrap()).unwrap();
    assert_eq!(open["upgrades"], json!(["websocket"]));
    assert_eq!(open["pingInterval"], 25_000);
    assert_eq!(open["pingTimeout"], 20_000);
    assert_eq!(open["maxPayload"], 1_000_000);
    let sid = open["sid"].as_str().unwrap();
    assert!(gateway.sessions.get(sid).is_some());
}

#[actix_web::test]
async fn a_connected_session_receives_its_users_events_and_acks() {
    let gateway = gateway(RealtimeConfig::default()).await;
    let sid = gateway.connect_as("alice").await;
    let other = gateway.connect_as("bob").await;

    // Events and replies to a client event come back, each stream in order.
    gateway
        .hub
        .emit_to_user("alice", "libraryUpdate", &json!({ "type": "created" }));
    gateway
        .hub
        .emit_to_user("alice", "notification", &json!({ "title": "hi" }));
    assert_eq!(
        gateway
            .send(&sid, r#"421["testMessage",{"message":"hello"}]"#)
            .await
            .0,
        StatusCode::OK
    );
    let packets = gateway.poll_packets(&sid, 4).await;
    let position = |packet: &str| {
        packets
            .iter()
            .position(|received| received == packet)
            .unwrap_or_else(|| panic!("{packet} not in {packets:?}"))
    };
    assert!(
        position(r#"42["testMessage",{"message":"hello"}]"#)
            < position(r#"431[{"event":"testMessage","received":true}]"#)
    );
    assert!(
        position(r#"42["libraryUpdate",{"type":"created"}]"#)
            < position(r#"42["notification",{"title":"hi"}]"#)
    );

    // A held poll is answered as soon as an event arrives; bob's session gets nothing of it.
    let held = gateway.poll(&sid);
    let emit = async {
        tokio::time::sleep(Duration::from_millis(50)).await;
        gateway
            .hub
            .emit_to_user("alice", "statsUpdate", &json!({ "total": 1 }));
    };
    let ((status, body), ()) = tokio::join!(held, emit);
    assert_eq!(status, StatusCode::OK);
    assert_eq!(body, r#"42["statsUpdate",{"total":1}]"#);
    gateway
        .hub
        .emit_to_user("bob", "statsUpdate", &json!({ "total": 2 }));
    assert_eq!(
        gateway.poll(&other).await.1,
        r#"42["statsUpdate",{"total":2}]"#
    );
}

#[actix_web::test]
async fn another_users_token_is_refused_with_connect_error() {
    let gateway = gateway(RealtimeConfig::default()).await;
    let sid = gateway.handshake().await;
    let connect = json!({ "userId": "alice", "token": "token-of-mallory" });
    assert_eq!(
        gateway.send(&sid, format!("40{connect}")).await.0,
        StatusCode::OK
    );
    assert_eq!(
        gateway.poll(&sid).await.1,
        r#"44{"message":"The token does not belong to this user"}"#
    );
    // Nothing of alice's reaches the refused session.
    gateway
        .hub
        .emit_to_user("alice", "notification", &json!({ "title": "secret" }));
    assert_eq!(gateway.hub.connected_sockets(), 0);

    let garbage = json!({ "userId": "alice", "token": "garbage" });
    assert_eq!(
        gateway.send(&sid, format!("40{garbage}")).await.0,
        StatusCode::OK
    );
    assert_eq!(
        gateway.poll(&sid).await.1,
        r#"44{"message":"Invalid or expired token"}"#
    );
}

#[actix_web::test]
async fn unknown_sessions_and_bad_queries_get_engine_io_errors() {
    let gateway = gateway(RealtimeConfig::default()).await;
    let unknown = engine_error(1, "Session ID unknown");
    assert_eq!(
        gateway.poll("nope").await,
        (StatusCode::BAD_REQUEST, unknown.clone())
    );
    assert_eq!(
        gateway.send("nope", "40").await,
        (StatusCode::BAD_REQUEST, unknown.clone())
    );
    assert_eq!(
        gateway.get("EIO=4&transport=websocket&sid=nope").await,
        (StatusCode::BAD_REQUEST, unknown)
    );
    assert_eq!(
        gateway.get("EIO=3&transport=polling").await,
        (
            StatusCode::BAD_REQUEST,
            engine_error(5, "Unsupported protocol version")
        )
    );
    assert_eq!(
        gateway.get("transport=polling").await.0,
        StatusCode::BAD_REQUEST
    );
    assert_eq!(
        gateway.get("EIO=4&transport=carrier-pigeon").await,
        (
            StatusCode::BAD_REQUEST,
            engine_error(0, "Transport unknown")
        )
    );
    assert_eq!(
        gateway.post("EIO=4&transport=polling", "40").await,
        (
            StatusCode::BAD_REQUEST,
            engine_error(2, "Bad handshake method")
        )
    );
}

#[actix_web::test]
async fn a_malformed_body_is_refused_and_ends_the_session() {
    let gateway = gateway(RealtimeConfig::default()).await;
    for body in ["abc", "", "4a\u{1e}\u{1e}", "bAQIDBA==", "\u{1e}"] {
        let sid = gateway.handshake().await;
        assert_eq!(
            gateway.send(&sid, body).await,
            (StatusCode::BAD_REQUEST, engine_error(3, "Bad request")),
            "{body:?}"
        );
        assert_eq!(gateway.poll(&sid).await.0, StatusCode::BAD_REQUEST);
        assert!(gateway.sessions.get(&sid).is_none());
    }
    // Not UTF-8.
    let sid = gateway.handshake().await;
    let request = test::TestRequest::post()
        .uri(&format!("/socket.io/?EIO=4&transport=polling&sid={sid}"))
        .set_payload(vec![0x34, 0xff, 0xfe]);
    let (status, _) = read((gateway.call)(request).await).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);

    // A malformed Socket.IO packet inside a good Engine.IO body is ignored, as over WebSocket.
    let sid = gateway.connect_as("alice").await;
    assert_eq!(
        gateway.send(&sid, "42{not json").await,
        (StatusCode::OK, "ok".to_owned())
    );
    assert_eq!(
        gateway.send(&sid, r#"421["testMessage"]"#).await.0,
        StatusCode::OK
    );
    assert!(gateway.poll(&sid).await.1.contains("431["));
}

#[actix_web::test]
async fn an_oversized_body_gets_413_and_ends_the_session() {
    let config = RealtimeConfig {
        max_payload: 64,
        ..RealtimeConfig::default()
    };
    let gateway = gateway(config).await;
    let sid = gateway.handshake().await;
    let (status, body) = gateway.send(&sid, format!("4{}", "x".repeat(100))).await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE);
    assert_eq!(body, engine_error(3, "Payload too large"));
    assert_eq!(gateway.poll(&sid).await.0, StatusCode::BAD_REQUEST);
    // Exactly the limit is fine.
    let sid = gateway.handshake().await;
    assert_eq!(
        gateway.send(&sid, format!("4{}", "x".repeat(63))).await.0,
        StatusCode::OK
    );
}

#[actix_web::test]
async fn overlapping_polls_end_the_session() {
    let gateway = gateway(RealtimeConfig::default()).await;
    let sid = gateway.handshake().await;
    let first = gateway.poll(&sid);
    let second = async {
        tokio::time::sleep(Duration::from_millis(50)).await;
        gateway.poll(&sid).await
    };
    let (first, second) = tokio::join!(first, second);
    assert_eq!(first, (StatusCode::OK, "1".to_owned()));
    assert_eq!(second.0, StatusCode::BAD_REQUEST);
    assert_eq!(gateway.poll(&sid).await.0, StatusCode::BAD_REQUEST);
}

#[actix_web::test]
async fn the_server_pings_and_a_silent_client_expires() {
    let gateway = gateway(fast()).await;
    let sid = gateway.connect_as("alice").await;
    assert_eq!(gateway.hub.connected_sockets(), 1);
    // A client that answers pings stays.
    for _ in 0..3 {
        assert_eq!(gateway.poll(&sid).await, (StatusCode::OK, "2".to_owned()));
        assert_eq!(gateway.send(&sid, "3").await.0, StatusCode::OK);
    }
    // One that stops answering is gone after pingInterval + pingTimeout, and so are its events.
    tokio::time::sleep(Duration::from_millis(350)).await;
    assert_eq!(gateway.poll(&sid).await.0, StatusCode::BAD_REQUEST);
    assert_eq!(gateway.hub.connected_sockets(), 0);
}

#[actix_web::test]
async fn a_session_that_never_connects_is_closed() {
    let config = RealtimeConfig {
        connect_timeout: Duration::from_millis(100),
        ..RealtimeConfig::default()
    };
    let gateway = gateway(config).await;
    let sid = gateway.handshake().await;
    // The held poll is told the session closed.
    assert_eq!(gateway.poll(&sid).await, (StatusCode::OK, "1".to_owned()));
    assert_eq!(gateway.poll(&sid).await.0, StatusCode::BAD_REQUEST);
}

#[actix_web::test]
async fn the_client_closes_its_session() {
    let gateway = gateway(RealtimeConfig::default()).await;
    let sid = gateway.connect_as("alice").await;
    let held = gateway.poll(&sid);
    let close = async {
        tokio::time::sleep(Duration::from_millis(50)).await;
        gateway.send(&sid, "41\u{1e}1").await
    };
    let (held, closed) = tokio::join!(held, close);
    assert_eq!(closed, (StatusCode::OK, "ok".to_owned()));
    assert_eq!(held, (StatusCode::OK, "6".to_owned()));
    assert_eq!(gateway.poll(&sid).await.0, StatusCode::BAD_REQUEST);
    assert_eq!(gateway.hub.connected_sockets(), 0);
}

#[actix_web::test]
async fn a_client_that_never_reads_is_bounded() {
    let config = RealtimeConfig {
        max_buffered_events: 4,
        max_buffered_replies: 4,
        ..RealtimeConfig::default()
    };
    let gateway = gateway(config).await;
    let sid = gateway.connect_as("alice").await;
    // Events past the buffers are dropped, not queued without end.
    for index in 0..100 {
        gateway
            .hub
            .emit_to_user("alice", "statsUpdate", &json!({ "total": index }));
    }
    tokio::time::sleep(Duration::from_millis(50)).await;
    let (status, body) = gateway.poll(&sid).await;
    assert_eq!(status, StatusCode::OK);
    assert!(body.split(RECORD_SEPARATOR).count() <= 4, "{body}");
    // Acks requested without ever reading close the session instead of growing.
    let acks: Vec<String> = (0..20).map(|id| format!(r#"42{id}["ping"]"#)).collect();
    let _ = gateway.send(&sid, acks.join("\u{1e}")).await;
    tokio::time::sleep(Duration::from_millis(50)).await;
    assert!(gateway.sessions.get(&sid).is_none());
}

fn crowded(limit: usize) -> (StatusCode, String) {
    (
        StatusCode::TOO_MANY_REQUESTS,
        engine_error(
            4,
            &format!("Too many sessions waiting to connect from this address (at most {limit})"),
        ),
    )
}

/// F6: 3,000 anonymous handshakes from one address all opened a session for 45 s.
#[actix_web::test]
async fn handshakes_past_the_per_address_cap_are_refused_and_other_addresses_still_served() {
    let gateway = gateway(RealtimeConfig::default()).await;
    for _ in 0..20 {
        gateway.open_from("203.0.113.7").await;
    }
    assert_eq!(gateway.handshake_from("203.0.113.7").await, crowded(20));
    // A WebSocket handshake is admitted the same way (refused before the upgrade).
    assert_eq!(
        gateway.handshake_over("websocket", "203.0.113.7").await,
        crowded(20)
    );
    gateway.open_from("203.0.113.8").await;
    assert_eq!(gateway.gauges(), (21, 0));

    // Behind the trusted proxy, each client counts on its own, and a client is not the proxy.
    for client in 0..25 {
        gateway
            .open_from(&format!("10.0.0.1>198.51.100.{client}"))
            .await;
    }
    for _ in 0..19 {
        gateway.open_from("10.0.0.1>198.51.100.1").await;
    }
    assert_eq!(
        gateway.handshake_from("10.0.0.1>198.51.100.1").await,
        crowded(20)
    );
    // A forged header from an untrusted peer is ignored: the peer is the client.
    assert_eq!(
        gateway.handshake_from("203.0.113.7>198.51.100.99").await,
        crowded(20)
    );
}

#[actix_web::test]
async fn the_replica_wide_cap_answers_503() {
    let config = RealtimeConfig {
        max_unconnected_sessions: 3,
        ..RealtimeConfig::default()
    };
    let gateway = gateway(config).await;
    for client in 1..=3 {
        gateway.open_from(&format!("203.0.113.{client}")).await;
    }
    assert_eq!(
        gateway.handshake_from("203.0.113.4").await,
        (
            StatusCode::SERVICE_UNAVAILABLE,
            engine_error(
                4,
                "Too many sessions waiting to connect (at most 3); try again shortly"
            )
        )
    );
}

#[actix_web::test]
async fn a_session_that_connects_or_ends_gives_its_place_back() {
    let config = RealtimeConfig {
        max_unconnected_per_address: 2,
        ..RealtimeConfig::default()
    };
    let gateway = gateway(config).await;
    let first = gateway.open_from("203.0.113.7").await;
    let second = gateway.open_from("203.0.113.7").await;
    assert_eq!(gateway.handshake_from("203.0.113.7").await, crowded(2));
    assert_eq!(gateway.gauges(), (2, 0));

    // Connecting frees the place at once; the session lives on, authenticated.
    gateway.join(&first, "alice").await;
    assert_eq!(gateway.gauges(), (2, 1));
    let third = gateway.open_from("203.0.113.7").await;
    assert_eq!(gateway.handshake_from("203.0.113.7").await, crowded(2));

    // Ending frees it too.
    assert_eq!(gateway.send(&second, "1").await.0, StatusCode::OK);
    gateway.open_when_free("203.0.113.7").await;
    assert_eq!(gateway.handshake_from("203.0.113.7").await, crowded(2));
    assert!(gateway.sessions.get(&third).is_some());

    // The connected session ending takes it off both gauges.
    assert_eq!(gateway.send(&first, "1").await.0, StatusCode::OK);
    for _ in 0..100 {
        if gateway.gauges() == (2, 0) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert_eq!(gateway.gauges(), (2, 0));
}

#[actix_web::test]
async fn an_unconnected_session_times_out_and_gives_its_place_back() {
    let config = RealtimeConfig {
        connect_timeout: Duration::from_millis(100),
        max_unconnected_per_address: 1,
        ..RealtimeConfig::default()
    };
    let gateway = gateway(config).await;
    let sid = gateway.open_from("203.0.113.7").await;
    assert_eq!(gateway.handshake_from("203.0.113.7").await, crowded(1));
    // The held poll is told the session closed at the connect timeout.
    assert_eq!(gateway.poll(&sid).await, (StatusCode::OK, "1".to_owned()));
    gateway.open_when_free("203.0.113.7").await;
    assert_eq!(gateway.gauges(), (1, 0));
}

/// F5: CONNECT after CONNECT (each a token verification, each namespace kept) went on without
/// end; past 16 in one session the session ends.
#[actix_web::test]
async fn connect_spam_ends_the_session() {
    let gateway = gateway(RealtimeConfig::default()).await;
    let sid = gateway.connect_as("alice").await;
    let connect = format!(
        "40{}",
        json!({ "userId": "alice", "token": "token-of-alice" })
    );
    // Up to 16 CONNECTs in all, accepted or not, are answered.
    let more: Vec<String> = (0..14)
        .map(|_| connect.clone())
        .chain(std::iter::once("40/admin,".to_owned()))
        .collect();
    assert_eq!(
        gateway.send(&sid, more.join("\u{1e}")).await.0,
        StatusCode::OK
    );
    let answers = gateway.poll_packets(&sid, 15).await;
    assert_eq!(answers.len(), 15, "{answers:?}");
    assert_eq!(gateway.hub.connected_sockets(), 1);
    // The 17th ends the session.
    assert_eq!(gateway.send(&sid, connect.clone()).await.0, StatusCode::OK);
    for _ in 0..100 {
        if gateway.sessions.get(&sid).is_none() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert!(gateway.sessions.get(&sid).is_none());
    assert_eq!(gateway.poll(&sid).await.0, StatusCode::BAD_REQUEST);
    assert_eq!(gateway.hub.connected_sockets(), 0);

    // Refused CONNECTs count too: an anonymous session cannot spin on them either.
    let sid = gateway.handshake().await;
    let spam: Vec<&str> = std::iter::repeat_n("40/x,", 17).collect();
    assert_eq!(
        gateway.send(&sid, spam.join("\u{1e}")).await.0,
        StatusCode::OK
    );
    for _ in 0..100 {
        if gateway.sessions.get(&sid).is_none() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert!(gateway.sessions.get(&sid).is_none());
}
