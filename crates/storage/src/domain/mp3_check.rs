//! Deciding from the first bytes of an upload whether it is MP3 audio.
//!
//! An MP3 file is an optional ID3v2 tag followed by MPEG audio frames. The tag's length is in
//! its 10-byte header, so it can be skipped without being kept; the audio that follows is handed
//! to symphonia's MP3 reader, and the upload counts as MP3 only if frames really decode. A file
//! named `.mp3` holding text, an empty file, or a file cut inside its tag is refused.

use std::io::Cursor;

use symphonia::core::codecs::audio::AudioDecoderOptions;
use symphonia::core::formats::probe::Hint;
use symphonia::core::formats::{FormatOptions, TrackType};
use symphonia::core::io::MediaSourceStream;
use symphonia::core::meta::MetadataOptions;

/// Audio bytes (after any tag) enough to see several frames at any bitrate.
pub const AUDIO_PREFIX_BYTES: usize = 16 * 1024;
/// Frames that must decode for the content to count as audio.
const FRAMES_REQUIRED: usize = 2;

/// The outcome of inspecting a prefix.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Mp3Verdict {
    /// More bytes are needed to decide.
    NeedMore,
    /// MPEG audio frames decode.
    Mp3,
    /// Not MP3; the reason is for logs.
    NotMp3(String),
}

/// Length of an ID3v2 tag starting at `bytes[0]`, if there is one and its header is complete.
fn id3v2_length(bytes: &[u8]) -> Option<Result<usize, String>> {
    if bytes.len() < 3 || &bytes[..3] != b"ID3" {
        return None;
    }
    if bytes.len() < 10 {
        return Some(Ok(usize::MAX));
    }
    let size_bytes = &bytes[6..10];
    if size_bytes.iter().any(|byte| byte & 0x80 != 0) {
        return Some(Err("corrupt ID3v2 header".into()));
    }
    let size = size_bytes
        .iter()
        .fold(0usize, |size, byte| (size << 7) | usize::from(*byte));
    let footer = if bytes[5] & 0x10 != 0 { 10 } else { 0 };
    Some(Ok(10 + size + footer))
}

/// Where the audio starts in a file beginning with `head` (skipping an ID3v2 tag), or an
/// error when the tag header is corrupt. `usize::MAX` means the tag header is incomplete.
///
/// # Errors
/// A corrupt tag header.
pub fn audio_offset(head: &[u8]) -> Result<usize, String> {
    match id3v2_length(head) {
        None => Ok(0),
        Some(length) => length,
    }
}

/// Decides whether `audio` (the bytes after any ID3 tag) is MPEG audio. With `complete` the
/// bytes are all there is; otherwise a short prefix asks for more.
#[must_use]
pub fn check_mp3_prefix(audio: &[u8], complete: bool) -> Mp3Verdict {
    if audio.len() < AUDIO_PREFIX_BYTES && !complete {
        return Mp3Verdict::NeedMore;
    }
    if audio.is_empty() {
        return Mp3Verdict::NotMp3("no audio after the tag (empty or truncated file)".into());
    }
    match decoded_frames(audio) {
        Ok(frames) if frames >= FRAMES_REQUIRED => Mp3Verdict::Mp3,
        Ok(frames) => Mp3Verdict::NotMp3(format!("only {frames} MPEG audio frame(s) decode")),
        Err(reason) => Mp3Verdict::NotMp3(reason),
    }
}

fn decoded_frames(audio: &[u8]) -> Result<usize, String> {
    let source = MediaSourceStream::new(Box::new(Cursor::new(audio.to_vec())), Default::default());
    let mut hint = Hint::new();
    hint.with_extension("mp3");
    let mut format = symphonia::default::get_probe()
        .probe(
            &hint,
            source,
            FormatOptions::default(),
            MetadataOptions::default(),
        )
        .map_err(|e| format!("not MPEG audio: {e}"))?;
    let track = format
        .default_track(TrackType::Audio)
        .ok_or("no audio track")?;
    let track_id = track.id;
    let parameters = track
        .codec_params
        .as_ref()
        .and_then(|params| params.audio())
        .ok_or("no audio codec")?
        .clone();
    let mut decoder = symphonia::default::get_codecs()
        .make_audio_decoder(&parameters, &AudioDecoderOptions::default())
        .map_err(|e| format!("no decoder: {e}"))?;
    let mut frames = 0;
    while frames < FRAMES_REQUIRED {
        let packet = match format.next_packet() {
            Ok(Some(packet)) => packet,
            Ok(None) | Err(_) => break,
        };
        if packet.track_id != track_id {
            continue;
        }
        if decoder.decode(&packet).is_ok() {
            frames += 1;
        }
    }
    Ok(frames)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fixture(name: &str) -> Vec<u8> {
        std::fs::read(
            scribevault_test_support::shared_dir()
                .join("audio")
                .join(name),
        )
        .unwrap()
    }

    fn verdict_of(bytes: &[u8]) -> Mp3Verdict {
        match audio_offset(bytes) {
            Err(reason) => Mp3Verdict::NotMp3(reason),
            Ok(offset) if offset > bytes.len() => {
                Mp3Verdict::NotMp3("cut inside the ID3 tag".into())
            }
            Ok(offset) => check_mp3_prefix(&bytes[offset..], true),
        }
    }

    #[test]
    fn real_mp3s_pass_whatever_their_layout() {
        for name in [
            "sample-01-welcome.mp3",
            "sample-02-subscribe.mp3",
            "sample-03-meeting.mp3",
            "long-01-bread.mp3",
            "truncated-partial.mp3",
        ] {
            assert_eq!(verdict_of(&fixture(name)), Mp3Verdict::Mp3, "{name}");
        }
    }

    #[test]
    fn broken_files_are_refused() {
        for name in [
            "broken-empty.mp3",
            "broken-not-audio.mp3",
            "broken-truncated.mp3",
        ] {
            assert!(
                matches!(verdict_of(&fixture(name)), Mp3Verdict::NotMp3(_)),
                "{name}"
            );
        }
        assert!(
            matches!(verdict_of(&[0u8; 4096]), Mp3Verdict::NotMp3(_)),
            "silence of zero bytes is not MP3"
        );
    }

    #[test]
    fn the_tag_of_a_tagged_file_is_skipped() {
        let tagged = fixture("sample-03-meeting.mp3");
        let offset = audio_offset(&tagged).unwrap();
        assert!(offset > 10, "sample-03 has an ID3v2 tag");
        assert_eq!(
            check_mp3_prefix(&tagged[offset..offset + AUDIO_PREFIX_BYTES], false),
            Mp3Verdict::Mp3
        );
    }
}
