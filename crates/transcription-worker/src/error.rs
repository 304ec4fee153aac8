//! How a claimed file ends without a transcript.

use crate::transcribe::stitching::FileError;
use crate::whisper::EngineError;

/// Why a file produced no transcript.
#[derive(Debug)]
pub enum FileFailure {
    /// The user cancelled or another worker took over: say nothing.
    Stopped,
    /// Worth reporting; `permanent` when retrying cannot help.
    Failed { message: String, permanent: bool },
}

impl FileFailure {
    /// A failure a later attempt may not repeat (storage hiccup, a lost thread).
    pub fn transient(message: impl std::fmt::Display) -> Self {
        Self::Failed {
            message: message.to_string(),
            permanent: false,
        }
    }

    /// A failure every attempt would repeat (undecodable audio, a missing model).
    pub fn permanent(message: impl std::fmt::Display) -> Self {
        Self::Failed {
            message: message.to_string(),
            permanent: true,
        }
    }
}

impl From<FileError> for FileFailure {
    /// A stop is a stop; whisper.cpp's own failures may pass (a lost allocation); everything
    /// else (undecodable or too long audio, a missing model) would fail again.
    fn from(error: FileError) -> Self {
        match error {
            FileError::Engine(EngineError::Aborted) => Self::Stopped,
            FileError::Engine(error @ EngineError::Whisper(_)) => Self::transient(error),
            error => Self::permanent(error),
        }
    }
}
