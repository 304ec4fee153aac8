//! Audio to the 16 kHz mono f32 PCM whisper.cpp expects, as a stream: symphonia reads one
//! packet at a time from a file (any sample rate, mono or stereo, ID3 tags, VBR with a Xing
//! header), channels are averaged, and rubato's FFT resampler converts the rate in fixed
//! blocks. Nothing holds the whole file: a 10-hour livestream is 2.3 GB of PCM at 16 kHz, and
//! only the window being transcribed is ever in memory.

use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use rubato::Resampler as _;
use rubato::audioadapter_buffers::direct::InterleavedSlice;
use symphonia::core::codecs::audio::{AudioDecoder, AudioDecoderOptions};
use symphonia::core::errors::Error as SymphoniaError;
use symphonia::core::formats::probe::Hint;
use symphonia::core::formats::{FormatOptions, FormatReader, TrackType};
use symphonia::core::io::{MediaSource, MediaSourceStream};
use symphonia::core::meta::MetadataOptions;

/// Whisper's sample rate.
pub const WHISPER_SAMPLE_RATE: u32 = 16_000;

/// Input frames the resampler takes per block.
const RESAMPLER_BLOCK: usize = 1024;

/// Why audio could not be turned into PCM. Always permanent: retrying the same bytes cannot help.
#[derive(Debug, thiserror::Error)]
pub enum AudioError {
    /// The file could not be read.
    #[error("The audio file could not be read: {0}")]
    Io(String),
    /// The bytes are not decodable audio.
    #[error("The audio could not be decoded: {0}")]
    Undecodable(String),
    /// Decoding produced no samples.
    #[error("The file contains no audio")]
    NoAudio,
    /// Resampling failed.
    #[error("The audio could not be resampled: {0}")]
    Resample(String),
}

/// A file whose read position can be watched from another thread: progress is the share of
/// the file's bytes the decoder has consumed, which needs no duration up front (an MP3 without
/// a Xing header does not say how long it is).
struct WatchedFile {
    file: File,
    position: Arc<AtomicU64>,
}

impl Read for WatchedFile {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let read = self.file.read(buf)?;
        self.position.fetch_add(read as u64, Ordering::Relaxed);
        Ok(read)
    }
}

impl Seek for WatchedFile {
    fn seek(&mut self, to: SeekFrom) -> std::io::Result<u64> {
        let at = self.file.seek(to)?;
        self.position.store(at, Ordering::Relaxed);
        Ok(at)
    }
}

impl MediaSource for WatchedFile {
    fn is_seekable(&self) -> bool {
        self.file.is_seekable()
    }

    fn byte_len(&self) -> Option<u64> {
        self.file.byte_len()
    }
}

/// Mono samples at a source rate in, 16 kHz out, block by block. The resampler's start-up
/// delay is dropped and its tail flushed, so output sample `n` is input time `n / 16000` s:
/// timestamps stitched across windows stay exact.
struct BlockResampler {
    inner: rubato::Fft<f32>,
    pending: Vec<f32>,
    scratch: Vec<f32>,
    delay_left: usize,
    consumed: u64,
    produced: u64,
    ratio: f64,
}

impl BlockResampler {
    fn new(source_rate: u32) -> Result<Self, AudioError> {
        let inner = rubato::Fft::<f32>::new(
            source_rate as usize,
            WHISPER_SAMPLE_RATE as usize,
            RESAMPLER_BLOCK,
            1,
            rubato::FixedSync::Both,
        )
        .map_err(|e| AudioError::Resample(e.to_string()))?;
        let scratch = vec![0.0; inner.output_frames_max()];
        Ok(Self {
            delay_left: inner.output_delay(),
            ratio: f64::from(WHISPER_SAMPLE_RATE) / f64::from(source_rate),
            inner,
            pending: Vec::with_capacity(RESAMPLER_BLOCK * 2),
            scratch,
            consumed: 0,
            produced: 0,
        })
    }

    fn push(&mut self, input: &[f32], out: &mut Vec<f32>) -> Result<(), AudioError> {
        self.consumed += input.len() as u64;
        self.pending.extend_from_slice(input);
        let mut start = 0;
        while self.pending.len() - start >= self.inner.input_frames_next() {
            let needed = self.inner.input_frames_next();
            self.block(start, needed, None, out)?;
            start += needed;
        }
        self.pending.drain(..start);
        Ok(())
    }

    /// Resamples `len` pending frames from `start` (`partial` when fewer than a block remain).
    fn block(
        &mut self,
        start: usize,
        len: usize,
        partial: Option<usize>,
        out: &mut Vec<f32>,
    ) -> Result<(), AudioError> {
        let resample = |e: &dyn std::fmt::Display| AudioError::Resample(e.to_string());
        let input = InterleavedSlice::new(&self.pending[start..start + len], 1, len)
            .map_err(|e| resample(&e))?;
        let capacity = self.scratch.len();
        let mut output = InterleavedSlice::new_mut(&mut self.scratch[..], 1, capacity)
            .map_err(|e| resample(&e))?;
        let indexing = partial.map(|partial_len| rubato::Indexing {
            input_offset: 0,
            output_offset: 0,
            partial_len: Some(partial_len),
            active_channels_mask: None,
        });
        let (_, produced) = self
            .inner
            .process_into_buffer(&input, &mut output, indexing.as_ref())
            .map_err(|e| resample(&e))?;
        let skip = self.delay_left.min(produced);
        self.delay_left -= skip;
        out.extend_from_slice(&self.scratch[skip..produced]);
        self.produced += (produced - skip) as u64;
        Ok(())
    }

    /// Flushes what is still inside the resampler, ending the output at exactly the input's
    /// length at 16 kHz.
    fn finish(&mut self, out: &mut Vec<f32>) -> Result<(), AudioError> {
        #[allow(
            clippy::cast_possible_truncation,
            clippy::cast_sign_loss,
            clippy::cast_precision_loss
        )]
        let expected = (self.consumed as f64 * self.ratio).round() as u64;
        let block = self.inner.input_frames_next();
        let mut flushes = 0;
        while self.produced < expected && flushes < 64 {
            let real = self.pending.len().min(block);
            self.pending.resize(block.max(self.pending.len()), 0.0);
            self.block(0, block, Some(real), out)?;
            self.pending.drain(..block.min(self.pending.len()));
            self.pending.clear();
            flushes += 1;
        }
        if self.produced > expected {
            let extra = usize::try_from(self.produced - expected).unwrap_or(0);
            out.truncate(out.len().saturating_sub(extra));
            self.produced = expected;
        }
        Ok(())
    }
}

/// 16 kHz mono PCM read from an audio file a block at a time.
pub struct PcmStream {
    format: Box<dyn FormatReader>,
    decoder: Box<dyn AudioDecoder>,
    track_id: u32,
    resampler: Option<BlockResampler>,
    interleaved: Vec<f32>,
    mono: Vec<f32>,
    ended: bool,
    produced: u64,
    position: Arc<AtomicU64>,
    byte_len: u64,
}

impl PcmStream {
    /// Opens `path` and reads its header. `extension` helps the probe (`mp3`).
    ///
    /// # Errors
    /// The file cannot be opened or holds no decodable audio track.
    pub fn open(path: &Path) -> Result<Self, AudioError> {
        let file = File::open(path).map_err(|e| AudioError::Io(e.to_string()))?;
        Self::from_file(file)
    }

    /// Like [`PcmStream::open`], for a file already open (a temporary file has no name).
    ///
    /// # Errors
    /// The file holds no decodable audio track.
    pub fn from_file(mut file: File) -> Result<Self, AudioError> {
        file.seek(SeekFrom::Start(0))
            .map_err(|e| AudioError::Io(e.to_string()))?;
        let byte_len = file.byte_len().unwrap_or(0);
        let position = Arc::new(AtomicU64::new(0));
        let source = WatchedFile {
            file,
            position: position.clone(),
        };
        let source = MediaSourceStream::new(Box::new(source), Default::default());
        let mut hint = Hint::new();
        hint.with_extension("mp3");
        let format = symphonia::default::get_probe()
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
        let decoder = symphonia::default::get_codecs()
            .make_audio_decoder(&parameters, &AudioDecoderOptions::default())
            .map_err(|e| AudioError::Undecodable(e.to_string()))?;
        Ok(Self {
            format,
            decoder,
            track_id,
            resampler: None,
            interleaved: Vec::new(),
            mono: Vec::new(),
            ended: false,
            produced: 0,
            position,
            byte_len,
        })
    }

    /// The share of the file read so far, 0.0 to 1.0.
    #[must_use]
    pub fn progress(&self) -> f64 {
        if self.byte_len == 0 {
            return 0.0;
        }
        #[allow(clippy::cast_precision_loss)]
        let share = self.position.load(Ordering::Relaxed) as f64 / self.byte_len as f64;
        share.clamp(0.0, 1.0)
    }

    /// Samples produced so far, at 16 kHz.
    #[must_use]
    pub fn samples_read(&self) -> u64 {
        self.produced
    }

    /// Whether the end of the audio was reached.
    #[must_use]
    pub fn ended(&self) -> bool {
        self.ended
    }

    /// Appends 16 kHz samples to `out` until it holds at least `target` samples or the audio
    /// ends. A file cut mid-frame ends at the cut.
    ///
    /// # Errors
    /// Nothing decodable at the start of the file, or a resampler failure.
    pub fn fill(&mut self, out: &mut Vec<f32>, target: usize) -> Result<(), AudioError> {
        while out.len() < target && !self.ended {
            let before = out.len();
            self.decode_next(out)?;
            self.produced += (out.len() - before) as u64;
        }
        Ok(())
    }

    fn decode_next(&mut self, out: &mut Vec<f32>) -> Result<(), AudioError> {
        let packet = match self.format.next_packet() {
            Ok(Some(packet)) => packet,
            // A truncated file ends in a partial frame: keep what decoded before it.
            Ok(None) | Err(SymphoniaError::IoError(_)) => return self.end(out),
            Err(error) if self.resampler.is_none() => {
                return Err(AudioError::Undecodable(error.to_string()));
            }
            Err(_) => return self.end(out),
        };
        if packet.track_id != self.track_id {
            return Ok(());
        }
        let buffer = match self.decoder.decode(&packet) {
            Ok(buffer) => buffer,
            Err(SymphoniaError::DecodeError(_)) => return Ok(()),
            Err(error) => return Err(AudioError::Undecodable(error.to_string())),
        };
        let channels = buffer.spec().channels().count().max(1);
        let rate = buffer.spec().rate();
        self.interleaved.resize(buffer.samples_interleaved(), 0.0);
        buffer.copy_to_slice_interleaved(&mut self.interleaved);
        #[allow(clippy::cast_precision_loss)]
        let scale = 1.0 / channels as f32;
        self.mono.clear();
        self.mono.extend(
            self.interleaved
                .chunks_exact(channels)
                .map(|frame| frame.iter().sum::<f32>() * scale),
        );
        if self.resampler.is_none() {
            if rate == 0 {
                return Err(AudioError::NoAudio);
            }
            self.resampler = Some(BlockResampler::new(rate)?);
        }
        if let Some(resampler) = self.resampler.as_mut() {
            if resampler.ratio == 1.0 {
                out.extend_from_slice(&self.mono);
            } else {
                resampler.push(&self.mono, out)?;
            }
        }
        Ok(())
    }

    fn end(&mut self, out: &mut Vec<f32>) -> Result<(), AudioError> {
        self.ended = true;
        match self.resampler.as_mut() {
            None => Err(AudioError::NoAudio),
            Some(resampler) if resampler.ratio == 1.0 => Ok(()),
            Some(resampler) => resampler.finish(out),
        }
    }
}

/// A whole file as 16 kHz PCM, for short audio and tests; long audio goes through
/// [`PcmStream`] window by window.
///
/// # Errors
/// See [`PcmStream::fill`].
pub fn read_all(path: &Path) -> Result<Vec<f32>, AudioError> {
    let mut stream = PcmStream::open(path)?;
    let mut pcm = Vec::new();
    stream.fill(&mut pcm, usize::MAX)?;
    if pcm.is_empty() {
        return Err(AudioError::NoAudio);
    }
    Ok(pcm)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fixture(name: &str) -> std::path::PathBuf {
        scribevault_test_support::shared_dir()
            .join("audio")
            .join(name)
    }

    #[test]
    fn stereo_and_mono_files_decode_to_their_length_at_16_khz() {
        for (name, seconds) in [
            ("sample-01-welcome.mp3", 7.5),
            ("sample-02-subscribe.mp3", 9.1),
            ("sample-03-meeting.mp3", 9.0),
        ] {
            let pcm = read_all(&fixture(name)).unwrap();
            let resampled_seconds = pcm.len() as f64 / 16_000.0;
            assert!(
                (resampled_seconds - seconds).abs() < 0.3,
                "{name}: {resampled_seconds}"
            );
            assert!(
                pcm.iter().any(|sample| sample.abs() > 0.01),
                "{name} is not silence"
            );
        }
    }

    #[test]
    fn reading_in_small_blocks_gives_the_same_samples_as_reading_at_once() {
        let whole = read_all(&fixture("sample-02-subscribe.mp3")).unwrap();
        let mut stream = PcmStream::open(&fixture("sample-02-subscribe.mp3")).unwrap();
        let mut pieces = Vec::new();
        let mut block = Vec::new();
        while !stream.ended() {
            block.clear();
            stream.fill(&mut block, 3_000).unwrap();
            pieces.extend_from_slice(&block);
        }
        assert_eq!(pieces.len(), whole.len());
        assert!(pieces.iter().zip(&whole).all(|(a, b)| a == b));
        assert!(
            (stream.progress() - 1.0).abs() < 1e-9,
            "{}",
            stream.progress()
        );
        assert_eq!(stream.samples_read(), whole.len() as u64);
    }

    #[test]
    fn a_truncated_file_decodes_its_prefix() {
        let pcm = read_all(&fixture("truncated-partial.mp3")).unwrap();
        let seconds = pcm.len() as f64 / 16_000.0;
        assert!((2.5..5.0).contains(&seconds), "{seconds}");
    }

    #[test]
    fn broken_files_are_errors_not_panics() {
        for name in [
            "broken-empty.mp3",
            "broken-not-audio.mp3",
            "broken-truncated.mp3",
        ] {
            assert!(read_all(&fixture(name)).is_err(), "{name}");
        }
    }
}
