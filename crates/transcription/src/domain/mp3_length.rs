//! How long an MP3 plays, read from its first bytes so that a file's place in the queue can be
//! estimated when it is submitted, long before a worker decodes it. Storage has already checked
//! that the file decodes; this only reads its first MPEG frame: the frame count of a Xing/Info
//! or VBRI header when the encoder wrote one (ffmpeg and LAME do, so VBR files are measured
//! exactly), else the bitrate of a constant-bitrate stream against the file's size. A worker
//! reports the decoded length when it completes the file, and that replaces this one.

/// Bytes read from the start of the audio: the first frame and its header fit many times over.
pub const HEAD_BYTES: u64 = 16 * 1024;

/// Bytes per second assumed when no frame can be read (128 kbit/s, the most common MP3 rate).
const FALLBACK_BYTES_PER_SECOND: f64 = 16_000.0;

/// Where the audio starts: after an ID3v2 tag (whose size may put it past the bytes read so
/// far: cover art often does), else at 0.
#[must_use]
pub fn audio_offset(head: &[u8]) -> u64 {
    if head.len() < 10 || &head[..3] != b"ID3" {
        return 0;
    }
    let size = head[6..10]
        .iter()
        .fold(0_u64, |size, byte| (size << 7) | u64::from(byte & 0x7f));
    let footer = if head[5] & 0x10 == 0 { 0 } else { 10 };
    10 + size + footer
}

/// One MPEG audio frame header.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct FrameHeader {
    /// MPEG-1 (true) or MPEG-2/2.5.
    mpeg1: bool,
    mono: bool,
    bitrate_kbps: u32,
    sample_rate: u32,
    samples_per_frame: u32,
    /// Length of the whole frame in bytes.
    length: usize,
}

fn parse_header(bytes: &[u8]) -> Option<FrameHeader> {
    let header = u32::from_be_bytes(bytes.get(..4)?.try_into().ok()?);
    if header >> 21 != 0x7ff {
        return None;
    }
    let version = (header >> 19) & 0b11; // 0: MPEG-2.5, 2: MPEG-2, 3: MPEG-1
    let layer = (header >> 17) & 0b11; // 1: Layer III
    let bitrate_index = ((header >> 12) & 0b1111) as usize;
    let rate_index = ((header >> 10) & 0b11) as usize;
    if version == 1 || layer != 1 || bitrate_index == 0 || bitrate_index == 15 || rate_index == 3 {
        return None;
    }
    const MPEG1: [u32; 15] = [
        0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320,
    ];
    const MPEG2: [u32; 15] = [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160];
    let mpeg1 = version == 3;
    let bitrate_kbps = if mpeg1 { MPEG1 } else { MPEG2 }[bitrate_index];
    let base_rate = [44_100, 48_000, 32_000][rate_index];
    let sample_rate = match version {
        3 => base_rate,
        2 => base_rate / 2,
        _ => base_rate / 4,
    };
    let samples_per_frame = if mpeg1 { 1152 } else { 576 };
    let padding = (header >> 9) & 1;
    let length = samples_per_frame / 8 * bitrate_kbps * 1000 / sample_rate + padding;
    Some(FrameHeader {
        mpeg1,
        mono: (header >> 6) & 0b11 == 3,
        bitrate_kbps,
        sample_rate,
        samples_per_frame,
        length: length as usize,
    })
}

/// The first frame in `audio` whose successor starts right where it ends (a lone sync pattern
/// inside padding or a tag is not a frame).
fn first_frame(audio: &[u8]) -> Option<(usize, FrameHeader)> {
    (0..audio.len().saturating_sub(4)).find_map(|at| {
        let header = parse_header(&audio[at..])?;
        let next = audio.get(at + header.length..)?;
        let follows = next.len() < 4 || parse_header(next).is_some();
        follows.then_some((at, header))
    })
}

/// The frame count of a Xing/Info or VBRI header in `frame`, if it has one.
fn frame_count(frame: &[u8], header: FrameHeader) -> Option<u32> {
    let side_info = match (header.mpeg1, header.mono) {
        (true, false) => 32,
        (true, true) | (false, false) => 17,
        (false, true) => 9,
    };
    let read_u32 = |at: usize| {
        frame
            .get(at..at + 4)
            .and_then(|bytes| bytes.try_into().ok())
            .map(u32::from_be_bytes)
    };
    let xing = 4 + side_info;
    if matches!(frame.get(xing..xing + 4), Some(b"Xing" | b"Info")) {
        let flags = read_u32(xing + 4)?;
        return (flags & 1 == 1).then(|| read_u32(xing + 8)).flatten();
    }
    if frame.get(36..40) == Some(b"VBRI") {
        return read_u32(36 + 14);
    }
    None
}

/// How long the audio plays, from `audio` (the bytes from [`audio_offset`] on) and how many
/// bytes of audio the file holds. Unreadable frames fall back to 128 kbit/s.
#[must_use]
pub fn estimate_seconds(audio: &[u8], audio_bytes: u64) -> f64 {
    let Some((at, header)) = first_frame(audio) else {
        return audio_bytes as f64 / FALLBACK_BYTES_PER_SECOND;
    };
    if let Some(frames) = frame_count(&audio[at..], header).filter(|&frames| frames > 0) {
        return f64::from(frames) * f64::from(header.samples_per_frame)
            / f64::from(header.sample_rate);
    }
    let bytes_per_second = f64::from(header.bitrate_kbps) * 1000.0 / 8.0;
    audio_bytes.saturating_sub(at as u64) as f64 / bytes_per_second
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An MPEG-1 Layer III header: 44.1 kHz (rate index 0), the bitrate of `kbps_index`,
    /// stereo, no padding.
    fn header(kbps_index: u8) -> [u8; 4] {
        [0xff, 0xfb, kbps_index << 4, 0x00]
    }

    /// `count` frames of silence at 128 kbit/s (417 bytes each at 44.1 kHz).
    fn frames(count: usize) -> Vec<u8> {
        let mut bytes = Vec::new();
        for _ in 0..count {
            let mut frame = vec![0_u8; 417];
            frame[..4].copy_from_slice(&header(9));
            bytes.extend(frame);
        }
        bytes
    }

    #[test]
    fn an_id3v2_tag_is_skipped_by_its_syncsafe_size() {
        let mut tag = b"ID3\x04\x00\x00".to_vec();
        tag.extend([0x00, 0x00, 0x02, 0x01]); // 2 × 128 + 1 = 257
        assert_eq!(audio_offset(&tag), 10 + 257);
        assert_eq!(audio_offset(&frames(1)), 0);
    }

    #[test]
    fn a_constant_bitrate_stream_is_timed_by_its_bitrate() {
        let audio = frames(3);
        // 128 kbit/s is 16,000 bytes a second.
        let seconds = estimate_seconds(&audio, 16_000 * 60);
        assert!((seconds - 60.0).abs() < 0.01, "{seconds}");
    }

    #[test]
    fn a_xing_header_gives_the_exact_frame_count() {
        let mut audio = frames(3);
        let at = 4 + 32;
        audio[at..at + 4].copy_from_slice(b"Xing");
        audio[at + 4..at + 8].copy_from_slice(&1_u32.to_be_bytes());
        audio[at + 8..at + 12].copy_from_slice(&2_297_u32.to_be_bytes());
        // 2,297 frames × 1,152 samples at 44.1 kHz, whatever the file's size.
        let seconds = estimate_seconds(&audio, 1_000);
        assert!((seconds - 60.0).abs() < 0.01, "{seconds}");
    }

    #[test]
    fn a_lone_sync_pattern_is_not_taken_for_a_frame() {
        let mut audio = vec![0xff, 0xfb, 0x90, 0x00, 1, 2, 3];
        audio.extend(vec![0; 500]);
        audio.extend(frames(2));
        let seconds = estimate_seconds(&audio, 16_000 * 10);
        assert!((seconds - 10.0).abs() < 0.1, "{seconds}");
    }

    #[test]
    fn bytes_that_are_no_mp3_fall_back_to_128_kbits() {
        let seconds = estimate_seconds(b"not audio at all", 32_000);
        assert!((seconds - 2.0).abs() < 1e-9);
    }

    #[test]
    fn the_shared_samples_measure_as_ffprobe_does() {
        // ffprobe: sample-01 7.52 s at 128 kbit/s, long-01 77.19 s at 64 kbit/s.
        for (name, expected) in [
            ("sample-01-welcome.mp3", 7.52),
            ("long-01-bread.mp3", 77.19),
        ] {
            let path = scribevault_test_support::shared_dir()
                .join("audio")
                .join(name);
            let Ok(bytes) = std::fs::read(&path) else {
                panic!("the shared sample {} is missing", path.display());
            };
            let offset = audio_offset(&bytes) as usize;
            let head = &bytes[offset..bytes.len().min(offset + HEAD_BYTES as usize)];
            let seconds = estimate_seconds(head, (bytes.len() - offset) as u64);
            assert!((seconds - expected).abs() < 0.1, "{name}: {seconds}");
        }
    }
}
