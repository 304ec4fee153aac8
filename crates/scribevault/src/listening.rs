//! One line on stdout for every listener the process binds.
//!
//! A port of `0` lets the operating system pick a free port at bind time, which is the only way
//! to get one that nothing else can take in between. Whoever started the process (a test
//! harness, a supervisor script) then needs to learn the port it got: this line says it, in a
//! fixed form that is easy to parse and independent of the log format.

use std::net::SocketAddr;

/// Announces that `name` (`http`, or a gRPC service such as `library`) accepts connections on
/// `addr`.
pub fn announce(name: &str, addr: SocketAddr) {
    println!("scribevault listening {name} {addr}");
}
