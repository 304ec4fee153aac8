//! The stages of one file's transcription, in the order a recording meets them: cut into
//! windows at quiet moments (`windows`), its speech found and batched by the VAD (`speech`),
//! each batch decoded through the [`crate::whisper`] seam and put back on the file's clock
//! (`stitching`, the file-level driver), the result checked and stretches decoded again
//! (`guard`, over the detectors in `quality`).

pub mod guard;
pub mod quality;
pub mod speech;
pub mod stitching;
pub mod windows;
