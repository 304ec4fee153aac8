//! Tag and rating suggestions without a remote model (notes §5).
//!
//! Keywords come from YAKE over the item's title and text. Tags are offered from the user's own
//! tags first: a tag whose words occur in the item (compared by their English stems, so the tag
//! "gardening" is found in "we garden"), or that a keyword spells nearly the same. Keywords
//! that are none of the user's tags come after, as new tags. The rating is the ratings of the
//! user's most similar items (by the search index), weighted by rank.

use std::collections::HashSet;

use rust_stemmers::{Algorithm, Stemmer};

use super::TOP_SCORE;
use super::tags::{gwth_level_of, tag_key};
use crate::search::words_of;

/// Tags offered at most.
pub const MAX_SUGGESTED_TAGS: usize = 5;
/// Keywords kept per item.
pub const KEYWORDS_PER_ITEM: usize = 10;
/// Text read for keywords: YAKE's cost grows with the text, and the start says enough.
const KEYWORD_TEXT_CHARS: usize = 60_000;
/// How alike a keyword and a tag must be spelled to be one (strsim's normalised Levenshtein).
const NEAR_SPELLING: f64 = 0.85;
/// A title word counts this many text words.
const TITLE_WEIGHT: usize = 3;
/// The rating offered when nothing is known.
const NEUTRAL_RATING: i32 = 3;

/// The item's keywords, best first, lowercased.
#[must_use]
pub fn keywords(title: &str, content: &str) -> Vec<String> {
    let mut text: String = format!("{title}.\n{content}");
    if let Some((cut, _)) = text.char_indices().nth(KEYWORD_TEXT_CHARS) {
        text.truncate(cut);
    }
    let Some(stop_words) = yake_rust::StopWords::predefined("en") else {
        return Vec::new();
    };
    let config = yake_rust::Config {
        ngrams: 2,
        ..yake_rust::Config::default()
    };
    yake_rust::get_n_best(KEYWORDS_PER_ITEM, &text, &stop_words, &config)
        .into_iter()
        .map(|result| result.keyword.to_lowercase())
        .filter(|keyword| keyword.chars().any(char::is_alphabetic))
        .collect()
}

struct Stems {
    stemmer: Stemmer,
}

impl Stems {
    fn new() -> Self {
        Self {
            stemmer: Stemmer::create(Algorithm::English),
        }
    }

    fn of(&self, text: &str) -> Vec<String> {
        words_of(text)
            .iter()
            .map(|word| self.stemmer.stem(word).into_owned())
            .collect()
    }
}

/// How often each stemmed word sequence of `phrase_stems` occurs in `stems`.
fn occurrences(stems: &[String], phrase_stems: &[String]) -> usize {
    if phrase_stems.is_empty() {
        return 0;
    }
    stems
        .windows(phrase_stems.len())
        .filter(|window| *window == phrase_stems)
        .count()
}

/// Tags to offer for an item: the user's own tags first, then new ones from the keywords; never
/// one the item has, never a gwth tag (the level is set on its own), at most
/// [`MAX_SUGGESTED_TAGS`].
#[must_use]
pub fn suggest_tags(
    title: &str,
    content: &str,
    keywords: &[String],
    user_tags: &[String],
    item_tags: &[String],
) -> Vec<String> {
    let stems = Stems::new();
    let title_stems = stems.of(title);
    let text_stems = stems.of(content);
    let keyword_stems: Vec<Vec<String>> = keywords.iter().map(|k| stems.of(k)).collect();
    let on_item: Vec<String> = item_tags.iter().map(|tag| tag_key(tag)).collect();

    let mut scored: Vec<(usize, &String)> = Vec::new();
    let mut claimed_keywords = vec![false; keywords.len()];
    for tag in user_tags {
        if on_item.contains(&tag_key(tag)) || gwth_level_of(tag).is_some() {
            continue;
        }
        let tag_stems = stems.of(tag);
        let mut score = TITLE_WEIGHT * occurrences(&title_stems, &tag_stems)
            + occurrences(&text_stems, &tag_stems);
        let key = tag_key(tag);
        for (index, keyword) in keywords.iter().enumerate() {
            let same = keyword_stems[index] == tag_stems
                || strsim::normalized_levenshtein(keyword, &key) >= NEAR_SPELLING;
            if same {
                claimed_keywords[index] = true;
                score += 2;
            }
        }
        if score > 0 {
            scored.push((score, tag));
        }
    }
    scored.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| tag_key(a.1).cmp(&tag_key(b.1))));
    let mut suggested: Vec<String> = scored.into_iter().map(|(_, tag)| tag.clone()).collect();
    suggested.truncate(MAX_SUGGESTED_TAGS);

    for (index, keyword) in keywords.iter().enumerate() {
        if suggested.len() == MAX_SUGGESTED_TAGS {
            break;
        }
        let key = tag_key(keyword);
        if claimed_keywords[index]
            || on_item.contains(&key)
            || suggested.iter().any(|tag| tag_key(tag) == key)
        {
            continue;
        }
        suggested.push(keyword.clone());
    }
    suggested
}

/// A 1–5 rating from the ratings of similar items (best match first, weighted 1, 1/2, 1/3…),
/// else the user's average, else 3.
#[must_use]
pub fn suggest_rating(similar: &[i32], user_average: Option<f64>) -> i32 {
    let estimate = if similar.is_empty() {
        user_average
    } else {
        let mut weighted = 0.0;
        let mut weights = 0.0;
        for (rank, rating) in similar.iter().enumerate() {
            let weight = 1.0 / (rank as f64 + 1.0);
            weighted += weight * f64::from(*rating);
            weights += weight;
        }
        Some(weighted / weights)
    };
    estimate.map_or(NEUTRAL_RATING, |value| {
        // Rounded to a whole score in 1..=5; the cast cannot overflow after the clamp.
        value.round().clamp(1.0, f64::from(TOP_SCORE)) as i32
    })
}

/// A search for items like one with these keywords: any of them.
#[must_use]
pub fn similarity_query(keywords: &[String]) -> String {
    let mut seen: HashSet<&str> = HashSet::new();
    keywords
        .iter()
        .filter(|keyword| seen.insert(keyword.as_str()))
        .map(|keyword| format!("\"{}\"", words_of(keyword).join(" ")))
        .collect::<Vec<_>>()
        .join(" OR ")
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = "We garden every spring. Gardening in raised beds keeps the soil warm, \
        and compost feeds the soil. Compost piles need air. Tomatoes and garlic grow well in \
        raised beds when the soil drains.";

    #[test]
    fn the_users_own_tags_come_first_even_in_another_form() {
        let keywords = keywords("Raised bed gardening", TEXT);
        assert!(!keywords.is_empty());
        let tags = suggest_tags(
            "Raised bed gardening",
            TEXT,
            &keywords,
            &["Gardening".into(), "Cooking".into(), "composting".into()],
            &[],
        );
        assert_eq!(tags[0], "Gardening", "{tags:?}");
        assert!(tags.contains(&"composting".to_owned()), "{tags:?}");
        assert!(!tags.contains(&"Cooking".to_owned()), "{tags:?}");
        assert!(
            !tags.iter().any(|tag| tag == "garden" || tag == "gardening"),
            "a keyword already covered by a tag is not offered again: {tags:?}"
        );
        assert!(tags.len() <= MAX_SUGGESTED_TAGS);
    }

    #[test]
    fn tags_the_item_has_and_gwth_tags_are_not_offered() {
        let keywords = keywords("Soil", TEXT);
        let tags = suggest_tags(
            "Soil",
            TEXT,
            &keywords,
            &["soil".into(), "gwth-2".into()],
            &["Soil".into()],
        );
        assert!(!tags.iter().any(|tag| tag_key(tag) == "soil"), "{tags:?}");
        assert!(!tags.iter().any(|tag| tag.starts_with("gwth")), "{tags:?}");
    }

    #[test]
    fn ratings_follow_the_most_similar_items() {
        assert_eq!(suggest_rating(&[5, 5, 1], None), 4);
        assert_eq!(suggest_rating(&[2], Some(5.0)), 2);
        assert_eq!(suggest_rating(&[], Some(4.4)), 4);
        assert_eq!(suggest_rating(&[], None), 3);
    }
}
