//! Captions first: a transcript from the captions YouTube already has, so a video with them
//! becomes a Vault item as soon as it is downloaded, without waiting for Whisper.
//!
//! Which track (`tracks.rs`, from yt-dlp's info JSON), its json3 body as timed segments
//! (`json3.rs`), and the text the Vault item gets (here). yt-dlp itself is run in
//! `ytdlp/captions.rs`.

pub mod json3;
pub mod tracks;

use scribevault_bus::contract::{TranscriptSegment, TranscriptSource};

pub use json3::segments_from_json3;
pub use tracks::{CAPTION_FORMAT, ChosenTrack, VideoInfo, choose_track};

/// A pause longer than this starts a new paragraph (as the worker's markdown).
const PARAGRAPH_PAUSE_MS: i64 = 1500;
/// A paragraph ends at the first line after this many words.
const PARAGRAPH_WORDS: usize = 80;

/// A video's transcript made from its captions.
#[derive(Debug, Clone, PartialEq)]
pub struct CaptionTranscript {
    /// `CaptionsUploader` or `CaptionsAuto`.
    pub source: TranscriptSource,
    /// The original language the captions are in.
    pub language: String,
    pub segments: Vec<TranscriptSegment>,
}

impl CaptionTranscript {
    /// The language as the Vault records it (a Whisper code: `en-US` is `en`).
    #[must_use]
    pub fn language_code(&self) -> String {
        tracks::primary(&self.language)
    }

    /// The item's text: the lines in paragraphs. Automatic captions have no punctuation, so
    /// pauses and length make the paragraphs.
    #[must_use]
    pub fn text(&self) -> String {
        let mut paragraphs: Vec<String> = Vec::new();
        let mut paragraph: Vec<&str> = Vec::new();
        let mut words = 0;
        let mut previous_end: Option<i64> = None;
        for segment in &self.segments {
            let pause = previous_end.is_some_and(|end| segment.start_ms - end > PARAGRAPH_PAUSE_MS);
            if !paragraph.is_empty() && (pause || words > PARAGRAPH_WORDS) {
                paragraphs.push(paragraph.join(" "));
                paragraph.clear();
                words = 0;
            }
            words += segment.text.split_whitespace().count();
            paragraph.push(&segment.text);
            previous_end = Some(segment.end_ms);
        }
        if !paragraph.is_empty() {
            paragraphs.push(paragraph.join(" "));
        }
        paragraphs.join("\n\n")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(start_ms: i64, end_ms: i64, text: &str) -> TranscriptSegment {
        TranscriptSegment {
            start_ms,
            end_ms,
            text: text.to_owned(),
            words: Vec::new(),
        }
    }

    #[test]
    fn a_pause_starts_a_paragraph() {
        let transcript = CaptionTranscript {
            source: TranscriptSource::CaptionsAuto,
            language: "en".into(),
            segments: vec![
                line(0, 1000, "hello there"),
                line(1000, 2000, "general kenobi"),
                line(5000, 6000, "you are a bold one"),
            ],
        };
        assert_eq!(
            transcript.text(),
            "hello there general kenobi\n\nyou are a bold one"
        );
    }
}
