//! SubRip and WebVTT: written by `scribevault_bus::subtitles`, shared with the other writers.

pub use scribevault_bus::subtitles::{srt, vtt};
