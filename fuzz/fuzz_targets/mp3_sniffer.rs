//! The upload sniffer on any bytes: the ID3v2 skip, then symphonia's MP3 reader on what
//! follows, as a streamed prefix and as a complete file.
#![no_main]

use libfuzzer_sys::fuzz_target;
#[path = "../../crates/storage/src/domain/mp3_check.rs"]
mod mp3_check;

use mp3_check::{AUDIO_PREFIX_BYTES, Mp3Verdict, audio_offset, check_mp3_prefix};

fuzz_target!(|data: &[u8]| {
    let Ok(offset) = audio_offset(data) else {
        return;
    };
    if data.len() >= 10 && data.starts_with(b"ID3") {
        assert!(
            offset >= 10,
            "a complete tag header is at least its 10 bytes"
        );
    }
    let Some(audio) = data.get(offset..) else {
        return;
    };
    let streamed = check_mp3_prefix(&audio[..audio.len().min(AUDIO_PREFIX_BYTES)], false);
    if audio.len() < AUDIO_PREFIX_BYTES {
        assert_eq!(streamed, Mp3Verdict::NeedMore);
    }
    let _ = check_mp3_prefix(audio, true);
});
