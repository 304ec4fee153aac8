//! The audio of an OpenAI-style request, made into what the rest of Scribevault stores: MP3.
//! OpenAI's clients send whatever they recorded (Open WebUI's microphone gives WebM/Opus, phones
//! M4A, scripts WAV or FLAC) and often a file name without an extension, so the container is
//! told by content. MP3 goes through untouched; anything else is transcoded by ffmpeg (already a
//! dependency of the instance, for yt-dlp) under memory, CPU and wall-clock limits, dying with
//! the gateway. Storage then checks the MP3 as it checks every upload. ADR 0022 says why not
//! symphonia here: it has no Opus decoder, and one stored format keeps the player, the feeds and
//! the duration cap simple.

use std::path::Path;
use std::time::Duration;

use scribevault_core::child_limits::ChildLimits;
use tokio::io::AsyncReadExt as _;

use super::error::OpenAiError;
use crate::error::ApiError;

/// ffmpeg decoding a hostile file may not take the gateway's memory or CPU.
const FFMPEG_LIMITS: ChildLimits = ChildLimits {
    address_space_bytes: 1 << 30,
    cpu_seconds: 1800,
};

/// Longest a transcode may run, whatever the CPU time.
const FFMPEG_DEADLINE: Duration = Duration::from_secs(1800);

/// Whether the file starts like an MP3: an ID3v2 tag, or an MPEG audio layer III frame header.
#[must_use]
pub fn looks_like_mp3(head: &[u8]) -> bool {
    if head.starts_with(b"ID3") {
        return true;
    }
    // 11 sync bits, an MPEG version that exists (not 01), layer III (01).
    matches!(head, [0xFF, second, ..] if second & 0xE0 == 0xE0 && second & 0x18 != 0x08 && second & 0x06 == 0x02)
}

async fn head_of(path: &Path) -> Result<Vec<u8>, OpenAiError> {
    let mut file = tokio::fs::File::open(path)
        .await
        .map_err(|error| OpenAiError::Api(ApiError::internal(error)))?;
    let mut head = vec![0_u8; 16];
    let read = file
        .read(&mut head)
        .await
        .map_err(|error| OpenAiError::Api(ApiError::internal(error)))?;
    head.truncate(read);
    Ok(head)
}

/// The MP3 to store for the file at `path`: the file itself, or an MP3 transcoded from it.
///
/// # Errors
/// ffmpeg cannot read it (not audio, truncated, encrypted) or is not installed.
pub async fn as_mp3(path: &Path) -> Result<Option<tempfile::TempPath>, OpenAiError> {
    if looks_like_mp3(&head_of(path).await?) {
        return Ok(None);
    }
    let output = tempfile::Builder::new()
        .suffix(".mp3")
        .tempfile()
        .map_err(|error| OpenAiError::Api(ApiError::internal(error)))?
        .into_temp_path();
    let wrapped = FFMPEG_LIMITS.wrap("ffmpeg");
    let mut command = tokio::process::Command::new(&wrapped.program);
    command
        .args(&wrapped.leading_args)
        .args(["-nostdin", "-hide_banner", "-loglevel", "error", "-y", "-i"])
        .arg(path)
        // Speech: mono at 64 kbit/s is what the downloads store too.
        .args(["-vn", "-map", "0:a:0", "-ac", "1", "-codec:a", "libmp3lame", "-b:a", "64k", "-f", "mp3"])
        .arg(&output)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .kill_on_drop(true);
    let child = command.spawn().map_err(|error| {
        if error.kind() == std::io::ErrorKind::NotFound {
            OpenAiError::Api(ApiError::new(
                scribevault_core::ErrorCode::Unavailable,
                "This instance cannot convert audio other than MP3: ffmpeg is not installed",
            ))
        } else {
            OpenAiError::Api(ApiError::internal(error))
        }
    })?;
    let finished = tokio::time::timeout(FFMPEG_DEADLINE, child.wait_with_output())
        .await
        .map_err(|_| OpenAiError::UnreadableAudio("converting it took too long".to_owned()))?
        .map_err(|error| OpenAiError::Api(ApiError::internal(error)))?;
    if !finished.status.success() {
        let reason = String::from_utf8_lossy(&finished.stderr);
        let reason = reason
            .lines()
            .last()
            .unwrap_or("not an audio file ffmpeg reads")
            .trim();
        tracing::debug!(reason, "ffmpeg refused an upload");
        return Err(OpenAiError::UnreadableAudio(
            "it is not an audio file in a format this instance reads (MP3, WAV, M4A, OGG, FLAC, WebM)".to_owned(),
        ));
    }
    Ok(Some(output))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mp3_is_told_by_its_first_bytes() {
        assert!(looks_like_mp3(b"ID3\x04\x00"));
        assert!(looks_like_mp3(&[0xFF, 0xFB, 0x90, 0x64]));
        assert!(looks_like_mp3(&[0xFF, 0xF3, 0x40, 0xC0]));
        // WAV, FLAC, Ogg, WebM, MP4 and AAC ADTS (layer bits 00) are not.
        assert!(!looks_like_mp3(b"RIFF\x24\x00\x00\x00WAVE"));
        assert!(!looks_like_mp3(b"fLaC\x00"));
        assert!(!looks_like_mp3(b"OggS\x00"));
        assert!(!looks_like_mp3(&[0x1A, 0x45, 0xDF, 0xA3]));
        assert!(!looks_like_mp3(b"\x00\x00\x00\x20ftypM4A "));
        assert!(!looks_like_mp3(&[0xFF, 0xF1, 0x50, 0x80]));
        assert!(!looks_like_mp3(&[]));
    }
}
