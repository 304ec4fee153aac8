//! The markdown of a PDF, normalised by comrak: parsed as GitHub-flavoured markdown and
//! written back as CommonMark, so what is stored is valid, consistently formatted markdown
//! whatever the extractor produced.

use comrak::{Options, markdown_to_commonmark};

/// `raw` parsed and written back.
pub(super) fn normalise(raw: &str) -> String {
    let mut options = Options::default();
    options.extension.table = true;
    options.extension.strikethrough = true;
    options.extension.autolink = true;
    let mut out = markdown_to_commonmark(raw, &options);
    let trimmed = out.trim_end().len();
    out.truncate(trimmed);
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalises_and_keeps_structure() {
        let out =
            normalise("# Title\nSome *text*\n\n* one\n* two\n\n| a | b |\n|---|---|\n| 1 | 2 |\n");
        assert!(out.starts_with("# Title\n"), "{out}");
        assert!(out.contains("- one\n- two"), "{out}");
        assert!(out.contains("| a | b |"), "{out}");
        assert!(out.ends_with('\n') && !out.ends_with("\n\n"));
    }
}
