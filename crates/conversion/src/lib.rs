//! Conversion of transcripts and PDFs to markdown.
//!
//! It will own markdown templates (DESIGN §3), read transcripts through storage, and convert PDFs
//! behind `pdf/`.
//!
//! Only the target's skeleton exists so far: the gRPC server with health and reflection, whose
//! RPCs all answer `UNIMPLEMENTED` until this service's issue lands. It owns no tables yet, so
//! it has no `error.rs`, `domain.rs`, `store.rs` or `jobs/` yet: they arrive with the first
//! rule, query and consumer, in the shape `docs/architecture.md` ("Anatomy of a service")
//! gives.

mod config;
mod grpc;
mod startup;

pub use config::ConversionConfig;
pub use startup::ConversionServer;
