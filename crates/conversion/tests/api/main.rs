//! Integration tests of the conversion service on its own: the real gRPC server, started in
//! this process on a loopback port.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly on purpose

mod helpers;
mod skeleton;
