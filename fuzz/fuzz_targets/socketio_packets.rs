//! A long-polling body as a client sends it: Engine.IO packets split by the record separator,
//! each message read as a Socket.IO packet, as the polling and WebSocket transports do.
#![no_main]

use libfuzzer_sys::fuzz_target;
#[allow(dead_code)]
#[path = "../../crates/gateway/src/realtime/engine.rs"]
mod engine;
#[allow(dead_code)]
#[path = "../../crates/gateway/src/realtime/packet.rs"]
mod packet;

use engine::{EnginePacket, RECORD_SEPARATOR, decode_payload};
use packet::{ClientPacket, parse_client_packet};

fuzz_target!(|data: &[u8]| {
    let Ok(body) = std::str::from_utf8(data) else {
        return;
    };
    // A WebSocket frame is one packet.
    let _ = EnginePacket::decode(body);
    let Ok(packets) = decode_payload(body) else {
        return;
    };
    assert_eq!(packets.len(), body.split(RECORD_SEPARATOR).count());
    for packet in packets {
        let EnginePacket::Message(message) = packet else {
            continue;
        };
        match parse_client_packet(&message) {
            Ok(
                ClientPacket::Connect { namespace, .. } | ClientPacket::Disconnect { namespace },
            ) => {
                assert!(namespace.starts_with('/'), "namespace {namespace:?}");
            }
            Ok(ClientPacket::Event { namespace, .. }) => {
                assert!(namespace.starts_with('/'), "namespace {namespace:?}");
            }
            Ok(ClientPacket::Ack) | Err(_) => {}
        }
    }
});
