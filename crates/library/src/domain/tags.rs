//! Tag names: how they are cleaned and compared, and the sets the Vault can seed.
//!
//! Tags are rows per user, unique by their key: the name lowercased with its whitespace
//! collapsed, so "Soil", "soil" and " SOIL " are one tag, shown as first written.

use super::{MAX_NAME_CHARS, TOP_SCORE};

/// Tags one item may carry.
pub const MAX_TAGS_PER_ITEM: usize = 50;

/// `POST /api/library/system/init-tags`: a small general set a new Vault starts from.
pub const STARTER_TAGS: [&str; 12] = [
    "business",
    "education",
    "health",
    "history",
    "ideas",
    "interview",
    "lecture",
    "personal",
    "podcast",
    "research",
    "science",
    "technology",
];

/// The name of the tag that marks gwth level `level` (ADR 0012).
#[must_use]
pub fn gwth_tag(level: i32) -> String {
    format!("gwth-{level}")
}

/// The gwth level a tag name stands for, if it is one of the gwth tags.
#[must_use]
pub fn gwth_level_of(tag: &str) -> Option<i32> {
    tag.trim()
        .to_lowercase()
        .strip_prefix("gwth-")
        .and_then(|level| level.parse().ok())
        .filter(|level| (1..=TOP_SCORE).contains(level))
}

/// Every gwth tag, level 1 first.
#[must_use]
pub fn gwth_tags() -> Vec<String> {
    (1..=TOP_SCORE).map(gwth_tag).collect()
}

/// A tag as written, with its whitespace collapsed.
///
/// # Errors
/// An empty or too long name, with the message the client sees.
pub fn clean_tag(name: &str) -> Result<String, String> {
    let name = name.split_whitespace().collect::<Vec<_>>().join(" ");
    if name.is_empty() {
        return Err("tags must not be empty".into());
    }
    if name.chars().count() > MAX_NAME_CHARS {
        return Err(format!("tags must be at most {MAX_NAME_CHARS} characters"));
    }
    Ok(name)
}

/// The key two spellings of one tag share.
#[must_use]
pub fn tag_key(name: &str) -> String {
    name.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

/// `names` cleaned, with later spellings of a key already seen dropped.
///
/// # Errors
/// A bad name, or more than [`MAX_TAGS_PER_ITEM`].
pub fn clean_tags(names: &[String]) -> Result<Vec<String>, String> {
    let mut seen = std::collections::HashSet::new();
    let mut tags = Vec::new();
    for name in names {
        let name = clean_tag(name)?;
        if seen.insert(tag_key(&name)) {
            tags.push(name);
        }
    }
    if tags.len() > MAX_TAGS_PER_ITEM {
        return Err(format!("an item may have at most {MAX_TAGS_PER_ITEM} tags"));
    }
    Ok(tags)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spellings_of_one_tag_share_a_key_and_the_first_is_kept() {
        assert_eq!(tag_key("  Cover   Crops "), "cover crops");
        assert_eq!(
            clean_tags(&[
                "Soil".into(),
                "soil".into(),
                " SOIL ".into(),
                "compost".into()
            ]),
            Ok(vec!["Soil".to_owned(), "compost".to_owned()])
        );
        assert_eq!(
            clean_tags(&["  ".into()]),
            Err("tags must not be empty".to_owned())
        );
    }

    #[test]
    fn gwth_tags_name_their_level() {
        assert_eq!(
            gwth_tags(),
            ["gwth-1", "gwth-2", "gwth-3", "gwth-4", "gwth-5"]
        );
        assert_eq!(gwth_level_of("GWTH-3"), Some(3));
        assert_eq!(gwth_level_of("gwth-9"), None);
        assert_eq!(gwth_level_of("growth"), None);
    }
}
