//! An item cut into the stretches search by meaning compares with a query: each keeps the
//! second it starts and ends at, so a hit found by meaning plays from there as a keyword hit
//! does from its segment.

use super::Segment;

/// A chunk closes once it holds this much speech...
const CHUNK_MS: i64 = 45_000;
/// ...or this many words, whichever comes first: well inside e5's 512 tokens, and short
/// enough that its vector is about one thing.
const CHUNK_WORDS: usize = 120;

/// One stretch of an item's text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Chunk {
    /// Where the stretch starts and ends in the recording; `None` for text without times (a
    /// PDF, a saved note, a transcript made before segments were kept).
    pub start_ms: Option<i64>,
    pub end_ms: Option<i64>,
    pub text: String,
}

/// The chunks of an item: its segments gathered in order when it has them, else its text in
/// runs of words. The title leads the first chunk, so an item is found by what it is called.
#[must_use]
pub fn chunks_of(title: &str, content: &str, segments: &[Segment]) -> Vec<Chunk> {
    let mut chunks = if segments
        .iter()
        .any(|segment| !segment.text.trim().is_empty())
    {
        timed_chunks(segments)
    } else {
        untimed_chunks(content)
    };
    let title = title.trim();
    if !title.is_empty() {
        match chunks.first_mut() {
            Some(first) => first.text = format!("{title}. {}", first.text),
            None => chunks.push(Chunk {
                start_ms: None,
                end_ms: None,
                text: title.to_owned(),
            }),
        }
    }
    chunks
}

fn timed_chunks(segments: &[Segment]) -> Vec<Chunk> {
    let mut chunks = Vec::new();
    let mut open: Option<(i64, i64, Vec<&str>)> = None;
    for segment in segments {
        let text = segment.text.trim();
        if text.is_empty() {
            continue;
        }
        let (start, end, words) =
            open.get_or_insert_with(|| (segment.start_ms, segment.end_ms, Vec::new()));
        words.extend(text.split_whitespace());
        *end = (*end).max(segment.end_ms);
        if *end - *start >= CHUNK_MS || words.len() >= CHUNK_WORDS {
            let (start, end, words) = open.take().unwrap_or_default();
            chunks.push(timed(start, end, &words));
        }
    }
    if let Some((start, end, words)) = open {
        chunks.push(timed(start, end, &words));
    }
    chunks
}

fn timed(start: i64, end: i64, words: &[&str]) -> Chunk {
    Chunk {
        start_ms: Some(start),
        end_ms: Some(end),
        text: words.join(" "),
    }
}

fn untimed_chunks(content: &str) -> Vec<Chunk> {
    let words: Vec<&str> = content.split_whitespace().collect();
    words
        .chunks(CHUNK_WORDS)
        .map(|words| Chunk {
            start_ms: None,
            end_ms: None,
            text: words.join(" "),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn segment(start_s: i64, end_s: i64, text: &str) -> Segment {
        Segment {
            start_ms: start_s * 1000,
            end_ms: end_s * 1000,
            text: text.to_owned(),
            words: Vec::new(),
        }
    }

    #[test]
    fn segments_gather_into_chunks_of_at_most_about_45_seconds_with_their_times() {
        let segments: Vec<Segment> = (0..10)
            .map(|i| segment(i * 10, i * 10 + 10, &format!("words of segment {i}")))
            .collect();
        let chunks = chunks_of("", "", &segments);
        let times: Vec<(Option<i64>, Option<i64>)> =
            chunks.iter().map(|c| (c.start_ms, c.end_ms)).collect();
        assert_eq!(
            times,
            [(Some(0), Some(50_000)), (Some(50_000), Some(100_000)),]
        );
        assert!(
            chunks[0]
                .text
                .starts_with("words of segment 0 words of segment 1")
        );
    }

    #[test]
    fn a_long_segment_run_closes_at_120_words_and_the_title_leads() {
        let many = "word ".repeat(70);
        let segments = [
            segment(0, 5, &many),
            segment(5, 10, &many),
            segment(10, 12, "end"),
        ];
        let chunks = chunks_of("Garden show", "", &segments);
        assert_eq!(chunks.len(), 2);
        assert!(chunks[0].text.starts_with("Garden show. word"));
        assert_eq!(
            (chunks[1].start_ms, chunks[1].end_ms),
            (Some(10_000), Some(12_000))
        );
    }

    #[test]
    fn text_without_segments_is_cut_by_words_without_times() {
        let content = "alpha ".repeat(250);
        let chunks = chunks_of("", &content, &[]);
        assert_eq!(chunks.len(), 3);
        assert!(
            chunks
                .iter()
                .all(|c| c.start_ms.is_none() && c.end_ms.is_none())
        );
        assert_eq!(chunks[2].text.split_whitespace().count(), 10);
    }

    #[test]
    fn an_empty_item_is_its_title_alone() {
        let chunks = chunks_of("Only a title", "   ", &[]);
        assert_eq!(chunks.len(), 1);
        assert_eq!(chunks[0].text, "Only a title");
        assert!(chunks_of("", "", &[]).is_empty());
    }
}
