//! MP3 bytes to the 16 kHz mono f32 PCM whisper.cpp expects: symphonia decodes (any sample
//! rate, mono or stereo, ID3 tags, VBR with a Xing header), channels are averaged, and rubato's
//! FFT resampler converts the rate.

use std::io::Cursor;

use rubato::Resampler as _;
use symphonia::core::codecs::audio::AudioDecoderOptions;
use symphonia::core::errors::Error as SymphoniaError;
use symphonia::core::formats::probe::Hint;
use symphonia::core::formats::{FormatOptions, TrackType};
use symphonia::core::io::MediaSourceStream;
use symphonia::core::meta::MetadataOptions;

/// Whisper's sample rate.
pub const WHISPER_SAMPLE_RATE: u32 = 16_000;

/// Why audio could not be turned into PCM. Always permanent: retrying the same bytes cannot help.
#[derive(Debug, thiserror::Error)]
pub enum AudioError {
    /// The bytes are not decodable MP3.
    #[error("The audio could not be decoded: {0}")]
    Undecodable(String),
    /// Decoding produced no samples.
    #[error("The file contains no audio")]
    NoAudio,
    /// Resampling failed.
    #[error("The audio could not be resampled: {0}")]
    Resample(String),
}

/// Decoded audio at its own rate, already mixed to mono.
pub struct MonoAudio {
    pub samples: Vec<f32>,
    pub sample_rate: u32,
}

impl MonoAudio {
    /// Length in seconds.
    #[must_use]
    pub fn duration_seconds(&self) -> f64 {
        if self.sample_rate == 0 {
            0.0
        } else {
            self.samples.len() as f64 / f64::from(self.sample_rate)
        }
    }
}

/// Decodes MP3 `bytes` to mono. A file cut mid-frame decodes up to the cut.
///
/// # Errors
/// [`AudioError`] when nothing decodable is found.
pub fn decode_mp3_to_mono(bytes: Vec<u8>) -> Result<MonoAudio, AudioError> {
    let source = MediaSourceStream::new(Box::new(Cursor::new(bytes)), Default::default());
    let mut hint = Hint::new();
    hint.with_extension("mp3");
    let mut format = symphonia::default::get_probe()
        .probe(
            &hint,
            source,
            FormatOptions::default(),
            MetadataOptions::default(),
        )
        .map_err(|e| AudioError::Undecodable(e.to_string()))?;
    let track = format
        .default_track(TrackType::Audio)
        .ok_or(AudioError::NoAudio)?;
    let track_id = track.id;
    let parameters = track
        .codec_params
        .as_ref()
        .and_then(|params| params.audio())
        .ok_or(AudioError::NoAudio)?
        .clone();
    let mut decoder = symphonia::default::get_codecs()
        .make_audio_decoder(&parameters, &AudioDecoderOptions::default())
        .map_err(|e| AudioError::Undecodable(e.to_string()))?;
    let mut mono = Vec::new();
    let mut sample_rate = parameters.sample_rate.unwrap_or(0);
    let mut interleaved: Vec<f32> = Vec::new();
    loop {
        let packet = match format.next_packet() {
            Ok(Some(packet)) => packet,
            Ok(None) => break,
            // A truncated file ends in a partial frame: keep what decoded before it.
            Err(SymphoniaError::IoError(_)) => break,
            Err(error) if mono.is_empty() => {
                return Err(AudioError::Undecodable(error.to_string()));
            }
            Err(_) => break,
        };
        if packet.track_id != track_id {
            continue;
        }
        let buffer = match decoder.decode(&packet) {
            Ok(buffer) => buffer,
            Err(SymphoniaError::DecodeError(_)) => continue,
            Err(error) => return Err(AudioError::Undecodable(error.to_string())),
        };
        let channels = buffer.spec().channels().count().max(1);
        sample_rate = buffer.spec().rate();
        interleaved.resize(buffer.samples_interleaved(), 0.0);
        buffer.copy_to_slice_interleaved(&mut interleaved);
        #[allow(clippy::cast_precision_loss)]
        let scale = 1.0 / channels as f32;
        mono.extend(
            interleaved
                .chunks_exact(channels)
                .map(|frame| frame.iter().sum::<f32>() * scale),
        );
    }
    if mono.is_empty() || sample_rate == 0 {
        return Err(AudioError::NoAudio);
    }
    Ok(MonoAudio {
        samples: mono,
        sample_rate,
    })
}

/// Resamples mono audio to 16 kHz.
///
/// # Errors
/// The resampler cannot be built for this rate.
pub fn resample_to_whisper_rate(audio: &MonoAudio) -> Result<Vec<f32>, AudioError> {
    if audio.sample_rate == WHISPER_SAMPLE_RATE {
        return Ok(audio.samples.clone());
    }
    let frames = audio.samples.len();
    let mut resampler = rubato::Fft::<f32>::new(
        audio.sample_rate as usize,
        WHISPER_SAMPLE_RATE as usize,
        1024,
        1,
        rubato::FixedSync::Both,
    )
    .map_err(|e| AudioError::Resample(e.to_string()))?;
    let input =
        rubato::audioadapter_buffers::direct::InterleavedSlice::new(&audio.samples[..], 1, frames)
            .map_err(|e| AudioError::Resample(e.to_string()))?;
    let output = resampler
        .process_all(&input, frames, None)
        .map_err(|e| AudioError::Resample(e.to_string()))?;
    Ok(output.take_data())
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

    #[test]
    fn stereo_and_mono_files_decode_to_their_length_at_16_khz() {
        for (name, seconds) in [
            ("sample-01-welcome.mp3", 7.5),
            ("sample-02-subscribe.mp3", 9.1),
            ("sample-03-meeting.mp3", 9.0),
        ] {
            let audio = decode_mp3_to_mono(fixture(name)).unwrap();
            assert_eq!(audio.sample_rate, 44_100, "{name}");
            assert!(
                (audio.duration_seconds() - seconds).abs() < 0.3,
                "{name}: {}",
                audio.duration_seconds()
            );
            let pcm = resample_to_whisper_rate(&audio).unwrap();
            let resampled_seconds = pcm.len() as f64 / 16_000.0;
            assert!(
                (resampled_seconds - audio.duration_seconds()).abs() < 0.1,
                "{name}"
            );
            assert!(
                pcm.iter().any(|sample| sample.abs() > 0.01),
                "{name} is not silence"
            );
        }
    }

    #[test]
    fn a_truncated_file_decodes_its_prefix() {
        let audio = decode_mp3_to_mono(fixture("truncated-partial.mp3")).unwrap();
        assert!(
            (2.5..5.0).contains(&audio.duration_seconds()),
            "{}",
            audio.duration_seconds()
        );
    }

    #[test]
    fn broken_files_are_errors_not_panics() {
        for name in [
            "broken-empty.mp3",
            "broken-not-audio.mp3",
            "broken-truncated.mp3",
        ] {
            assert!(decode_mp3_to_mono(fixture(name)).is_err(), "{name}");
        }
    }
}
