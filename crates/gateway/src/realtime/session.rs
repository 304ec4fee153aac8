//! One Engine.IO session: its heartbeat, its send buffer, and the transport carrying it now
//! (HTTP long-polling, WebSocket, or long-polling upgraded to WebSocket).
//!
//! A session is a task of its own, so its state survives the short HTTP requests of
//! long-polling and a change of transport. Transports only move packets: a POST body or a
//! WebSocket frame reaches the session as [`Command::Packets`], a long-poll GET as
//! [`Command::Poll`] (answered with the buffered packets, or held until there are some), and
//! the session writes to its WebSocket itself once it has one. Socket.IO itself is handled by
//! [`SocketIo`], the same for every transport.

use std::collections::VecDeque;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use tokio::sync::{broadcast, mpsc, oneshot};
use tokio::time::{Instant, MissedTickBehavior};

use super::admission::SessionAccount;
use super::config::RealtimeConfig;
use super::engine::{self, EnginePacket};
use super::hub::RealtimeHub;
use super::registry::EngineSessions;
use super::socket::{SocketIo, TooManyConnects};
use crate::auth::{Caller, Revocations, Revoked, SharedVerifier};

/// Commands queued for one session: enough for a burst of frames, small enough that a client
/// flooding a WebSocket is slowed down by its own socket.
const COMMAND_BUFFER: usize = 64;

/// The transport a request or frame came by.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Via {
    /// An HTTP long-polling request.
    Polling,
    /// A frame of the session's WebSocket.
    WebSocket,
}

/// What transports ask of a session.
pub enum Command {
    /// Packets the client sent: a POST body, or one WebSocket frame. `done` is answered once
    /// they are handled (a POST answers `ok` only then).
    Packets {
        packets: Vec<EnginePacket>,
        via: Via,
        done: Option<oneshot::Sender<Result<(), Refused>>>,
    },
    /// A long-polling GET, answered with a payload of packets.
    Poll(oneshot::Sender<Result<String, Refused>>),
    /// A WebSocket for this session got the client's probe. A polling session accepts it
    /// (`true`) and stops holding polls, so the client can pause long-polling and complete the
    /// upgrade; a session that already has its WebSocket refuses (`false`).
    Probe(oneshot::Sender<bool>),
    /// The probing WebSocket went away before the upgrade: hold polls again.
    ProbeFailed,
    /// The client completed the upgrade: send over this WebSocket from now on. Answered
    /// `false` (and the socket closed) when the session already has one.
    Upgrade {
        socket: actix_ws::Session,
        accepted: oneshot::Sender<bool>,
    },
    /// A transport closed, or a client broke the protocol: end the session.
    Close(Ended),
}

/// A request this session will not serve: long-polling after the upgrade, or a second
/// concurrent poll. HTTP 400.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Refused;

/// Why a session ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ended {
    /// The client sent a close packet.
    ClientClosed,
    /// The session's WebSocket closed.
    TransportClosed,
    /// No pong within `pingTimeout` of a ping (the client is gone or stopped polling).
    PingTimeout,
    /// No authenticated CONNECT within `connectTimeout`.
    ConnectTimeout,
    /// More CONNECT packets than a session may send.
    TooManyConnects,
    /// Two long-polling GETs at once, which the protocol forbids.
    OverlappingPoll,
    /// Two long-polling POSTs at once, which the protocol forbids.
    OverlappingPost,
    /// A packet or payload that is not Engine.IO.
    BadPayload,
    /// A POST body over `maxPayload`.
    PayloadTooLarge,
    /// The client sent more than it read, past the reply buffer.
    BufferOverflow,
    /// Nothing can reach the session any more.
    Abandoned,
    /// The token it connected with expired (the client reconnects with its renewed one).
    TokenExpired,
    /// Its session was ended or its account disabled or deleted.
    Revoked,
}

/// How transports reach a session.
#[derive(Clone)]
pub struct SessionHandle {
    commands: mpsc::Sender<Command>,
    posting: Arc<AtomicBool>,
}

/// The session has ended; its sid is unknown from now on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SessionGone;

impl SessionHandle {
    /// Queues `command`, waiting while the session is busy.
    ///
    /// # Errors
    /// [`SessionGone`] when the session has ended.
    pub async fn send(&self, command: Command) -> Result<(), SessionGone> {
        self.commands.send(command).await.map_err(|_| SessionGone)
    }

    /// Marks a POST as under way, or `None` when one already is. The mark goes with the guard.
    #[must_use]
    pub fn begin_post(&self) -> Option<PostGuard> {
        self.posting
            .compare_exchange(false, true, Ordering::AcqRel, Ordering::Acquire)
            .ok()
            .map(|_| PostGuard(self.posting.clone()))
    }
}

/// A POST under way; dropping it allows the next.
pub struct PostGuard(Arc<AtomicBool>);

impl Drop for PostGuard {
    fn drop(&mut self) {
        self.0.store(false, Ordering::Release);
    }
}

/// What every session needs from the gateway.
#[derive(Clone)]
pub struct SessionDeps {
    pub hub: RealtimeHub,
    pub verifier: SharedVerifier,
    pub revocations: Revocations,
    pub config: Arc<RealtimeConfig>,
}

/// Starts a long-polling session admitted with `account`, registered in `sessions` under its
/// new sid. Its first poll is answered with the open packet, which offers the upgrade to
/// WebSocket.
#[must_use]
pub fn start_polling(
    deps: &SessionDeps,
    sessions: &EngineSessions,
    account: SessionAccount,
) -> SessionHandle {
    let sid = new_sid();
    let transport = Transport::Polling {
        waiting: None,
        probing: false,
    };
    let (handle, session) = Session::new(&sid, deps, transport, &["websocket"], account);
    sessions.insert(&sid, handle.clone());
    tokio::spawn(session.run(Some(sessions.clone())));
    handle
}

/// Starts a session admitted with `account` on a WebSocket opened without a sid: the open
/// packet goes out first.
#[must_use]
pub fn start_websocket(
    deps: &SessionDeps,
    socket: actix_ws::Session,
    account: SessionAccount,
) -> SessionHandle {
    let sid = new_sid();
    let (handle, session) = Session::new(&sid, deps, Transport::WebSocket(socket), &[], account);
    tokio::spawn(session.run(None));
    handle
}

/// A session id: 128 random bits, so nobody guesses another client's session.
fn new_sid() -> String {
    uuid::Uuid::new_v4().simple().to_string()
}

enum Transport {
    Polling {
        /// The GET waiting for packets, if any.
        waiting: Option<oneshot::Sender<Result<String, Refused>>>,
        /// A WebSocket is probing: answer polls at once, with a noop if nothing is buffered.
        probing: bool,
    },
    WebSocket(actix_ws::Session),
}

struct Session {
    sid: String,
    config: Arc<RealtimeConfig>,
    socket: SocketIo,
    /// The user's events, from the hub.
    events: mpsc::Receiver<String>,
    commands: mpsc::Receiver<Command>,
    /// Encoded packets not yet sent.
    buffer: VecDeque<String>,
    transport: Transport,
    pong_deadline: Option<Instant>,
    revocations: broadcast::Receiver<Revoked>,
    /// Its place among unconnected sessions (given back on CONNECT) and the gauges; dropped
    /// with the session, whatever ends it.
    account: SessionAccount,
}

/// How often a connected session re-checks its token, for revocations announced on other
/// replicas (this replica's arrive at once).
const RECHECK_INTERVAL: Duration = Duration::from_secs(30);

impl Session {
    fn new(
        sid: &str,
        deps: &SessionDeps,
        transport: Transport,
        upgrades: &[&str],
        account: SessionAccount,
    ) -> (SessionHandle, Self) {
        let (commands_tx, commands) = mpsc::channel(COMMAND_BUFFER);
        let (events_tx, events) = mpsc::channel(deps.config.max_buffered_events.max(1));
        let handle = SessionHandle {
            commands: commands_tx,
            posting: Arc::new(AtomicBool::new(false)),
        };
        let session = Self {
            sid: sid.to_owned(),
            config: deps.config.clone(),
            socket: SocketIo::new(
                sid,
                deps.verifier.clone(),
                deps.hub.clone(),
                events_tx,
                deps.config.max_connects_per_session,
            ),
            events,
            commands,
            buffer: VecDeque::from([deps.config.open_packet(sid, upgrades)]),
            transport,
            pong_deadline: None,
            revocations: deps.revocations.subscribe(),
            account,
        };
        (handle, session)
    }

    async fn run(mut self, sessions: Option<EngineSessions>) {
        let ended = self.serve().await;
        tracing::debug!(sid = %self.sid, reason = ?ended, "Engine.IO session ended");
        // Forget the sid first, so requests from now on are told it is unknown.
        if let Some(sessions) = sessions {
            sessions.remove(&self.sid);
        }
        match self.transport {
            Transport::Polling { waiting, .. } => {
                if let Some(waiting) = waiting {
                    let last = if ended == Ended::ClientClosed {
                        engine::NOOP
                    } else {
                        engine::CLOSE
                    };
                    let _ = waiting.send(Ok(last.to_owned()));
                }
            }
            Transport::WebSocket(socket) => {
                let _ = socket.close(None).await;
            }
        }
        // Dropping `self.socket` takes the session out of the hub.
    }

    async fn serve(&mut self) -> Ended {
        let started = Instant::now();
        let connect_deadline = started + self.config.connect_timeout;
        let mut ping = tokio::time::interval_at(
            started + self.config.ping_interval,
            self.config.ping_interval,
        );
        ping.set_missed_tick_behavior(MissedTickBehavior::Delay);
        let mut recheck = tokio::time::interval_at(started + RECHECK_INTERVAL, RECHECK_INTERVAL);
        recheck.set_missed_tick_behavior(MissedTickBehavior::Delay);
        if let Err(ended) = self.flush().await {
            return ended;
        }
        loop {
            // Until a ping is sent there is no pong to wait for; an hour stands for never.
            let pong_deadline = self
                .pong_deadline
                .unwrap_or_else(|| Instant::now() + Duration::from_secs(3600));
            let has_room = self.buffer.len() < self.config.max_buffered_events;
            let authenticated = self.socket.is_authenticated();
            // The transport closes when the token expires: the client reconnects with its
            // renewed token (socket.io-client does on a closed transport).
            let token_deadline = self.socket.caller().map_or_else(
                || Instant::now() + Duration::from_secs(3600),
                token_deadline,
            );
            tokio::select! {
                command = self.commands.recv() => {
                    let Some(command) = command else { return Ended::Abandoned };
                    if let Some(ended) = self.on_command(command).await {
                        return ended;
                    }
                }
                Some(frame) = self.events.recv(), if has_room => self.buffer.push_back(frame),
                _ = ping.tick() => {
                    self.buffer.push_back(engine::PING.to_owned());
                    self.pong_deadline
                        .get_or_insert_with(|| Instant::now() + self.config.ping_timeout);
                }
                () = tokio::time::sleep_until(pong_deadline) => return Ended::PingTimeout,
                () = tokio::time::sleep_until(connect_deadline), if !authenticated => {
                    return Ended::ConnectTimeout;
                }
                () = tokio::time::sleep_until(token_deadline), if authenticated => {
                    return Ended::TokenExpired;
                }
                revoked = self.revocations.recv(), if authenticated => {
                    let concerned = match &revoked {
                        Ok(revoked) => self.socket.caller().is_some_and(|caller| revoked.concerns(caller)),
                        // Missed some: check.
                        Err(broadcast::error::RecvError::Lagged(_)) => true,
                        Err(broadcast::error::RecvError::Closed) => false,
                    };
                    if concerned && !self.socket.token_still_valid().await {
                        return Ended::Revoked;
                    }
                }
                _ = recheck.tick(), if authenticated => {
                    if !self.socket.token_still_valid().await {
                        return Ended::Revoked;
                    }
                }
            }
            if self.socket.is_authenticated() {
                // Connected: no longer counted against the caps on unconnected sessions.
                self.account.connected();
            }
            if self.buffer.len()
                > self.config.max_buffered_events + self.config.max_buffered_replies
            {
                return Ended::BufferOverflow;
            }
            if let Err(ended) = self.flush().await {
                return ended;
            }
        }
    }

    async fn on_command(&mut self, command: Command) -> Option<Ended> {
        match command {
            Command::Packets { packets, via, done } => {
                if via != self.via() {
                    // Long-polling after the upgrade: refused, the session goes on.
                    answer(done, Err(Refused));
                    return None;
                }
                for packet in packets {
                    if let Some(ended) = self.on_packet(packet).await {
                        answer(done, Ok(()));
                        return Some(ended);
                    }
                }
                answer(done, Ok(()));
                None
            }
            Command::Poll(reply) => self.on_poll(reply),
            Command::Probe(accepted) => {
                let polling = if let Transport::Polling { probing, .. } = &mut self.transport {
                    *probing = true;
                    true
                } else {
                    false
                };
                let _ = accepted.send(polling);
                None
            }
            Command::ProbeFailed => {
                if let Transport::Polling { probing, .. } = &mut self.transport {
                    *probing = false;
                }
                None
            }
            Command::Upgrade { socket, accepted } => {
                match &mut self.transport {
                    Transport::Polling { waiting, .. } => {
                        // The client paused polling before upgrading; a poll still held is
                        // ended cleanly, and the buffer goes out over the WebSocket.
                        if let Some(waiting) = waiting.take() {
                            let _ = waiting.send(Ok(engine::NOOP.to_owned()));
                        }
                        self.transport = Transport::WebSocket(socket);
                        let _ = accepted.send(true);
                    }
                    Transport::WebSocket(_) => {
                        // One WebSocket per session.
                        let _ = accepted.send(false);
                        let _ = socket.close(None).await;
                    }
                }
                None
            }
            Command::Close(ended) => Some(ended),
        }
    }

    fn on_poll(&mut self, reply: oneshot::Sender<Result<String, Refused>>) -> Option<Ended> {
        let Transport::Polling { waiting, .. } = &mut self.transport else {
            let _ = reply.send(Err(Refused));
            return None;
        };
        // A poll whose client went away is replaced; a live one makes this one an overlap.
        if let Some(previous) = waiting.take_if(|previous| !previous.is_closed()) {
            let _ = previous.send(Ok(engine::CLOSE.to_owned()));
            let _ = reply.send(Err(Refused));
            return Some(Ended::OverlappingPoll);
        }
        *waiting = Some(reply);
        None
    }

    async fn on_packet(&mut self, packet: EnginePacket) -> Option<Ended> {
        match packet {
            EnginePacket::Pong => self.pong_deadline = None,
            EnginePacket::Ping(data) => self.buffer.push_back(engine::pong(&data)),
            EnginePacket::Message(text) => match self.socket.on_message(&text).await {
                Ok(replies) => self.buffer.extend(replies),
                Err(TooManyConnects) => return Some(Ended::TooManyConnects),
            },
            EnginePacket::Close => return Some(Ended::ClientClosed),
            EnginePacket::Open | EnginePacket::Upgrade | EnginePacket::Noop => {}
        }
        None
    }

    fn via(&self) -> Via {
        match self.transport {
            Transport::Polling { .. } => Via::Polling,
            Transport::WebSocket(_) => Via::WebSocket,
        }
    }

    /// Sends what is buffered if the transport can take it: all of it over a WebSocket, up to
    /// `maxPayload` to a waiting poll.
    async fn flush(&mut self) -> Result<(), Ended> {
        match &mut self.transport {
            Transport::WebSocket(socket) => {
                while let Some(packet) = self.buffer.pop_front() {
                    socket
                        .text(packet)
                        .await
                        .map_err(|_| Ended::TransportClosed)?;
                }
            }
            Transport::Polling { waiting, probing } => {
                let Some(reply) = waiting.take() else {
                    return Ok(());
                };
                if reply.is_closed() {
                    // The client gave up on this poll; keep the packets for its next one.
                } else if !self.buffer.is_empty() {
                    let packets = take_payload(&mut self.buffer, self.config.max_payload);
                    let _ = reply.send(Ok(engine::encode_payload(&packets)));
                } else if *probing {
                    let _ = reply.send(Ok(engine::NOOP.to_owned()));
                } else {
                    *waiting = Some(reply);
                }
            }
        }
        Ok(())
    }
}

/// When `caller`'s token stops being accepted.
fn token_deadline(caller: &Caller) -> Instant {
    let left = caller.expires_at - chrono::Utc::now().timestamp();
    Instant::now() + Duration::from_secs(u64::try_from(left.max(0)).unwrap_or(0))
}

fn answer<T>(done: Option<oneshot::Sender<T>>, value: T) {
    if let Some(done) = done {
        let _ = done.send(value);
    }
}

/// Takes packets from the front of `buffer` while their payload stays within `max_bytes`
/// (always at least one, so an oversized packet still goes out).
fn take_payload(buffer: &mut VecDeque<String>, max_bytes: usize) -> Vec<String> {
    let mut taken = Vec::new();
    let mut size = 0;
    while let Some(next) = buffer.front() {
        let added = next.len() + usize::from(!taken.is_empty());
        if !taken.is_empty() && size + added > max_bytes {
            break;
        }
        size += added;
        if let Some(packet) = buffer.pop_front() {
            taken.push(packet);
        }
    }
    taken
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_poll_answer_is_cut_at_max_payload_but_never_empty() {
        let mut buffer = VecDeque::from(["4aaaa".to_owned(), "4bbbb".into(), "4cc".into()]);
        // "4aaaa" + separator + "4bbbb" = 11 bytes.
        assert_eq!(take_payload(&mut buffer, 11), ["4aaaa", "4bbbb"]);
        assert_eq!(take_payload(&mut buffer, 1), ["4cc"]);
        assert!(take_payload(&mut buffer, 100).is_empty());
    }

    #[test]
    fn only_one_post_at_a_time() {
        let (commands, _receiver) = mpsc::channel(1);
        let handle = SessionHandle {
            commands,
            posting: Arc::new(AtomicBool::new(false)),
        };
        let first = handle.begin_post();
        assert!(first.is_some());
        assert!(handle.begin_post().is_none());
        drop(first);
        assert!(handle.begin_post().is_some());
    }
}
