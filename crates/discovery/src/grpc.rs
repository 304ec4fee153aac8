//! Thin gRPC adapter. Every RPC keeps tonic's default `UNIMPLEMENTED` answer until the service's
//! use cases exist.

use scribevault_proto::discovery::v1::discovery_service_server::DiscoveryService;

/// Serves the discovery service over gRPC.
pub struct DiscoveryGrpc;

#[tonic::async_trait]
impl DiscoveryService for DiscoveryGrpc {}
