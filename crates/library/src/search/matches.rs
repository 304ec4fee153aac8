//! Where in a recording the searched words were said: the transcript segments that hold them.
//!
//! Engines rank whole documents; the segments of the page's audio hits are scanned here, with
//! the same kind of stemming the engines use, so "planting" in the query finds "planted" in a
//! segment as the ranking did.

use rust_stemmers::{Algorithm, Stemmer};

use crate::domain::Segment;
use crate::search::query::{SearchQuery, Term, words_of};

/// Matches reported per item.
pub const MAX_MATCHES: usize = 5;

/// The first segments (at most [`MAX_MATCHES`]) that contain a positive term of `query`: a
/// word, or every word of a phrase in order.
#[must_use]
pub fn matching_segments(query: &SearchQuery, segments: &[Segment]) -> Vec<Segment> {
    let stemmer = Stemmer::create(Algorithm::English);
    let stem = |word: &str| stemmer.stem(word).into_owned();
    let wanted: Vec<Vec<String>> = query
        .positive_terms()
        .map(|term| match term {
            Term::Word(word) => vec![stem(word)],
            Term::Phrase(words) => words.iter().map(|word| stem(word)).collect(),
        })
        .collect();
    if wanted.is_empty() {
        return Vec::new();
    }
    segments
        .iter()
        .filter(|segment| {
            let stems: Vec<String> = words_of(&segment.text)
                .iter()
                .map(|word| stem(word))
                .collect();
            wanted.iter().any(|term| {
                stems
                    .windows(term.len())
                    .any(|window| window == term.as_slice())
            })
        })
        .take(MAX_MATCHES)
        .cloned()
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn segment(start_ms: i64, text: &str) -> Segment {
        Segment {
            start_ms,
            end_ms: start_ms + 1000,
            text: text.to_owned(),
            words: Vec::new(),
        }
    }

    #[test]
    fn stemmed_words_and_phrases_find_their_segments() {
        let segments = [
            segment(0, "Welcome to the show."),
            segment(1000, "Today we planted garlic in raised beds."),
            segment(2000, "Cover crops protect the soil over winter."),
            segment(3000, "Crops that cover the ground are not the same phrase."),
        ];
        let query = SearchQuery::parse("planting").unwrap();
        assert_eq!(matching_segments(&query, &segments), [segments[1].clone()]);
        let query = SearchQuery::parse("\"cover crops\"").unwrap();
        assert_eq!(matching_segments(&query, &segments), [segments[2].clone()]);
        let query = SearchQuery::parse("-garlic").unwrap();
        assert!(matching_segments(&query, &segments).is_empty());
    }

    #[test]
    fn at_most_five_matches_are_reported() {
        let segments: Vec<Segment> = (0..20).map(|i| segment(i * 1000, "soil again")).collect();
        let query = SearchQuery::parse("soil").unwrap();
        assert_eq!(matching_segments(&query, &segments).len(), MAX_MATCHES);
    }
}
