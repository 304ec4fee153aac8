//! The user's search syntax, read once and written out for each engine.
//!
//! Users type words, `"quoted phrases"`, `OR` between alternatives and `-word` to exclude. The
//! text never reaches an engine as typed: FTS5 raises syntax errors on `river AND`, `c++`,
//! `"unbalanced` or `river -cafe` (notes §2), so the query is parsed here into terms made only of
//! letters and digits and then rendered for FTS5 or for `websearch_to_tsquery`. Anything the
//! parser does not understand (a lone quote, a dangling `OR`, punctuation) degrades to plain
//! words; parsing never fails.

/// Terms kept from one query; the rest is ignored.
const MAX_TERMS: usize = 32;
/// Characters of a query read; the rest is ignored.
const MAX_QUERY_CHARS: usize = 500;

/// PostgreSQL's `english` stop words (its `english.stop`, the Snowball list). `to_tsvector`
/// and `websearch_to_tsquery` drop them; FTS5 indexes every word, so they are dropped from
/// queries here too, and "river and" means the same on both engines.
const STOP_WORDS: [&str; 127] = [
    "i",
    "me",
    "my",
    "myself",
    "we",
    "our",
    "ours",
    "ourselves",
    "you",
    "your",
    "yours",
    "yourself",
    "yourselves",
    "he",
    "him",
    "his",
    "himself",
    "she",
    "her",
    "hers",
    "herself",
    "it",
    "its",
    "itself",
    "they",
    "them",
    "their",
    "theirs",
    "themselves",
    "what",
    "which",
    "who",
    "whom",
    "this",
    "that",
    "these",
    "those",
    "am",
    "is",
    "are",
    "was",
    "were",
    "be",
    "been",
    "being",
    "have",
    "has",
    "had",
    "having",
    "do",
    "does",
    "did",
    "doing",
    "a",
    "an",
    "the",
    "and",
    "but",
    "if",
    "or",
    "because",
    "as",
    "until",
    "while",
    "of",
    "at",
    "by",
    "for",
    "with",
    "about",
    "against",
    "between",
    "into",
    "through",
    "during",
    "before",
    "after",
    "above",
    "below",
    "to",
    "from",
    "up",
    "down",
    "in",
    "out",
    "on",
    "off",
    "over",
    "under",
    "again",
    "further",
    "then",
    "once",
    "here",
    "there",
    "when",
    "where",
    "why",
    "how",
    "all",
    "any",
    "both",
    "each",
    "few",
    "more",
    "most",
    "other",
    "some",
    "such",
    "no",
    "nor",
    "not",
    "only",
    "own",
    "same",
    "so",
    "than",
    "too",
    "very",
    "s",
    "t",
    "can",
    "will",
    "just",
    "don",
    "should",
    "now",
];

/// A word, or words that must appear in this order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Term {
    Word(String),
    Phrase(Vec<String>),
}

impl Term {
    /// The words of the term.
    #[must_use]
    pub fn words(&self) -> &[String] {
        match self {
            Self::Word(word) => std::slice::from_ref(word),
            Self::Phrase(words) => words,
        }
    }
}

/// A parsed query: every group must match (AND), a group matches when any of its terms does
/// (OR), and no excluded term may match.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SearchQuery {
    pub groups: Vec<Vec<Term>>,
    pub excluded: Vec<Term>,
}

/// One token of the raw text.
#[derive(Debug)]
enum Token {
    Term { term: Term, negated: bool },
    Or,
}

/// Splits `text` into the words an engine's tokenizer would see: runs of letters and digits,
/// lowercased.
#[must_use]
pub fn words_of(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|word| !word.is_empty())
        .map(str::to_lowercase)
        .collect()
}

fn term_of(text: &str) -> Option<Term> {
    let mut words = words_of(text);
    words.retain(|word| !STOP_WORDS.contains(&word.as_str()));
    match words.len() {
        0 => None,
        1 => words.pop().map(Term::Word),
        _ => Some(Term::Phrase(words)),
    }
}

fn tokens(text: &str) -> Vec<Token> {
    let text: String = text.chars().take(MAX_QUERY_CHARS).collect();
    let mut tokens = Vec::new();
    let mut rest = text.as_str();
    loop {
        rest = rest.trim_start();
        if rest.is_empty() {
            break;
        }
        let negated = rest.starts_with('-') && rest.len() > 1 && !rest[1..].starts_with(' ');
        if negated {
            rest = &rest[1..];
        }
        if let Some(quoted) = rest.strip_prefix('"') {
            // A quote without its closing twin: the rest is plain words.
            let (inner, after) = match quoted.find('"') {
                Some(end) => (&quoted[..end], &quoted[end + 1..]),
                None => {
                    for word in words_of(quoted) {
                        tokens.push(Token::Term {
                            term: Term::Word(word),
                            negated: false,
                        });
                    }
                    break;
                }
            };
            if let Some(term) = term_of(inner) {
                tokens.push(Token::Term { term, negated });
            }
            rest = after;
            continue;
        }
        let end = rest
            .find(|c: char| c.is_whitespace() || c == '"')
            .unwrap_or(rest.len());
        let raw = &rest[..end];
        rest = &rest[end..];
        if raw == "OR" || raw == "or" || raw == "|" {
            tokens.push(Token::Or);
            continue;
        }
        // `c++` or `e-mail` are several words to an engine; a negated one excludes them all.
        if let Some(term) = term_of(raw) {
            tokens.push(Token::Term { term, negated });
        }
    }
    tokens
}

impl SearchQuery {
    /// Reads `text`; `None` when it holds no searchable word.
    #[must_use]
    pub fn parse(text: &str) -> Option<Self> {
        let mut groups: Vec<Vec<Term>> = Vec::new();
        let mut excluded = Vec::new();
        let mut join_next = false;
        let mut terms = 0;
        for token in tokens(text) {
            match token {
                // `OR` joins the next term to the group before; a leading or doubled one is
                // ignored.
                Token::Or => join_next = !groups.is_empty(),
                Token::Term { term, negated } => {
                    if terms == MAX_TERMS {
                        break;
                    }
                    terms += 1;
                    if negated {
                        excluded.push(term);
                        join_next = false;
                    } else if join_next {
                        if let Some(group) = groups.last_mut() {
                            group.push(term);
                        }
                        join_next = false;
                    } else {
                        groups.push(vec![term]);
                    }
                }
            }
        }
        if groups.is_empty() && excluded.is_empty() {
            None
        } else {
            Some(Self { groups, excluded })
        }
    }

    /// Whether anything must match (a query of exclusions only lists everything else).
    #[must_use]
    pub fn has_positive_terms(&self) -> bool {
        !self.groups.is_empty()
    }

    /// Every word that must or may match, for highlighting and segment matches.
    pub fn positive_terms(&self) -> impl Iterator<Item = &Term> {
        self.groups.iter().flatten()
    }

    /// The FTS5 `MATCH` string of the positive part: every word quoted, so nothing in it is
    /// FTS5 syntax.
    #[must_use]
    pub fn fts5_positive(&self) -> Option<String> {
        if self.groups.is_empty() {
            return None;
        }
        let groups: Vec<String> = self
            .groups
            .iter()
            .map(|group| {
                let terms: Vec<String> = group.iter().map(fts5_term).collect();
                if terms.len() == 1 {
                    terms.join("")
                } else {
                    format!("({})", terms.join(" OR "))
                }
            })
            .collect();
        let mut text = format!("({})", groups.join(" AND "));
        for term in &self.excluded {
            text.push_str(" NOT ");
            text.push_str(&fts5_term(term));
        }
        Some(text)
    }

    /// The FTS5 `MATCH` string of "any excluded term", for queries of exclusions only.
    #[must_use]
    pub fn fts5_excluded_any(&self) -> Option<String> {
        (!self.excluded.is_empty()).then(|| {
            self.excluded
                .iter()
                .map(fts5_term)
                .collect::<Vec<_>>()
                .join(" OR ")
        })
    }

    /// The text for PostgreSQL's `websearch_to_tsquery`, which reads the same syntax the user
    /// typed; rendered from the parsed terms, so both engines see the same query.
    #[must_use]
    pub fn websearch_positive(&self) -> Option<String> {
        let mut text = self.websearch_required()?;
        for term in &self.excluded {
            text.push_str(" -");
            text.push_str(&websearch_term(term));
        }
        Some(text)
    }

    /// The `websearch_to_tsquery` text of the required part alone, without the exclusions.
    #[must_use]
    pub fn websearch_required(&self) -> Option<String> {
        (!self.groups.is_empty()).then(|| {
            self.groups
                .iter()
                .map(|group| {
                    group
                        .iter()
                        .map(websearch_term)
                        .collect::<Vec<_>>()
                        .join(" or ")
                })
                .collect::<Vec<_>>()
                .join(" ")
        })
    }

    /// `websearch_to_tsquery` text of "any excluded term".
    #[must_use]
    pub fn websearch_excluded_any(&self) -> Option<String> {
        (!self.excluded.is_empty()).then(|| {
            self.excluded
                .iter()
                .map(websearch_term)
                .collect::<Vec<_>>()
                .join(" or ")
        })
    }
}

fn fts5_term(term: &Term) -> String {
    // Words hold only letters and digits, so no quote needs doubling.
    format!("\"{}\"", term.words().join(" "))
}

fn websearch_term(term: &Term) -> String {
    match term {
        Term::Word(word) => word.clone(),
        Term::Phrase(words) => format!("\"{}\"", words.join(" ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn word(text: &str) -> Term {
        Term::Word(text.to_owned())
    }

    #[test]
    fn words_phrases_or_and_exclusions_are_read() {
        let query = SearchQuery::parse(r#"soil "cover crops" compost OR mulch -weeds"#).unwrap();
        assert_eq!(
            query.groups,
            vec![
                vec![word("soil")],
                vec![Term::Phrase(vec!["cover".into(), "crops".into()])],
                vec![word("compost"), word("mulch")],
            ]
        );
        assert_eq!(query.excluded, vec![word("weeds")]);
        assert_eq!(
            query.fts5_positive().unwrap(),
            r#"("soil" AND "cover crops" AND ("compost" OR "mulch")) NOT "weeds""#
        );
        assert_eq!(
            query.websearch_positive().unwrap(),
            r#"soil "cover crops" compost or mulch -weeds"#
        );
    }

    #[test]
    fn malformed_input_degrades_to_plain_words() {
        for (text, words) in [
            (r#""unbalanced quote"#, vec!["unbalanced", "quote"]),
            ("river AND", vec!["river"]),
            ("c++", vec!["c"]),
            ("OR river OR", vec!["river"]),
            ("title:soil", vec!["title", "soil"]),
            ("NEAR(x y)", vec!["near", "x", "y"]),
            ("river*", vec!["river"]),
            ("\u{0}drop table", vec!["drop", "table"]),
        ] {
            let query = SearchQuery::parse(text).unwrap();
            let found: Vec<&str> = query
                .positive_terms()
                .flat_map(Term::words)
                .map(String::as_str)
                .collect();
            assert_eq!(found, words, "{text:?}");
            assert!(query.excluded.is_empty(), "{text:?}");
        }
    }

    #[test]
    fn nothing_searchable_is_no_query() {
        for text in ["", "   ", "\"\"", "+++", "OR", "- -", "the and of"] {
            assert_eq!(SearchQuery::parse(text), None, "{text:?}");
        }
    }

    #[test]
    fn exclusions_alone_are_kept_apart() {
        let query = SearchQuery::parse("-cafe -\"tea room\"").unwrap();
        assert!(!query.has_positive_terms());
        assert_eq!(query.fts5_positive(), None);
        assert_eq!(
            query.fts5_excluded_any().unwrap(),
            r#""cafe" OR "tea room""#
        );
        assert_eq!(
            query.websearch_excluded_any().unwrap(),
            r#"cafe or "tea room""#
        );
    }

    #[test]
    fn long_queries_are_cut_not_refused() {
        let text = "word ".repeat(1000);
        let query = SearchQuery::parse(&text).unwrap();
        assert_eq!(query.groups.len(), MAX_TERMS);
    }
}
