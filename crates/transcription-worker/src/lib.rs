//! The stateless transcription worker.
//!
//! It consumes `transcription.work` messages, claims each file from the transcription service
//! (which owns file state), reads the MP3 from the blob store, decodes and resamples it
//! (symphonia, rubato) and runs whisper.cpp (whisper-rs) on blocking threads, never on the async
//! runtime. While it works it reports progress every time whisper advances 5 % and at least every
//! half second; that report doubles as its heartbeat. A cancel reaches it as a stop order on the
//! worker-control topic (and, failing that, as the answer to its next report), and sets
//! whisper's abort flag. It stores the transcript as text, markdown and segment JSON, then
//! completes the file. Any number of workers can share the queue: claims are conditional, so
//! each file is done once. It owns no database and must not write file state itself.

pub mod audio;
mod client;
mod config;
mod domain;
pub mod engine;
mod error;
mod jobs;
mod liveness;
mod pipeline;
pub mod render;
mod startup;

pub use config::WorkerConfig;
pub use liveness::Liveness;
pub use startup::TranscriptionWorker;
