//! Real-time updates over the Socket.IO v5 / Engine.IO v4 protocol at `/socket.io/`, so the
//! stock `socket.io-client` connects (WebSocket transport; see ADR 0005).
//!
//! A connection authenticates in its CONNECT packet with `{userId, token}`: the token is
//! verified like a REST token and must belong to `userId`. Every gateway replica subscribes to
//! the bus and delivers each event to the sockets of the event's user on that replica only.

mod hub;
mod packet;
mod session;

pub use hub::RealtimeHub;
pub use session::socket_io_endpoint;
