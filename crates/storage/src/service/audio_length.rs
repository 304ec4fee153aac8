//! How long an upload plays, measured while it streams by: symphonia's MP3 reader walks the
//! frame headers (nothing is decoded) on a blocking thread fed by a bounded channel, so a file
//! longer than `SCRIBEVAULT_MAX_AUDIO_SECONDS` is refused as soon as its bytes pass the limit,
//! before it is stored, and without holding it.

use std::io::Read;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use bytes::Bytes;
use symphonia::core::formats::probe::Hint;
use symphonia::core::formats::{FormatOptions, TrackType};
use symphonia::core::io::{MediaSourceStream, ReadOnlySource};
use symphonia::core::meta::MetadataOptions;
use symphonia::core::units::Timestamp;
use tokio::sync::mpsc;

/// Chunks in flight to the counting thread.
const CHANNEL_CHUNKS: usize = 8;

/// Measures the length of an MP3 stream against a limit.
pub struct AudioLength {
    sender: Option<mpsc::Sender<Bytes>>,
    over: Arc<AtomicBool>,
    counting: tokio::task::JoinHandle<Option<f64>>,
}

/// The bytes of the channel as a `Read`.
struct ChannelReader {
    receiver: mpsc::Receiver<Bytes>,
    current: Bytes,
}

impl Read for ChannelReader {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        while self.current.is_empty() {
            match self.receiver.blocking_recv() {
                Some(chunk) => self.current = chunk,
                None => return Ok(0),
            }
        }
        let n = buf.len().min(self.current.len());
        buf[..n].copy_from_slice(&self.current.split_to(n));
        Ok(n)
    }
}

impl AudioLength {
    /// Starts measuring; `over` turns true once the audio passes `limit_seconds`.
    #[must_use]
    pub fn start(limit_seconds: u64) -> Self {
        let (sender, receiver) = mpsc::channel(CHANNEL_CHUNKS);
        let over = Arc::new(AtomicBool::new(false));
        let flag = over.clone();
        let counting = tokio::task::spawn_blocking(move || {
            let reader = ChannelReader {
                receiver,
                current: Bytes::new(),
            };
            count(reader, limit_seconds, &flag)
        });
        Self {
            sender: Some(sender),
            over,
            counting,
        }
    }

    /// Hands the next chunk of the upload to the counter. Returns `false` once the audio is
    /// longer than the limit.
    pub async fn feed(&self, chunk: &Bytes) -> bool {
        if let Some(sender) = &self.sender {
            // A closed channel means the counter stopped reading (not MP3 it can walk): the
            // MP3 check decides about such files, and the length stays unknown.
            let _ = sender.send(chunk.clone()).await;
        }
        !self.over.load(Ordering::Relaxed)
    }

    /// The whole length in seconds once the upload ended, `None` when the frames could not
    /// be walked (the MP3 check refuses such files on its own).
    pub async fn finish(mut self) -> Option<f64> {
        self.sender.take();
        self.counting.await.ok().flatten()
    }
}

/// Walks the frames of `reader`, setting `over` (and stopping) once they pass `limit_seconds`.
fn count(reader: ChannelReader, limit_seconds: u64, over: &AtomicBool) -> Option<f64> {
    let source = MediaSourceStream::new(Box::new(ReadOnlySource::new(reader)), Default::default());
    let mut hint = Hint::new();
    hint.with_extension("mp3");
    let mut format = symphonia::default::get_probe()
        .probe(
            &hint,
            source,
            FormatOptions::default(),
            MetadataOptions::default(),
        )
        .ok()?;
    let track = format.default_track(TrackType::Audio)?;
    let (track_id, time_base) = (track.id, track.time_base?);
    #[allow(clippy::cast_precision_loss)]
    let limit = limit_seconds as f64;
    let mut frames: i64 = 0;
    let mut seconds = 0.0;
    loop {
        match format.next_packet() {
            Ok(Some(packet)) if packet.track_id == track_id => {
                frames = frames.saturating_add(i64::try_from(packet.dur.get()).unwrap_or(0));
                seconds = time_base
                    .calc_time_saturating(Timestamp::new(frames))
                    .as_secs_f64();
                if seconds > limit {
                    over.store(true, Ordering::Relaxed);
                    return Some(seconds);
                }
            }
            Ok(Some(_)) => {}
            // The end, a cut-off last frame, or garbage after the audio: what was walked counts.
            Ok(None) | Err(_) => return Some(seconds),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn measure(path: &str, limit: u64) -> (Option<f64>, bool) {
        let bytes = std::fs::read(scribevault_test_support::shared_dir().join(path)).unwrap();
        let length = AudioLength::start(limit);
        let mut within = true;
        for chunk in bytes.chunks(7_000) {
            within &= length.feed(&Bytes::copy_from_slice(chunk)).await;
        }
        (length.finish().await, within)
    }

    #[tokio::test]
    async fn an_mp3_measures_its_playing_time() {
        let (seconds, within) = measure("audio/long-01-bread.mp3", 3600).await;
        let seconds = seconds.unwrap();
        assert!((seconds - 77.2).abs() < 0.3, "{seconds}");
        assert!(within);
    }

    #[tokio::test]
    async fn audio_past_the_limit_is_reported_while_it_streams() {
        let (seconds, within) = measure("audio/long-01-bread.mp3", 60).await;
        assert!(!within);
        assert!(seconds.unwrap() > 60.0);
    }

    #[tokio::test]
    async fn what_is_not_mp3_has_no_length_and_no_verdict() {
        let (seconds, within) = measure("audio/broken-not-audio.mp3", 60).await;
        assert!(within);
        assert!(seconds.is_none_or(|s| s < 1.0), "{seconds:?}");
    }
}
