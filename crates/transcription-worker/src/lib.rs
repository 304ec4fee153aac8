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
//!
//! Its two externals are behind traits: [`Transcribe`] (whisper.cpp, [`WhisperCpp`]; a script
//! in tests, [`FakeWhisper`]) at the seam of one window of audio, and [`FileState`] (the
//! transcription service over gRPC, [`FileStateClient`]; in memory, [`InMemoryFileState`]).

pub mod audio;
mod config;
pub mod cpu;
mod domain;
mod error;
mod jobs;
pub mod language;
mod liveness;
mod peers;
mod pipeline;
pub mod render;
mod startup;
pub mod transcribe;
pub mod whisper;

pub use config::WorkerConfig;
pub use domain::{ClaimedFile, OutputFormat, Transcript};
pub use liveness::Liveness;
pub use peers::{Claim, FileState, FileStateClient, InMemoryFileState, Recorded};
pub use startup::{TranscriptionWorker, WorkerDependencies};
pub use whisper::{FakeWhisper, Transcribe, WhisperCalls, WhisperCpp, WindowTranscriber};
