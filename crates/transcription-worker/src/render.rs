//! What a transcript becomes: plain text, markdown (title heading + paragraphs) and the segments
//! as JSON, from which SRT/VTT can be made later.

use crate::whisper::Segment;

/// Segments joined into one line of text.
#[must_use]
pub fn plain_text(segments: &[Segment]) -> String {
    segments
        .iter()
        .map(|segment| segment.text.as_str())
        .collect::<Vec<_>>()
        .join(" ")
}

/// A heading with the title, then paragraphs: a new paragraph starts after a pause of more than
/// 1.5 s or after about 80 words.
#[must_use]
pub fn markdown(title: &str, segments: &[Segment]) -> String {
    let mut out = format!("# {}\n", title.trim());
    let mut paragraph: Vec<&str> = Vec::new();
    let mut words = 0;
    let mut previous_end = None;
    for segment in segments {
        let pause = previous_end.is_some_and(|end| segment.start_ms - end > 1500);
        if !paragraph.is_empty() && (pause || words > 80) {
            out.push('\n');
            out.push_str(&paragraph.join(" "));
            out.push('\n');
            paragraph.clear();
            words = 0;
        }
        words += segment.text.split_whitespace().count();
        paragraph.push(&segment.text);
        previous_end = Some(segment.end_ms);
    }
    if !paragraph.is_empty() {
        out.push('\n');
        out.push_str(&paragraph.join(" "));
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn segment(start_ms: i64, end_ms: i64, text: &str) -> Segment {
        Segment {
            start_ms,
            end_ms,
            text: text.into(),
            words: Vec::new(),
        }
    }

    #[test]
    fn markdown_has_a_title_and_paragraphs_split_at_pauses() {
        let segments = [
            segment(0, 1000, "Hello there."),
            segment(1100, 2000, "Welcome."),
            segment(5000, 6000, "After a pause."),
        ];
        assert_eq!(
            markdown("My talk", &segments),
            "# My talk\n\nHello there. Welcome.\n\nAfter a pause.\n"
        );
        assert_eq!(
            plain_text(&segments),
            "Hello there. Welcome. After a pause."
        );
        assert_eq!(markdown("Silence", &[]), "# Silence\n");
    }
}
