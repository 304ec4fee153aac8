//! Thin gRPC adapter. Every RPC keeps tonic's default `UNIMPLEMENTED` answer until the service's
//! use cases exist.

use scribevault_proto::conversion::v1::conversion_service_server::ConversionService;

/// Serves the conversion service over gRPC.
pub struct ConversionGrpc;

#[tonic::async_trait]
impl ConversionService for ConversionGrpc {}
