//! The worker's consumers: transcription work, and stop orders on the worker-control topic.

pub mod stop_orders;
pub mod transcribe;
