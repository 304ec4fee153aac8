//! Generated protobuf messages and tonic clients/servers for every Scribevault service.
//!
//! The `.proto` files under `proto/` are the contract between the gateway and the services;
//! keeping the generated code in one crate means every target links the same types.
#![allow(clippy::pedantic, clippy::all, missing_docs, rust_2018_idioms)]

/// Encoded `FileDescriptorSet` of every service, for gRPC server reflection.
pub const FILE_DESCRIPTOR_SET: &[u8] =
    include_bytes!(concat!(env!("OUT_DIR"), "/scribevault_descriptor.bin"));

/// gRPC metadata key that carries the authenticated user's id from the gateway to services.
pub const USER_ID_METADATA_KEY: &str = "x-scribevault-user-id";

pub mod discovery {
    pub mod v1 {
        tonic::include_proto!("scribevault.discovery.v1");
    }
}
pub mod storage {
    pub mod v1 {
        tonic::include_proto!("scribevault.storage.v1");
    }
}
pub mod transcription {
    pub mod v1 {
        tonic::include_proto!("scribevault.transcription.v1");
    }
}
pub mod conversion {
    pub mod v1 {
        tonic::include_proto!("scribevault.conversion.v1");
    }
}
pub mod library {
    pub mod v1 {
        tonic::include_proto!("scribevault.library.v1");
    }
}

pub use prost;
pub use tonic;
