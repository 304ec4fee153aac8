//! Exports: the file formats, the zip of several items, and the signed links that fetch them.

mod archive;
pub mod folder;
mod link;
mod subtitles;

use crate::domain::{LibraryItem, Segment};
use crate::store::ItemText;

pub use archive::write_zip;
pub use link::{LinkError, LinkSigner};
pub use subtitles::{srt, vtt};

/// Items one bulk export may hold.
pub const MAX_BULK_ITEMS: usize = 500;

/// What an item is exported as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExportFormat {
    /// YAML front matter and the text, ready for an Obsidian vault.
    Markdown,
    Txt,
    /// Metadata, text and segments.
    Json,
    /// Subtitles from an audio item's segments.
    Srt,
    Vtt,
}

impl ExportFormat {
    /// The client's spelling; empty means markdown.
    ///
    /// # Errors
    /// An unknown format, naming the known ones.
    pub fn parse(value: &str) -> Result<Self, String> {
        match value.trim().to_ascii_lowercase().as_str() {
            "" | "markdown" | "md" => Ok(Self::Markdown),
            "txt" | "text" => Ok(Self::Txt),
            "json" => Ok(Self::Json),
            "srt" => Ok(Self::Srt),
            "vtt" => Ok(Self::Vtt),
            other => Err(format!(
                "format must be markdown, txt, json, srt or vtt, not {other:?}"
            )),
        }
    }

    /// The stored spelling.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Markdown => "markdown",
            Self::Txt => "txt",
            Self::Json => "json",
            Self::Srt => "srt",
            Self::Vtt => "vtt",
        }
    }

    /// The file extension.
    #[must_use]
    pub fn extension(self) -> &'static str {
        match self {
            Self::Markdown => "md",
            Self::Txt => "txt",
            Self::Json => "json",
            Self::Srt => "srt",
            Self::Vtt => "vtt",
        }
    }

    /// The `Content-Type` of one exported file.
    #[must_use]
    pub fn content_type(self) -> &'static str {
        match self {
            Self::Markdown => "text/markdown; charset=utf-8",
            Self::Txt => "text/plain; charset=utf-8",
            Self::Json => "application/json",
            Self::Srt => "application/x-subrip; charset=utf-8",
            Self::Vtt => "text/vtt; charset=utf-8",
        }
    }

    /// Whether the format needs timed segments (audio items only).
    #[must_use]
    pub fn needs_segments(self) -> bool {
        matches!(self, Self::Srt | Self::Vtt)
    }
}

/// A file name made of `title`: letters, digits, spaces, `-`, `_` and `.` kept, the rest
/// dropped, at most 80 characters, never empty, never hidden.
#[must_use]
pub fn safe_file_stem(title: &str) -> String {
    let cleaned: String = title
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || matches!(c, '-' | '_' | '.') {
                c
            } else {
                ' '
            }
        })
        .collect();
    let stem: String = cleaned
        .split_whitespace()
        .filter(|word| !word.chars().all(|c| c == '.'))
        .collect::<Vec<_>>()
        .join(" ")
        .trim_matches('.')
        .chars()
        .take(80)
        .collect();
    let stem = stem.trim().to_owned();
    if stem.is_empty() {
        "untitled".to_owned()
    } else {
        stem
    }
}

/// `names` made unique by adding " (2)", " (3)"… before the extension of repeats
/// (compared case-insensitively, as some file systems do).
#[must_use]
pub fn unique_names(names: Vec<String>) -> Vec<String> {
    let mut seen = std::collections::HashSet::new();
    names
        .into_iter()
        .map(|name| {
            let (stem, extension) = name
                .rsplit_once('.')
                .map_or((name.clone(), String::new()), |(stem, ext)| {
                    (stem.to_owned(), format!(".{ext}"))
                });
            let mut candidate = name.clone();
            let mut counter = 1;
            while !seen.insert(candidate.to_lowercase()) {
                counter += 1;
                candidate = format!("{stem} ({counter}){extension}");
            }
            candidate
        })
        .collect()
}

fn yaml_string(value: &str) -> String {
    // A JSON string is a valid YAML double-quoted scalar, escapes included.
    serde_json::to_string(value).unwrap_or_else(|_| "\"\"".into())
}

fn front_matter(item: &LibraryItem) -> String {
    let mut yaml = String::from("---\n");
    yaml.push_str(&format!("title: {}\n", yaml_string(&item.title)));
    if !item.author.is_empty() {
        yaml.push_str(&format!("author: {}\n", yaml_string(&item.author)));
    }
    yaml.push_str(&format!(
        "source_type: {}\n",
        yaml_string(item.source_type.as_str())
    ));
    if let Some(url) = &item.source_url {
        yaml.push_str(&format!("source_url: {}\n", yaml_string(url)));
    }
    yaml.push_str(&format!("created: {}\n", item.created_at.to_rfc3339()));
    let tags: Vec<String> = item.tags.iter().map(|tag| yaml_string(tag)).collect();
    yaml.push_str(&format!("tags: [{}]\n", tags.join(", ")));
    if let Some(rating) = item.rating {
        yaml.push_str(&format!("rating: {rating}\n"));
    }
    if let Some(level) = item.gwth_level {
        yaml.push_str(&format!("gwth_level: {level}\n"));
    }
    yaml.push_str("---\n\n");
    yaml
}

/// The bytes of one item in `format`.
///
/// # Errors
/// Subtitles asked of an item without timed segments, with the message the client sees.
pub fn render(text: &ItemText, format: ExportFormat) -> Result<Vec<u8>, String> {
    if format.needs_segments() && text.segments.is_empty() {
        return Err(format!(
            "{:?} has no timed transcript, so it cannot be exported as {}",
            text.item.title,
            format.as_str()
        ));
    }
    Ok(match format {
        ExportFormat::Markdown => {
            let mut body = front_matter(&text.item);
            body.push_str(text.content.trim_end());
            body.push('\n');
            body.into_bytes()
        }
        ExportFormat::Txt => {
            let mut body = text.content.trim_end().to_owned();
            body.push('\n');
            body.into_bytes()
        }
        ExportFormat::Json => {
            let item = &text.item;
            let value = serde_json::json!({
                "id": item.id,
                "title": item.title,
                "author": item.author,
                "sourceType": item.source_type,
                "sourceUrl": item.source_url,
                "fileName": item.file_name,
                "createdAt": item.created_at.to_rfc3339(),
                "lastExported": item.last_exported.map(|at| at.to_rfc3339()),
                "isStarred": item.is_starred,
                "rating": item.rating,
                "gwthLevel": item.gwth_level,
                "tags": item.tags,
                "duration": item.duration_seconds,
                "content": text.content,
                "segments": text.segments.iter().map(ExportedSegment::from).collect::<Vec<_>>(),
            });
            serde_json::to_vec_pretty(&value).unwrap_or_default()
        }
        ExportFormat::Srt => srt(&text.segments).into_bytes(),
        ExportFormat::Vtt => vtt(&text.segments).into_bytes(),
    })
}

/// A segment in the JSON export: times in seconds, and each word's time when the transcript
/// has them (for players that highlight or seek by word).
#[derive(serde::Serialize)]
struct ExportedSegment<'a> {
    start: f64,
    end: f64,
    text: &'a str,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    words: Vec<ExportedWord<'a>>,
}

#[derive(serde::Serialize)]
struct ExportedWord<'a> {
    start: f64,
    end: f64,
    word: &'a str,
    probability: f32,
}

#[allow(clippy::cast_precision_loss)] // milliseconds of audio, far below 2^52
fn seconds(ms: i64) -> f64 {
    ms as f64 / 1000.0
}

impl<'a> From<&'a Segment> for ExportedSegment<'a> {
    fn from(segment: &'a Segment) -> Self {
        Self {
            start: seconds(segment.start_ms),
            end: seconds(segment.end_ms),
            text: &segment.text,
            words: segment
                .words
                .iter()
                .map(|word| ExportedWord {
                    start: seconds(word.start_ms),
                    end: seconds(word.end_ms),
                    word: &word.text,
                    probability: word.probability,
                })
                .collect(),
        }
    }
}

/// The file name of one item exported as `format`.
#[must_use]
pub fn file_name(item: &LibraryItem, format: ExportFormat) -> String {
    format!("{}.{}", safe_file_stem(&item.title), format.extension())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_names_are_safe_and_unique() {
        assert_eq!(safe_file_stem("../../etc/passwd"), "etc passwd");
        assert_eq!(safe_file_stem("Soil: a <primer>?"), "Soil a primer");
        assert_eq!(safe_file_stem("///"), "untitled");
        assert_eq!(safe_file_stem(".hidden"), "hidden");
        assert_eq!(
            unique_names(vec![
                "a.md".into(),
                "A.md".into(),
                "a.md".into(),
                "b.md".into()
            ]),
            ["a.md", "A (2).md", "a (3).md", "b.md"]
        );
    }

    #[test]
    fn json_segments_carry_their_word_times_in_seconds() {
        let segment = Segment {
            start_ms: 1_500,
            end_ms: 3_000,
            text: "Good bread".into(),
            words: vec![
                scribevault_bus::contract::TranscriptWord {
                    start_ms: 1_500,
                    end_ms: 2_000,
                    text: "Good".into(),
                    probability: 0.5,
                },
                scribevault_bus::contract::TranscriptWord {
                    start_ms: 2_100,
                    end_ms: 3_000,
                    text: "bread".into(),
                    probability: 0.25,
                },
            ],
        };
        let json = serde_json::to_value(ExportedSegment::from(&segment)).unwrap();
        assert_eq!(
            json,
            serde_json::json!({
                "start": 1.5, "end": 3.0, "text": "Good bread",
                "words": [
                    {"start": 1.5, "end": 2.0, "word": "Good", "probability": 0.5},
                    {"start": 2.1, "end": 3.0, "word": "bread", "probability": 0.25},
                ],
            })
        );
        let without = Segment {
            words: Vec::new(),
            ..segment
        };
        let json = serde_json::to_value(ExportedSegment::from(&without)).unwrap();
        assert!(json.get("words").is_none(), "{json}");
    }

    #[test]
    fn formats_are_read_with_markdown_as_the_default() {
        assert_eq!(ExportFormat::parse(""), Ok(ExportFormat::Markdown));
        assert_eq!(ExportFormat::parse("SRT"), Ok(ExportFormat::Srt));
        assert!(ExportFormat::parse("docx").unwrap_err().contains("docx"));
    }
}
