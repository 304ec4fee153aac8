//! Tables owned by the transcription service.

pub mod transcription_file;
pub mod transcription_job;
pub mod transcription_preference;
