//! Paragraphs from a transcript, so converted markdown does not read as one wall of text.
//!
//! Whisper's segments are a few seconds of speech each. A pause in speaking is where a speaker
//! changes thought, so a long pause starts a paragraph; a paragraph that has grown long ends
//! at the next sentence end. Without segments (a transcript stored by hand) the same length
//! rule is applied to its sentences.

use scribevault_bus::contract::TranscriptSegment;

/// A silence at least this long between two segments starts a paragraph.
const PAUSE_MS: i64 = 2_000;
/// A paragraph this long ends at the next sentence end.
const LONG_PARAGRAPH_CHARS: usize = 600;
/// No paragraph ends before this length at a pause (a stutter is not a new thought).
const SHORT_PARAGRAPH_CHARS: usize = 120;

/// Paragraphs of the segments' text, joined with blank lines.
#[must_use]
pub fn from_segments(segments: &[TranscriptSegment]) -> String {
    let mut paragraphs: Vec<String> = Vec::new();
    let mut current = String::new();
    let mut previous_end: Option<i64> = None;
    for segment in segments {
        let text = segment.text.trim();
        if text.is_empty() {
            continue;
        }
        let paused = previous_end.is_some_and(|end| segment.start_ms - end >= PAUSE_MS);
        if !current.is_empty()
            && ((paused && current.len() >= SHORT_PARAGRAPH_CHARS)
                || (current.len() >= LONG_PARAGRAPH_CHARS && ends_sentence(&current)))
        {
            paragraphs.push(std::mem::take(&mut current));
        }
        if !current.is_empty() {
            current.push(' ');
        }
        current.push_str(text);
        previous_end = Some(segment.end_ms);
    }
    if !current.is_empty() {
        paragraphs.push(current);
    }
    paragraphs.join("\n\n")
}

/// Paragraphs of plain transcript text: its own blank-line breaks are kept, and a long
/// stretch is cut at sentence ends.
#[must_use]
pub fn from_text(text: &str) -> String {
    let mut paragraphs: Vec<String> = Vec::new();
    for block in text.split("\n\n") {
        let mut current = String::new();
        for sentence in sentences(&block.split_whitespace().collect::<Vec<_>>().join(" ")) {
            if current.len() >= LONG_PARAGRAPH_CHARS {
                paragraphs.push(std::mem::take(&mut current));
            }
            if !current.is_empty() {
                current.push(' ');
            }
            current.push_str(sentence);
        }
        if !current.is_empty() {
            paragraphs.push(current);
        }
    }
    paragraphs.join("\n\n")
}

fn ends_sentence(text: &str) -> bool {
    text.trim_end()
        .ends_with(['.', '!', '?', '…', '"', '\u{201d}'])
}

/// Sentences of a single-line text: each ends after `.`, `!` or `?` followed by a space.
fn sentences(line: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    let bytes = line.as_bytes();
    for (index, byte) in bytes.iter().enumerate() {
        if matches!(byte, b'.' | b'!' | b'?') && bytes.get(index + 1) == Some(&b' ') {
            out.push(line[start..=index].trim());
            start = index + 1;
        }
    }
    let tail = line[start..].trim();
    if !tail.is_empty() {
        out.push(tail);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn segment(start_s: f64, end_s: f64, text: &str) -> TranscriptSegment {
        TranscriptSegment {
            start_ms: (start_s * 1000.0) as i64,
            end_ms: (end_s * 1000.0) as i64,
            text: text.to_owned(),
            words: Vec::new(),
        }
    }

    #[test]
    fn a_long_pause_starts_a_paragraph() {
        let long = "word ".repeat(30);
        let segments = [
            segment(0.0, 4.0, &format!("{long}first thought.")),
            segment(4.1, 8.0, "Still the first."),
            segment(11.0, 14.0, "After a pause, the second."),
        ];
        let text = from_segments(&segments);
        let paragraphs: Vec<&str> = text.split("\n\n").collect();
        assert_eq!(paragraphs.len(), 2, "{text}");
        assert!(paragraphs[0].ends_with("first thought. Still the first."));
        assert_eq!(paragraphs[1], "After a pause, the second.");
    }

    #[test]
    fn a_short_stutter_does_not_split() {
        let segments = [segment(0.0, 1.0, "Well."), segment(5.0, 6.0, "So.")];
        assert_eq!(from_segments(&segments), "Well. So.");
    }

    #[test]
    fn long_speech_without_pauses_is_cut_at_sentence_ends() {
        let segments: Vec<_> = (0..40)
            .map(|i| {
                segment(
                    f64::from(i),
                    f64::from(i) + 1.0,
                    "This is one sentence of the talk.",
                )
            })
            .collect();
        let text = from_segments(&segments);
        let paragraphs: Vec<&str> = text.split("\n\n").collect();
        assert!(paragraphs.len() >= 2, "{text}");
        assert!(paragraphs.iter().all(|p| p.ends_with('.')));
        // Nothing is lost or repeated.
        assert_eq!(text.matches("This is one sentence").count(), 40);
    }

    #[test]
    fn plain_text_keeps_breaks_and_cuts_long_runs() {
        let text = format!("Intro line.\n\n{}", "A sentence here. ".repeat(60));
        let out = from_text(&text);
        assert!(out.starts_with("Intro line.\n\nA sentence here."));
        assert!(out.split("\n\n").count() >= 3, "{out}");
        assert_eq!(out.matches("A sentence here.").count(), 60);
    }
}
