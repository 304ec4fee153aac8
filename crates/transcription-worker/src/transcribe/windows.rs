//! Long audio in windows whisper takes one at a time, so memory depends on the window and not
//! on the file: a window ends at the quietest moment near its end, where cutting splits no
//! word, and the next one starts exactly there, so no sample is lost or heard twice and every
//! time is the window's offset plus whisper's time inside it.

use crate::audio::{AudioError, PcmStream, WHISPER_SAMPLE_RATE};

/// 20 ms at 16 kHz: the loudness is measured per frame.
const FRAME: usize = WHISPER_SAMPLE_RATE as usize / 50;
/// The cut goes in the middle of the quietest 200 ms.
const QUIET_FRAMES: usize = 10;

/// Where a window lies in the file: its samples are [`Windows::samples`] until the next call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Window {
    /// The file sample the window starts at.
    pub offset: u64,
    /// Its length in samples.
    pub len: usize,
}

impl Window {
    /// Where the window starts in the file, in ms.
    #[must_use]
    pub fn offset_ms(&self) -> i64 {
        i64::try_from(self.offset / (u64::from(WHISPER_SAMPLE_RATE) / 1000)).unwrap_or(i64::MAX)
    }
}

/// The sample index in `samples` at or after `from` where cutting loses the least: the middle
/// of the quietest 200 ms (the latest one if several are as quiet, so windows stay long).
/// Returns `samples.len()` when there are fewer than 200 ms to look at.
#[must_use]
pub fn quietest_cut(samples: &[f32], from: usize) -> usize {
    let region = &samples[from.min(samples.len())..];
    let energies: Vec<f32> = region
        .chunks_exact(FRAME)
        .map(|frame| frame.iter().map(|s| s * s).sum())
        .collect();
    if energies.len() < QUIET_FRAMES {
        return samples.len();
    }
    let mut sum: f32 = energies[..QUIET_FRAMES].iter().sum();
    let mut best = (sum, 0);
    for start in 1..=energies.len() - QUIET_FRAMES {
        sum += energies[start + QUIET_FRAMES - 1] - energies[start - 1];
        if sum <= best.0 {
            best = (sum, start);
        }
    }
    from + (best.1 + QUIET_FRAMES / 2) * FRAME
}

/// Samples a decoded packet (and the resampler's block) can add past the target, so the
/// buffer never has to grow (a growing `Vec` doubles, and freed large blocks fragment the heap).
const OVERSHOOT: usize = 1 << 16;

/// Cuts a [`PcmStream`] into windows of at most `length` samples, each ending at the quietest
/// point of its last `search` samples. One buffer, allocated once, holds the window being
/// transcribed and the start of the next.
pub struct Windows {
    stream: PcmStream,
    length: usize,
    search: usize,
    buffer: Vec<f32>,
    /// Samples at the start of `buffer` that were the last window.
    handed_out: usize,
    offset: u64,
}

impl Windows {
    /// Windows of at most `length_seconds`, cut within the last `search_seconds` of each.
    #[must_use]
    pub fn new(stream: PcmStream, length_seconds: u32, search_seconds: u32) -> Self {
        let rate = WHISPER_SAMPLE_RATE as usize;
        let length = (length_seconds.max(2) as usize) * rate;
        let search = ((search_seconds as usize) * rate).clamp(rate / 2, length / 2);
        Self {
            stream,
            length,
            search,
            buffer: Vec::with_capacity(length + OVERSHOOT),
            handed_out: 0,
            offset: 0,
        }
    }

    /// The share of the file read so far (0.0 to 1.0).
    #[must_use]
    pub fn progress(&self) -> f64 {
        self.stream.progress()
    }

    /// Samples read from the file so far, at 16 kHz.
    #[must_use]
    pub fn samples_read(&self) -> u64 {
        self.stream.samples_read()
    }

    /// The samples of the window [`Windows::next_window`] returned last.
    #[must_use]
    pub fn samples(&self) -> &[f32] {
        &self.buffer[..self.handed_out]
    }

    /// The next window, or `None` at the end of the audio.
    ///
    /// # Errors
    /// The audio could not be decoded.
    pub fn next_window(&mut self) -> Result<Option<Window>, AudioError> {
        if self.handed_out > 0 {
            // What followed the cut (at most a search region and a packet) moves to the front.
            self.buffer.copy_within(self.handed_out.., 0);
            self.buffer.truncate(self.buffer.len() - self.handed_out);
            self.offset += self.handed_out as u64;
            self.handed_out = 0;
        }
        self.stream.fill(&mut self.buffer, self.length + 1)?;
        if self.buffer.is_empty() {
            return Ok(None);
        }
        let cut = if self.buffer.len() <= self.length {
            self.buffer.len()
        } else {
            quietest_cut(&self.buffer[..self.length], self.length - self.search)
        };
        self.handed_out = cut;
        Ok(Some(Window {
            offset: self.offset,
            len: cut,
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tone(samples: usize) -> Vec<f32> {
        (0..samples)
            .map(|i| ((i as f32) * 0.05).sin() * 0.5)
            .collect()
    }

    #[test]
    fn the_cut_falls_in_the_pause() {
        let mut samples = tone(16_000);
        samples.extend(std::iter::repeat_n(0.0, 4_000)); // 250 ms pause at 1.0–1.25 s
        samples.extend(tone(12_000));
        let cut = quietest_cut(&samples, 8_000);
        assert!((16_000..=20_000).contains(&cut), "cut at {cut}");
    }

    #[test]
    fn a_region_shorter_than_the_quiet_span_is_not_cut() {
        let samples = tone(3_000);
        assert_eq!(quietest_cut(&samples, 0), 3_000);
        assert_eq!(quietest_cut(&samples, 10_000), 3_000);
    }

    #[test]
    fn of_equally_quiet_places_the_latest_is_taken() {
        let samples = vec![0.0; 32_000];
        let cut = quietest_cut(&samples, 16_000);
        assert_eq!(cut, 32_000 - QUIET_FRAMES / 2 * FRAME);
    }

    #[test]
    fn windows_cover_the_file_exactly_once() {
        let path = scribevault_test_support::shared_dir().join("audio/long-01-bread.mp3");
        let whole = crate::audio::read_all(&path).unwrap();
        let mut windows = Windows::new(PcmStream::open(&path).unwrap(), 20, 5);
        let mut joined = Vec::new();
        let mut count = 0;
        let capacity = windows.buffer.capacity();
        while let Some(window) = windows.next_window().unwrap() {
            assert_eq!(window.offset, joined.len() as u64);
            assert_eq!(window.len, windows.samples().len());
            assert!(window.len <= 20 * 16_000);
            joined.extend_from_slice(windows.samples());
            count += 1;
        }
        assert_eq!(windows.buffer.capacity(), capacity, "the buffer never grew");
        assert!(count >= 4, "{count} windows for 77 s");
        assert_eq!(joined.len(), whole.len());
        assert!(joined.iter().zip(&whole).all(|(a, b)| a == b));
    }
}
