//! Background work of the transcription service.

pub mod housekeeping;
