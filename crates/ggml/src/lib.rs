//! Whisper model files in whisper.cpp's ggml format, and their quantisation.
//!
//! `scribevault model quantize` turns an f16 model into q8_0 or q5_0 weights: ggml then runs the
//! matrix products as int8 dot products, the same idea that makes faster-whisper's int8 fast on
//! CPU. It also writes bf16, which only CPUs with AVX512-BF16 multiply faster than f16. The arithmetic is ggml's own (`ggml_quantize_chunk`, from the whisper.cpp that
//! whisper-rs already builds), so a file made here is what whisper.cpp's `quantize` tool makes.
//!
//! [`heap`] holds the other C calls the worker needs: glibc's allocator settings that keep a
//! long transcription's peak memory from creeping up.

pub mod heap;
mod kernel;
mod model_file;

pub use kernel::QuantType;
pub use model_file::{ModelFileError, QuantizeReport, quantize_model};
