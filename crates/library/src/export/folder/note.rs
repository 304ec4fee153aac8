//! One item as files of the folder: its note (YAML front matter and the text) and the
//! attachments beside it, with the names they get.

use chrono::{DateTime, SecondsFormat, Utc};
use serde::{Deserialize, Serialize};

use crate::domain::LibraryItem;
use crate::export::{ExportedSegment, srt, vtt};
use crate::store::ItemText;

/// The folder under the export's root that holds every attachment, so the notes stay the
/// only files at the top (Obsidian lists the root first).
pub const ATTACHMENTS_DIR: &str = "attachments";

/// Longest slug kept from a title (characters), so a name stays readable in Obsidian's file
/// list and far below every file system's 255-byte limit with its suffix and extension.
const MAX_SLUG_CHARS: usize = 60;

/// Characters of the item's id in a file name: 8 random hex digits make a repeat between
/// two items of one user with the same title about one in four billion; a repeat all the same
/// takes the whole id (`ExportFolder::stem_for`).
pub const SHORT_ID_CHARS: usize = 8;

/// The front matter of a note: what Obsidian shows as the note's properties and Dataview
/// queries. The names are the zip export's (`source_type`, `gwth_level`, `created`, …), so
/// queries written for one export work on the other; the rest are what only a folder that is
/// kept up to date needs (`id`, `updated`, `aliases`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NoteFrontMatter {
    pub title: String,
    /// The current title, so `[[Title]]` links resolve although the file keeps the name it was
    /// first exported with.
    pub aliases: Vec<String>,
    /// The item's id in Scribevault: what ties the note to its item across renames.
    pub id: String,
    pub source_type: String,
    /// The channel or author, when the item has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub author: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source_url: Option<String>,
    /// RFC 3339, UTC, to the second.
    pub created: String,
    /// When the item's metadata or text last changed (RFC 3339, UTC, to the second).
    pub updated: String,
    /// Obsidian tags: see [`obsidian_tag`].
    pub tags: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rating: Option<i32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gwth_level: Option<i32>,
    pub starred: bool,
    /// Audio length, whole seconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub duration_seconds: Option<u64>,
    /// The syllabus section the item is in.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub section: Option<String>,
}

/// What an attachment holds, which decides its extension and its link's text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AttachmentKind {
    /// SubRip subtitles from the timed segments.
    Srt,
    /// WebVTT subtitles from the timed segments.
    Vtt,
    /// The timed segments (and word times) as JSON, in the zip export's segment format.
    Segments,
    /// The PDF a converted item was made from.
    OriginalPdf,
}

impl AttachmentKind {
    fn extension(self) -> &'static str {
        match self {
            Self::Srt => "srt",
            Self::Vtt => "vtt",
            Self::Segments => "segments.json",
            Self::OriginalPdf => "pdf",
        }
    }

    fn label(self) -> &'static str {
        match self {
            Self::Srt => "Subtitles (SRT)",
            Self::Vtt => "Subtitles (WebVTT)",
            Self::Segments => "Timed transcript (JSON)",
            Self::OriginalPdf => "Original PDF",
        }
    }

    /// The attachment's path in the folder, for the note named `stem`.
    #[must_use]
    pub fn path(self, stem: &str) -> String {
        format!("{ATTACHMENTS_DIR}/{stem}.{}", self.extension())
    }
}

/// The path of a note in the folder.
#[must_use]
pub fn note_path(stem: &str) -> String {
    format!("{stem}.md")
}

/// A slug of `title`: lowercase letters and digits (any script) joined by `-`, at most
/// [`MAX_SLUG_CHARS`], `untitled` when nothing is left. No `.`, `/`, `\` or other
/// punctuation survives, so no slug names a parent, a hidden file or another folder, and none
/// holds what breaks an Obsidian link (`#`, `^`, `[`, `]`, `|`).
#[must_use]
pub fn slug(title: &str) -> String {
    let mut slug = String::new();
    for character in title.chars().flat_map(char::to_lowercase) {
        if character.is_alphanumeric() {
            slug.push(character);
        } else if !slug.is_empty() && !slug.ends_with('-') {
            slug.push('-');
        }
    }
    let slug: String = slug.chars().take(MAX_SLUG_CHARS).collect();
    let slug = slug.trim_end_matches('-');
    if slug.is_empty() {
        "untitled".to_owned()
    } else {
        slug.to_owned()
    }
}

/// The last `chars` letters and digits of an item id: ids are UUIDv7, whose first digits are
/// the creation time (items made in the same minute share them) and whose last ones are
/// random. Only ASCII letters and digits are kept, so the name stays safe whatever an id holds.
#[must_use]
pub fn id_part(id: &str, chars: usize) -> String {
    let kept: Vec<char> = id
        .chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_lowercase())
        .collect();
    kept[kept.len().saturating_sub(chars)..].iter().collect()
}

/// A tag as Obsidian accepts it: no spaces (they become `-`), only letters, digits, `_`, `-`
/// and `/` (nesting), not only digits (`_` goes in front); `None` when nothing is left.
#[must_use]
pub fn obsidian_tag(tag: &str) -> Option<String> {
    let mut cleaned = String::new();
    for character in tag.trim().trim_start_matches('#').chars() {
        if character.is_alphanumeric() || matches!(character, '_' | '/') {
            cleaned.push(character);
        } else if (character.is_whitespace() || character == '-')
            && !cleaned.is_empty()
            && !cleaned.ends_with('-')
        {
            cleaned.push('-');
        }
    }
    let cleaned = cleaned.trim_matches(['-', '/']).to_owned();
    if cleaned.is_empty() {
        None
    } else if cleaned.chars().all(|c| c.is_ascii_digit()) {
        Some(format!("_{cleaned}"))
    } else {
        Some(cleaned)
    }
}

fn timestamp(at: DateTime<Utc>) -> String {
    at.to_rfc3339_opts(SecondsFormat::Secs, true)
}

/// The front matter of `item`.
#[must_use]
pub fn front_matter(
    item: &LibraryItem,
    updated_at: DateTime<Utc>,
    section: Option<&str>,
) -> NoteFrontMatter {
    let mut tags: Vec<String> = Vec::new();
    for tag in item.tags.iter().filter_map(|tag| obsidian_tag(tag)) {
        if !tags.iter().any(|seen| seen.eq_ignore_ascii_case(&tag)) {
            tags.push(tag);
        }
    }
    NoteFrontMatter {
        title: item.title.clone(),
        aliases: vec![item.title.clone()],
        id: item.id.clone(),
        source_type: item.source_type.as_str().to_owned(),
        author: Some(item.author.clone()).filter(|author| !author.trim().is_empty()),
        source_url: item.source_url.clone(),
        created: timestamp(item.created_at),
        updated: timestamp(updated_at.max(item.created_at)),
        tags,
        rating: item.rating,
        gwth_level: item.gwth_level,
        starred: item.is_starred,
        duration_seconds: item
            .duration_seconds
            .filter(|seconds| seconds.is_finite() && *seconds >= 0.0)
            // Whole seconds of audio: far inside u64, and never negative (filtered above).
            .map(|seconds| {
                #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
                let whole = seconds.round() as u64;
                whole
            }),
        section: section.map(str::to_owned),
    }
}

/// The note of an item: front matter, the item's text as the zip export has it, and a link
/// to each attachment.
///
/// # Errors
/// The front matter could not be written as YAML (it is plain strings and numbers, so this
/// would be a bug in the YAML crate).
pub fn render_note(
    front_matter: &NoteFrontMatter,
    content: &str,
    stem: &str,
    attachments: &[AttachmentKind],
) -> Result<Vec<u8>, serde_norway::Error> {
    let mut note = String::from("---\n");
    note.push_str(&serde_norway::to_string(front_matter)?);
    note.push_str("---\n\n");
    note.push_str(content.trim_end());
    note.push('\n');
    if !attachments.is_empty() {
        note.push_str("\n## Attachments\n\n");
        for kind in attachments {
            note.push_str(&format!("- [{}]({})\n", kind.label(), kind.path(stem)));
        }
    }
    Ok(note.into_bytes())
}

/// The attachments made from the item's own rows (subtitles and segments, for timed
/// transcripts), with their bytes.
#[must_use]
pub fn text_attachments(text: &ItemText) -> Vec<(AttachmentKind, Vec<u8>)> {
    if text.segments.is_empty() {
        return Vec::new();
    }
    let segments: Vec<ExportedSegment<'_>> =
        text.segments.iter().map(ExportedSegment::from).collect();
    vec![
        (AttachmentKind::Srt, srt(&text.segments).into_bytes()),
        (AttachmentKind::Vtt, vtt(&text.segments).into_bytes()),
        (
            AttachmentKind::Segments,
            serde_json::to_vec_pretty(&segments).unwrap_or_default(),
        ),
    ]
}

/// The client path of the PDF a converted item was made from, given the item's `file_name`:
/// conversion keeps it beside the markdown it saved to the Vault (`converted/pdfs/<id>.md` and
/// `<id>.pdf`).
#[must_use]
pub fn original_pdf_path(file_name: Option<&str>) -> Option<String> {
    let markdown = file_name?;
    let stem = markdown
        .strip_prefix("converted/pdfs/")?
        .strip_suffix(".md")?;
    (!stem.is_empty() && !stem.contains('/')).then(|| format!("converted/pdfs/{stem}.pdf"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slugs_keep_letters_of_any_script_and_nothing_that_escapes() {
        assert_eq!(slug("Soil: a <primer>?"), "soil-a-primer");
        assert_eq!(slug("../../etc/passwd"), "etc-passwd");
        assert_eq!(slug("Über Brot & Salz"), "über-brot-salz");
        assert_eq!(slug("///"), "untitled");
        assert_eq!(
            slug(".hidden [[link]] #tag ^block|x"),
            "hidden-link-tag-block-x"
        );
        assert_eq!(slug(&"a".repeat(200)).len(), MAX_SLUG_CHARS);
    }

    #[test]
    fn id_parts_are_hex_digits_only() {
        assert_eq!(
            id_part("0193a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b", SHORT_ID_CHARS),
            "2e3f4a5b"
        );
        assert_eq!(id_part("../x", 8), "x");
        assert_eq!(id_part("ab-cd", usize::MAX), "abcd");
    }

    #[test]
    fn tags_become_what_obsidian_accepts() {
        assert_eq!(
            obsidian_tag("machine learning"),
            Some("machine-learning".into())
        );
        assert_eq!(obsidian_tag("#gwth-3"), Some("gwth-3".into()));
        assert_eq!(obsidian_tag("talks \"live\""), Some("talks-live".into()));
        assert_eq!(obsidian_tag("area/soil"), Some("area/soil".into()));
        assert_eq!(obsidian_tag("1984"), Some("_1984".into()));
        assert_eq!(obsidian_tag(" !? "), None);
    }

    #[test]
    fn only_a_converted_pdf_has_an_original() {
        assert_eq!(
            original_pdf_path(Some("converted/pdfs/abc.md")).as_deref(),
            Some("converted/pdfs/abc.pdf")
        );
        assert_eq!(original_pdf_path(Some("converted/pdfs/a/b.md")), None);
        assert_eq!(original_pdf_path(Some("converted/pdfs/.md")), None);
        assert_eq!(original_pdf_path(Some("transcripts/j/f.md")), None);
        assert_eq!(original_pdf_path(None), None);
    }
}
