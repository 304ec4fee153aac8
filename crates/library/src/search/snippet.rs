//! Snippets made here, for engines whose own are slow: PostgreSQL's `ts_headline` re-parses each
//! whole text (23 ms for a page of 20 texts of 2,000 words). The words are matched by stem, as
//! the segment matches are, and marked with the same private-use characters the engines use.

use rust_stemmers::{Algorithm, Stemmer};

use super::highlight::{MARK_END, MARK_START};
use super::query::{SearchQuery, Term};

/// Words of context on each side of a hit.
const CONTEXT_WORDS: usize = 12;
/// Fragments per snippet.
const MAX_FRAGMENTS: usize = 2;

/// The stems a text is searched for: every word of the query's positive terms.
pub struct Stems {
    stemmer: Stemmer,
    wanted: Vec<String>,
}

impl Stems {
    #[must_use]
    pub fn of(query: &SearchQuery) -> Self {
        let stemmer = Stemmer::create(Algorithm::English);
        let wanted = query
            .positive_terms()
            .flat_map(|term| match term {
                Term::Word(word) => vec![word.clone()],
                Term::Phrase(words) => words.clone(),
            })
            .map(|word| stemmer.stem(&word.to_lowercase()).into_owned())
            .collect();
        Self { stemmer, wanted }
    }

    /// Stemming is most of a snippet's cost, so a word is stemmed only when it could match:
    /// the English (Porter2) stemmer rewrites endings and a few whole words ('dying' → 'die'),
    /// but never a word's first letter.
    fn matches(&self, word: &str) -> bool {
        let first = word.chars().flat_map(char::to_lowercase).next();
        let possible = self.wanted.iter().any(|stem| stem.chars().next() == first);
        possible && {
            let stem = self.stemmer.stem(&word.to_lowercase()).into_owned();
            self.wanted.contains(&stem)
        }
    }
}

/// The byte ranges of the words of `text` (runs of letters and digits).
fn words(text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut start = None;
    for (index, c) in text.char_indices() {
        match (c.is_alphanumeric(), start) {
            (true, None) => start = Some(index),
            (false, Some(from)) => {
                out.push((from, index));
                start = None;
            }
            _ => {}
        }
    }
    if let Some(from) = start {
        out.push((from, text.len()));
    }
    out
}

/// `text[from..to]` with every matching word marked.
fn marked(text: &str, spans: &[(usize, usize)], hits: &[bool], from: usize, to: usize) -> String {
    let mut out = String::new();
    let mut cursor = spans[from].0;
    for index in from..to {
        let (start, end) = spans[index];
        out.push_str(&text[cursor..start]);
        if hits[index] {
            out.push(MARK_START);
            out.push_str(&text[start..end]);
            out.push(MARK_END);
        } else {
            out.push_str(&text[start..end]);
        }
        cursor = end;
    }
    out
}

/// The whole of a short text (a title) with its matching words marked.
#[must_use]
pub fn highlight_all(stems: &Stems, text: &str) -> String {
    let spans = words(text);
    if spans.is_empty() {
        return text.to_owned();
    }
    let hits: Vec<bool> = spans
        .iter()
        .map(|&(s, e)| stems.matches(&text[s..e]))
        .collect();
    let mut out = text[..spans[0].0].to_owned();
    out.push_str(&marked(text, &spans, &hits, 0, spans.len()));
    out.push_str(&text[spans[spans.len() - 1].1..]);
    out
}

/// Up to two fragments of `text` around its first hits, joined with " … "; the text's start
/// when nothing in it matches (the hit was in the title or tags).
#[must_use]
pub fn fragments(stems: &Stems, text: &str) -> String {
    let spans = words(text);
    if spans.is_empty() {
        return String::new();
    }
    // Words are looked at only until the last fragment is complete.
    let mut hits = vec![false; spans.len()];
    let mut windows: Vec<(usize, usize)> = Vec::new();
    for (index, &(start, end)) in spans.iter().enumerate() {
        let in_window = windows.last().is_some_and(|&(_, to)| index < to);
        if !in_window && windows.len() == MAX_FRAGMENTS {
            break;
        }
        if !stems.matches(&text[start..end]) {
            continue;
        }
        hits[index] = true;
        if !in_window {
            windows.push((
                index.saturating_sub(CONTEXT_WORDS),
                (index + CONTEXT_WORDS + 1).min(spans.len()),
            ));
        }
    }
    if windows.is_empty() {
        windows.push((0, (2 * CONTEXT_WORDS).min(spans.len())));
    }
    windows
        .into_iter()
        .map(|(from, to)| marked(text, &spans, &hits, from, to))
        .collect::<Vec<_>>()
        .join(" … ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plain(text: &str) -> String {
        text.replace(MARK_START, "[").replace(MARK_END, "]")
    }

    #[test]
    fn stemmed_hits_are_marked_in_fragments_around_them() {
        let query = SearchQuery::parse("planting \"cover crops\"").unwrap();
        let stems = Stems::of(&query);
        let text = format!(
            "{} We planted garlic. {} Cover crops protect soil.",
            "filler ".repeat(40),
            "more ".repeat(40)
        );
        let snippet = plain(&fragments(&stems, &text));
        assert!(snippet.contains("We [planted] garlic"), "{snippet}");
        assert!(
            snippet.contains("[Cover] [crops] protect soil"),
            "{snippet}"
        );
        assert!(snippet.contains(" … "), "{snippet}");
        assert_eq!(
            plain(&highlight_all(&stems, "Planting <b>cover</b>!")),
            "[Planting] <b>[cover]</b>!"
        );
    }

    /// `Stems::matches` skips stemming on this property; the stemmer's exceptional forms and
    /// the endings it rewrites most are here.
    #[test]
    fn the_stemmer_keeps_the_first_letter_of_a_word() {
        let stemmer = Stemmer::create(Algorithm::English);
        let words = "skis skies dying lying tying idly gently ugly early only singly news howe \
                     atlas cosmos bias andes ties cries pies yelling ayes by a i is us gas \
                     caresses ponies hoping generously rationalisation agreed feed happily \
                     conditional eed ied ies sses ing ly yy y oed émigrés";
        for word in words.split_whitespace() {
            let stem = stemmer.stem(word).into_owned();
            assert_eq!(stem.chars().next(), word.chars().next(), "{word} -> {stem}");
        }
    }

    #[test]
    fn only_the_first_hits_need_looking_at_and_every_hit_in_a_fragment_is_marked() {
        let stems = Stems::of(&SearchQuery::parse("bread").unwrap());
        let text = format!(
            "{} bread and breads {} bread {} bread at the end",
            "flour ".repeat(30),
            "water ".repeat(30),
            "salt ".repeat(30)
        );
        let snippet = plain(&fragments(&stems, &text));
        assert!(snippet.contains("[bread] and [breads]"), "{snippet}");
        assert_eq!(snippet.matches('[').count(), 3, "{snippet}");
        assert!(!snippet.contains("end"), "{snippet}");
    }

    #[test]
    fn a_text_without_hits_gives_its_start() {
        let stems = Stems::of(&SearchQuery::parse("soil").unwrap());
        assert_eq!(fragments(&stems, "One two three."), "One two three");
        assert_eq!(fragments(&stems, ""), "");
    }
}
