//! Background work of the library: one module per queue consumer or sweep.

pub mod embed;
pub mod ingest;
