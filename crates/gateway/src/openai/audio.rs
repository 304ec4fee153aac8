//! The audio of an OpenAI-style request, made into what the rest of Scribevault stores: MP3.
//! OpenAI's clients send whatever they recorded (Open WebUI's microphone gives WebM/Opus, phones
//! M4A, scripts WAV or FLAC) and often a file name without an extension, so the container is
//! told by content. MP3 goes through untouched; anything else is transcoded by ffmpeg (already a
//! dependency of the instance, for yt-dlp) under memory, CPU and wall-clock limits, dying with
//! the gateway. Storage then checks the MP3 as it checks every upload. ADR 0022 says why not
//! symphonia here: it has no Opus decoder, and one stored format keeps the player, the feeds and
//! the duration cap simple.
//!
//! ffmpeg is never left to guess the container: probing hostile bytes lets it read an HLS or
//! DASH playlist, or an ffconcat script, that names other files on the server's disk (a
//! member's playlist naming another member's MP3 came back as its transcript). So the
//! container is chosen here from the first bytes, among the six audio containers clients send,
//! and forced with `-f`; only the `file` protocol is allowed, the output stops just past the
//! duration cap and the quota left, and the child sees none of the gateway's secrets.

use std::path::Path;
use std::time::Duration;

use scribevault_core::child_limits::{ChildLimits, clear_environment};
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

/// What the endpoint takes, in the words its refusals use.
pub const ACCEPTED_FORMATS: &str = "MP3, WAV, FLAC, Ogg/Opus, MP4/M4A or WebM/Matroska audio";

/// The containers taken, told by their first bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AudioContainer {
    Mp3,
    Wav,
    Flac,
    Ogg,
    /// MP4, M4A, MOV and 3GP: ISO base media files.
    Mp4,
    /// WebM is Matroska.
    Matroska,
}

impl AudioContainer {
    /// The container `head` (a file's first 16 bytes) starts like, if it is one taken.
    #[must_use]
    pub fn of(head: &[u8]) -> Option<Self> {
        if looks_like_mp3(head) {
            Some(Self::Mp3)
        } else if head.starts_with(b"RIFF") && head.get(8..12) == Some(b"WAVE") {
            Some(Self::Wav)
        } else if head.starts_with(b"fLaC") {
            Some(Self::Flac)
        } else if head.starts_with(b"OggS") {
            Some(Self::Ogg)
        } else if head.get(4..8) == Some(b"ftyp") {
            Some(Self::Mp4)
        } else if head.starts_with(&[0x1A, 0x45, 0xDF, 0xA3]) {
            Some(Self::Matroska)
        } else {
            None
        }
    }

    /// ffmpeg's demuxer for it (`-f`).
    fn demuxer(self) -> &'static str {
        match self {
            Self::Mp3 => "mp3",
            Self::Wav => "wav",
            Self::Flac => "flac",
            Self::Ogg => "ogg",
            Self::Mp4 => "mov",
            Self::Matroska => "matroska",
        }
    }
}

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
    let mut read = 0;
    // A short read is not the end of the file: fill the 16 bytes unless it is.
    while read < head.len() {
        let got = file
            .read(&mut head[read..])
            .await
            .map_err(|error| OpenAiError::Api(ApiError::internal(error)))?;
        if got == 0 {
            break;
        }
        read += got;
    }
    head.truncate(read);
    Ok(head)
}

/// How far a transcode may go.
#[derive(Debug, Clone, Copy)]
pub struct TranscodeBounds {
    /// The duration cap: the output stops one second past it, so storage sees it is too long.
    pub max_seconds: u64,
    /// What is left of the caller's quota: the output stops one byte past it, so storage sees
    /// it does not fit.
    pub max_bytes: u64,
}

/// The MP3 to store for the file at `path`: the file itself, or an MP3 transcoded into
/// `spool_dir` from it.
///
/// # Errors
/// Not one of the containers taken (415, before ffmpeg runs); ffmpeg cannot read it (not
/// audio, truncated, encrypted) or is not installed.
pub async fn as_mp3(
    path: &Path,
    spool_dir: &Path,
    bounds: TranscodeBounds,
) -> Result<Option<tempfile::TempPath>, OpenAiError> {
    let container =
        AudioContainer::of(&head_of(path).await?).ok_or(OpenAiError::UnsupportedFormat)?;
    if container == AudioContainer::Mp3 {
        return Ok(None);
    }
    let output = tempfile::Builder::new()
        .suffix(".mp3")
        .tempfile_in(spool_dir)
        .map_err(|error| OpenAiError::Api(ApiError::internal(error)))?
        .into_temp_path();
    let wrapped = FFMPEG_LIMITS.wrap("ffmpeg");
    let mut command = tokio::process::Command::new(&wrapped.program);
    clear_environment(command.as_std_mut());
    command
        .args(&wrapped.leading_args)
        .args(["-nostdin", "-hide_banner", "-loglevel", "error", "-y"])
        .args(["-protocol_whitelist", "file", "-f", container.demuxer(), "-i"])
        .arg(path)
        // Speech: mono at 64 kbit/s is what the downloads store too.
        .args(["-vn", "-map", "0:a:0", "-ac", "1", "-codec:a", "libmp3lame", "-b:a", "64k"])
        .arg("-t")
        .arg(bounds.max_seconds.saturating_add(1).to_string())
        .arg("-fs")
        .arg(bounds.max_bytes.saturating_add(1).to_string())
        .args(["-f", "mp3"])
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
        return Err(OpenAiError::UnreadableAudio(format!(
            "it is not {ACCEPTED_FORMATS} that this instance can read"
        )));
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

    #[test]
    fn the_container_is_told_by_its_first_bytes_and_playlists_are_none_of_them() {
        let of = AudioContainer::of;
        assert_eq!(of(b"ID3\x04\x00"), Some(AudioContainer::Mp3));
        assert_eq!(
            of(b"RIFF\x24\x00\x00\x00WAVEfmt "),
            Some(AudioContainer::Wav)
        );
        assert_eq!(of(b"fLaC\x00\x00\x00\x22"), Some(AudioContainer::Flac));
        assert_eq!(of(b"OggS\x00\x02"), Some(AudioContainer::Ogg));
        assert_eq!(of(b"\x00\x00\x00\x20ftypM4A "), Some(AudioContainer::Mp4));
        assert_eq!(
            of(&[0x1A, 0x45, 0xDF, 0xA3, 0x9F]),
            Some(AudioContainer::Matroska)
        );
        // A RIFF that is not WAVE (AVI), HLS, DASH, ffconcat, SDP, AAC ADTS, nothing.
        assert_eq!(of(b"RIFF\x24\x00\x00\x00AVI LIST"), None);
        assert_eq!(of(b"#EXTM3U\n#EXT-X-TARGETDURATION"), None);
        assert_eq!(of(b"<?xml version=\"1.0\"?><MPD"), None);
        assert_eq!(of(b"ffconcat version 1.0\n"), None);
        assert_eq!(of(b"v=0\no=- 0 0 IN IP4"), None);
        assert_eq!(of(&[0xFF, 0xF1, 0x50, 0x80]), None);
        assert_eq!(of(&[]), None);
    }
}
