//! An episode's transcript in the formats `podcast:transcript` names: SubRip
//! (`application/srt`), WebVTT (`text/vtt`) and the Podcasting 2.0 JSON transcript
//! (`application/json`, podcastindex `docs/1.0.md#transcript`), made from the worker's timed
//! segments (`bus::contract::TranscriptSegment`).
//!
//! The library's exports make the same SubRip and WebVTT, but an export is a user's act: it
//! records a link and marks the item exported. A podcast app fetching a transcript must change
//! nothing in the Vault, so the feed renders the segments itself.

use scribevault_bus::contract::TranscriptSegment;
use scribevault_bus::subtitles;
use serde::Serialize;

/// A transcript format a feed serves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TranscriptFormat {
    Srt,
    Vtt,
    Json,
}

impl TranscriptFormat {
    /// Every format, in the order the feed lists them.
    pub const ALL: [Self; 3] = [Self::Srt, Self::Vtt, Self::Json];

    /// The URL's extension.
    #[must_use]
    pub fn extension(self) -> &'static str {
        match self {
            Self::Srt => "srt",
            Self::Vtt => "vtt",
            Self::Json => "json",
        }
    }

    /// The `type` of the `podcast:transcript` tag.
    #[must_use]
    pub fn mime_type(self) -> &'static str {
        match self {
            Self::Srt => "application/srt",
            Self::Vtt => "text/vtt",
            Self::Json => "application/json",
        }
    }

    /// The `Content-Type` served.
    #[must_use]
    pub fn content_type(self) -> &'static str {
        match self {
            Self::Srt => "application/srt; charset=utf-8",
            Self::Vtt => "text/vtt; charset=utf-8",
            Self::Json => "application/json",
        }
    }

    /// The format for an extension.
    #[must_use]
    pub fn from_extension(extension: &str) -> Option<Self> {
        Self::ALL
            .into_iter()
            .find(|format| format.extension() == extension)
    }

    /// The transcript in this format.
    #[must_use]
    pub fn render(self, segments: &[TranscriptSegment]) -> String {
        match self {
            Self::Srt => subtitles::srt(segments),
            Self::Vtt => subtitles::vtt(segments),
            Self::Json => json(segments),
        }
    }
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct JsonTranscript<'a> {
    version: &'static str,
    segments: Vec<JsonSegment<'a>>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct JsonSegment<'a> {
    /// Seconds.
    start_time: f64,
    end_time: f64,
    body: &'a str,
}

#[allow(clippy::cast_precision_loss)] // milliseconds of audio are far below 2^52
fn seconds(ms: i64) -> f64 {
    ms.max(0) as f64 / 1000.0
}

fn json(segments: &[TranscriptSegment]) -> String {
    let transcript = JsonTranscript {
        version: "1.0.0",
        segments: segments
            .iter()
            .map(|segment| JsonSegment {
                start_time: seconds(segment.start_ms),
                end_time: seconds(segment.end_ms.max(segment.start_ms)),
                body: segment.text.trim(),
            })
            .collect(),
    };
    serde_json::to_string(&transcript)
        .unwrap_or_else(|_| "{\"version\":\"1.0.0\",\"segments\":[]}".to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn segments() -> Vec<TranscriptSegment> {
        vec![
            TranscriptSegment {
                start_ms: 0,
                end_ms: 1_500,
                text: " Hello <world> & all".into(),
                words: Vec::new(),
            },
            TranscriptSegment {
                start_ms: 3_661_001,
                end_ms: 3_662_000,
                text: "Later.".into(),
                words: Vec::new(),
            },
        ]
    }

    #[test]
    fn subrip_numbers_cues_with_comma_times() {
        let srt = TranscriptFormat::Srt.render(&segments());
        assert!(srt.starts_with(
            "1\n00:00:00,000 --> 00:00:01,500\nHello <world> & all\n\n2\n01:01:01,001"
        ));
    }

    #[test]
    fn webvtt_has_its_header_and_escapes_markup() {
        let vtt = TranscriptFormat::Vtt.render(&segments());
        assert!(vtt.starts_with(
            "WEBVTT\n\n00:00:00.000 --> 00:00:01.500\nHello &lt;world&gt; &amp; all\n"
        ));
    }

    #[test]
    fn the_json_is_podcasting_2_0s_shape() {
        let json: serde_json::Value =
            serde_json::from_str(&TranscriptFormat::Json.render(&segments())).unwrap();
        assert_eq!(json["version"], "1.0.0");
        assert_eq!(json["segments"][0]["startTime"], 0.0);
        assert_eq!(json["segments"][0]["endTime"], 1.5);
        assert_eq!(json["segments"][0]["body"], "Hello <world> & all");
    }
}
