//! What conversion works with, free of sea-orm, tonic and the PDF engine: the types here, the
//! users' templates and their rendering (`template.rs`), and the paragraphs a transcript is
//! formed into (`paragraphs.rs`).

pub mod paragraphs;
pub mod template;

use chrono::{DateTime, Utc};

pub use template::MAX_TEMPLATE_BYTES;

/// Most transcripts one batch converts (as many as a bulk upload holds).
pub const MAX_TRANSCRIPTS_PER_BATCH: usize = 100;
/// Longest template name, in characters.
pub const MAX_TEMPLATE_NAME_CHARS: usize = 100;

/// A user's saved template.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Template {
    pub id: String,
    pub name: String,
    pub body: String,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

/// A template's name and body, checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TemplateInput {
    pub name: String,
    pub body: String,
}

impl TemplateInput {
    /// Checks the limits of a template.
    ///
    /// # Errors
    /// A message naming what is wrong.
    pub fn new(name: &str, body: String) -> Result<Self, String> {
        let name = name.trim();
        if name.is_empty() {
            return Err("Template name is required".to_owned());
        }
        if name.chars().count() > MAX_TEMPLATE_NAME_CHARS {
            return Err(format!(
                "Template name must be at most {MAX_TEMPLATE_NAME_CHARS} characters"
            ));
        }
        if body.trim().is_empty() {
            return Err("Template body is required".to_owned());
        }
        if body.len() > MAX_TEMPLATE_BYTES {
            return Err(format!(
                "Template body must be at most {} KB",
                MAX_TEMPLATE_BYTES / 1024
            ));
        }
        // A saved template is refused now rather than at every conversion that uses it.
        template::check(&body).map_err(|error| error.to_string())?;
        Ok(Self {
            name: name.to_owned(),
            body,
        })
    }
}

/// One transcript a batch asks to convert.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TranscriptToConvert {
    /// The caller's id for it (a transcription file id), echoed back.
    pub id: String,
    pub title: String,
    /// The stored transcript, e.g. `transcripts/….txt`.
    pub transcript_path: String,
}

/// A converted transcript.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConvertedTranscript {
    pub id: String,
    pub markdown_path: String,
    pub content: String,
}

/// A transcript of a batch that could not be converted, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConversionFailure {
    pub id: String,
    pub message: String,
}

/// What a batch answers: each transcript converted or failed on its own.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TranscriptBatch {
    pub results: Vec<ConvertedTranscript>,
    pub failed: Vec<ConversionFailure>,
    pub unknown_placeholders: Vec<String>,
}

/// A converted PDF, stored beside its original.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PdfConversion {
    /// The conversion's id (its files' name), or the Vault item's id when reprocessed.
    pub id: String,
    pub title: String,
    pub content: String,
    pub markdown_path: String,
    pub pdf_path: String,
    pub pages: u32,
    /// 1-based pages without a text layer; after OCR, the ones it could not read.
    pub ocr_pages: Vec<u32>,
    pub unknown_placeholders: Vec<String>,
}

/// The folder of a user's objects that conversion owns: every converted file (transcripts'
/// markdown, and each PDF with its markdown and name).
pub const CONVERTED_ROOT: &str = "converted/";

/// What deleting a user's data removed.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct DeletedUserData {
    /// Database rows: the user's templates.
    pub rows: u64,
    /// Stored objects: the user's converted files.
    pub blobs: u64,
}

/// Where the converted files of a PDF live: the original is kept beside its markdown, so a
/// Vault item made from the markdown can be converted again (premium OCR).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PdfPaths {
    pub markdown: String,
    pub original: String,
    /// The uploaded file's name as the markdown's `{{source}}` showed it, so that a premium
    /// reprocess can show it again.
    pub source_name: String,
}

impl PdfPaths {
    /// The folder of converted PDFs (the library gives items saved from it `sourceType` PDF).
    pub const FOLDER: &'static str = "converted/pdfs/";

    /// The paths of conversion `id`.
    #[must_use]
    pub fn of(id: &str) -> Self {
        Self {
            markdown: format!("{}{id}.md", Self::FOLDER),
            original: format!("{}{id}.pdf", Self::FOLDER),
            source_name: format!("{}{id}.name", Self::FOLDER),
        }
    }

    /// The paths a Vault item's file name stands for, if it was made from a converted PDF.
    #[must_use]
    pub fn of_markdown(markdown_path: &str) -> Option<Self> {
        let id = markdown_path
            .strip_prefix(Self::FOLDER)?
            .strip_suffix(".md")?;
        (!id.is_empty() && !id.contains('/')).then(|| Self::of(id))
    }

    /// The conversion id in these paths.
    #[must_use]
    pub fn id(&self) -> &str {
        self.markdown
            .strip_prefix(Self::FOLDER)
            .and_then(|rest| rest.strip_suffix(".md"))
            .unwrap_or_default()
    }
}

/// Where a transcript's converted markdown is written: one file per transcript, so converting
/// it again replaces it (and a Vault item saved from that path is updated, not duplicated).
#[must_use]
pub fn transcript_markdown_path(transcript_path: &str) -> String {
    let file = transcript_path
        .rsplit('/')
        .next()
        .unwrap_or(transcript_path);
    let stem = file
        .strip_suffix(".txt")
        .or_else(|| file.strip_suffix(".md"))
        .unwrap_or(file);
    format!("converted/transcripts/{stem}.md")
}

/// The timed segments the worker wrote beside a transcript (`….segments.json`).
#[must_use]
pub fn segments_path(transcript_path: &str) -> Option<String> {
    transcript_path
        .strip_suffix(".txt")
        .or_else(|| transcript_path.strip_suffix(".md"))
        .map(|base| format!("{base}.segments.json"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn template_limits() {
        assert!(TemplateInput::new("  ", "# {{title}}".into()).is_err());
        assert!(TemplateInput::new("Notes", " \n".into()).is_err());
        assert!(TemplateInput::new(&"n".repeat(101), "x".into()).is_err());
        assert!(TemplateInput::new("Notes", "x".repeat(MAX_TEMPLATE_BYTES + 1)).is_err());
        assert_eq!(
            TemplateInput::new("Notes", "{{content}}{{content}}".into()),
            Err("{{content}} may appear at most once in a template".to_owned())
        );
        assert_eq!(
            TemplateInput::new(" Notes ", "# {{title}}".into())
                .unwrap()
                .name,
            "Notes"
        );
    }

    #[test]
    fn converted_pdf_paths_round_trip() {
        let paths = PdfPaths::of("abc");
        assert_eq!(paths.markdown, "converted/pdfs/abc.md");
        assert_eq!(paths.original, "converted/pdfs/abc.pdf");
        assert_eq!(paths.source_name, "converted/pdfs/abc.name");
        assert_eq!(
            PdfPaths::of_markdown("converted/pdfs/abc.md"),
            Some(paths.clone())
        );
        assert_eq!(paths.id(), "abc");
        for other in [
            "converted/transcripts/abc.md",
            "converted/pdfs/a/b.md",
            "converted/pdfs/.md",
            "notes.md",
        ] {
            assert_eq!(PdfPaths::of_markdown(other), None, "{other}");
        }
    }

    #[test]
    fn transcript_paths() {
        assert_eq!(
            transcript_markdown_path("transcripts/0193-x.txt"),
            "converted/transcripts/0193-x.md"
        );
        assert_eq!(
            segments_path("transcripts/0193-x.txt").as_deref(),
            Some("transcripts/0193-x.segments.json")
        );
        assert_eq!(segments_path("transcripts/0193-x"), None);
    }
}
