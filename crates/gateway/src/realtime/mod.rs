//! Real-time updates over the Socket.IO v5 / Engine.IO v4 protocol at `/socket.io/`, so the
//! stock `socket.io-client` connects over WebSocket, over HTTP long-polling, or over
//! long-polling upgraded to WebSocket (ADR 0005, ADR 0008).
//!
//! A connection authenticates in its CONNECT packet with `{userId, token}`: the token is
//! verified like a REST token and must belong to `userId`. Every gateway replica subscribes to
//! the bus and delivers each event to the sessions of the event's user on that replica only.
//! A session lives in the memory of the replica that opened it, so a long-polling client's
//! requests must all reach that replica (sticky sessions; see `registry`).
//!
//! - `endpoint`: the query, and which transport takes the request.
//! - `polling`, `websocket`: the transports; they only move packets.
//! - `session`: one Engine.IO session (heartbeat, send buffer, current transport, upgrade).
//! - `socket`: the Socket.IO layer of a session (CONNECT and auth, events, acks).
//! - `engine`, `packet`: the Engine.IO and Socket.IO encodings.
//! - `hub`, `registry`: this replica's sessions, by user and by sid.
//! - `admission`: the caps on sessions that have not connected yet, and the session gauges.

mod admission;
mod config;
mod endpoint;
mod engine;
mod hub;
mod packet;
mod polling;
#[cfg(test)]
mod polling_tests;
mod registry;
mod request_error;
mod session;
mod socket;
mod websocket;

pub use endpoint::{__path_socket_io_endpoint, socket_io_endpoint};

/// The Socket.IO endpoint in the OpenAPI document.
#[derive(utoipa::OpenApi)]
#[openapi(paths(socket_io_endpoint))]
pub(crate) struct Docs;
pub use hub::RealtimeHub;
pub use registry::EngineSessions;

/// What the Socket.IO endpoint needs: the sockets of this replica, their Engine.IO sessions,
/// and how a CONNECT's token is checked. Its own `web::Data`, beside the gateway's context, so
/// the realtime code is tested without the rest of the gateway.
pub struct RealtimeState {
    pub hub: RealtimeHub,
    pub sessions: EngineSessions,
    pub verifier: crate::auth::SharedVerifier,
    pub revocations: crate::auth::Revocations,
    pub proxies: crate::auth::client_address::TrustedProxies,
}
