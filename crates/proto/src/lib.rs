//! Generated protobuf messages and tonic clients/servers for every Scribevault service.
//!
//! The `.proto` files under `proto/` are the contract between the gateway and the services;
//! keeping the generated code in one crate means every target links the same types.

/// Encoded `FileDescriptorSet` of every service, for gRPC server reflection.
pub const FILE_DESCRIPTOR_SET: &[u8] =
    include_bytes!(concat!(env!("OUT_DIR"), "/scribevault_descriptor.bin"));

pub mod discovery {
    #[allow(clippy::pedantic, clippy::all, missing_docs, rust_2018_idioms)]
    pub mod v1 {
        tonic::include_proto!("scribevault.discovery.v1");
    }
}
pub mod storage {
    /// Largest storage message either side decodes: a download chunk or an upload part. Both
    /// ends read it from here, so they cannot disagree.
    pub const MAX_MESSAGE_BYTES: usize = 8 * 1024 * 1024;

    #[allow(clippy::pedantic, clippy::all, missing_docs, rust_2018_idioms)]
    pub mod v1 {
        tonic::include_proto!("scribevault.storage.v1");
    }
}
pub mod transcription {
    #[allow(clippy::pedantic, clippy::all, missing_docs, rust_2018_idioms)]
    pub mod v1 {
        tonic::include_proto!("scribevault.transcription.v1");
    }
}
pub mod conversion {
    #[allow(clippy::pedantic, clippy::all, missing_docs, rust_2018_idioms)]
    pub mod v1 {
        tonic::include_proto!("scribevault.conversion.v1");
    }
}
pub mod library {
    /// Largest library message either side decodes: a Vault save of many files, an item's
    /// text, a list page. Both ends read it from here.
    pub const MAX_MESSAGE_BYTES: usize = 32 * 1024 * 1024;

    #[allow(clippy::pedantic, clippy::all, missing_docs, rust_2018_idioms)]
    pub mod v1 {
        tonic::include_proto!("scribevault.library.v1");
    }
}
pub mod webhooks {
    #[allow(clippy::pedantic, clippy::all, missing_docs, rust_2018_idioms)]
    pub mod v1 {
        tonic::include_proto!("scribevault.webhooks.v1");
    }
}

pub mod client;
pub mod server;

pub use prost;
pub use tonic;
