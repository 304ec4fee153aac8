//! The stateless transcription worker.
//!
//! It consumes `transcription.work` messages, claims each file from the transcription service
//! (which owns file state), copies the MP3 from the blob store into a temporary file, and
//! transcribes it as a stream on blocking threads, never on the async runtime: symphonia and
//! rubato decode and resample one window (at most `SCRIBEVAULT_WHISPER_WINDOW_SECONDS`, cut at
//! the quietest moment near its end) at a time, Silero VAD drops the silence, and whisper.cpp
//! (whisper-rs) transcribes what is left, with word times put back on the file's clock. Memory
//! is one window whatever the file's length. While it works it reports progress every time whisper advances 5 % and at least every
//! half second; that report doubles as its heartbeat. A cancel reaches it as a stop order on the
//! worker-control topic (and, failing that, as the answer to its next report), and sets
//! whisper's abort flag. It stores the transcript as text, markdown and segment JSON, then
//! completes the file. Any number of workers can share the queue: claims are conditional, so
//! each file is done once. It owns no database and must not write file state itself.

pub mod audio;
mod client;
mod config;
pub mod cpu;
mod domain;
pub mod engine;
mod error;
mod jobs;
mod liveness;
mod pipeline;
pub mod render;
pub mod speech;
mod startup;
pub mod stitching;
pub mod windows;

pub use config::WorkerConfig;
pub use liveness::Liveness;
pub use startup::TranscriptionWorker;
