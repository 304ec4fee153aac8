//! SubRip and WebVTT from the worker's segments (notes §6: by hand, checked by round trips).
//! Beside the segment type, because the Vault's exports, the podcast feeds and the
//! OpenAI-compatible endpoint all write them, and must write them the same way.

use crate::contract::TranscriptSegment as Segment;

fn timestamp(ms: i64, separator: char) -> String {
    let ms = ms.max(0);
    format!(
        "{:02}:{:02}:{:02}{separator}{:03}",
        ms / 3_600_000,
        ms / 60_000 % 60,
        ms / 1000 % 60,
        ms % 1000
    )
}

/// One cue's text: trimmed, never empty, and never with a blank line (which ends a cue).
fn cue_text(text: &str) -> String {
    let lines: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|line| !line.is_empty())
        .collect();
    if lines.is_empty() {
        "…".to_owned()
    } else {
        lines.join("\n")
    }
}

/// SubRip: cues numbered from 1, `HH:MM:SS,mmm --> HH:MM:SS,mmm`, a blank line after each.
#[must_use]
pub fn srt(segments: &[Segment]) -> String {
    let mut out = String::new();
    for (index, segment) in segments.iter().enumerate() {
        out.push_str(&format!(
            "{}\n{} --> {}\n{}\n\n",
            index + 1,
            timestamp(segment.start_ms, ','),
            timestamp(segment.end_ms.max(segment.start_ms), ','),
            cue_text(&segment.text)
        ));
    }
    out
}

/// WebVTT: the `WEBVTT` header, `HH:MM:SS.mmm` times, and `&`, `<`, `>` escaped so no text is
/// read as markup or as a cue timing arrow.
#[must_use]
pub fn vtt(segments: &[Segment]) -> String {
    let mut out = String::from("WEBVTT\n\n");
    for segment in segments {
        let text = cue_text(&segment.text)
            .replace('&', "&amp;")
            .replace('<', "&lt;")
            .replace('>', "&gt;");
        out.push_str(&format!(
            "{} --> {}\n{}\n\n",
            timestamp(segment.start_ms, '.'),
            timestamp(segment.end_ms.max(segment.start_ms), '.'),
            text
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn segments() -> Vec<Segment> {
        vec![
            Segment {
                start_ms: 0,
                end_ms: 2500,
                text: " Hello there. ".into(),
                words: Vec::new(),
            },
            Segment {
                start_ms: 3_723_040,
                end_ms: 3_725_000,
                text: "a <b> & c --> d".into(),
                words: Vec::new(),
            },
        ]
    }

    #[test]
    fn srt_numbers_cues_and_uses_commas() {
        assert_eq!(
            srt(&segments()),
            "1\n00:00:00,000 --> 00:00:02,500\nHello there.\n\n\
             2\n01:02:03,040 --> 01:02:05,000\na <b> & c --> d\n\n"
        );
    }

    #[test]
    fn vtt_has_its_header_and_escapes_markup() {
        assert_eq!(
            vtt(&segments()),
            "WEBVTT\n\n00:00:00.000 --> 00:00:02.500\nHello there.\n\n\
             01:02:03.040 --> 01:02:05.000\na &lt;b&gt; &amp; c --&gt; d\n\n"
        );
    }
}
