//! Highlighted snippets made safe for HTML.
//!
//! Both engines return stored text as it is (a `<script>` in a title comes back unchanged), so
//! they mark hits with two private-use characters instead of tags; the text is escaped and only
//! then are those characters turned into `<mark>` and `</mark>`.

/// Where a hit starts, as the engines are told to mark it.
pub const MARK_START: char = '\u{E000}';
/// Where a hit ends.
pub const MARK_END: char = '\u{E001}';

/// `text` HTML-escaped, with the engine's marks as `<mark>…</mark>`.
#[must_use]
pub fn marked_html(text: &str) -> String {
    let mut html = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        match c {
            '&' => html.push_str("&amp;"),
            '<' => html.push_str("&lt;"),
            '>' => html.push_str("&gt;"),
            '"' => html.push_str("&quot;"),
            '\'' => html.push_str("&#39;"),
            MARK_START => html.push_str("<mark>"),
            MARK_END => html.push_str("</mark>"),
            c => html.push(c),
        }
    }
    html
}

/// Whether the engine marked anything in `text`.
#[must_use]
pub fn has_mark(text: &str) -> bool {
    text.contains(MARK_START)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_is_escaped_and_only_the_marks_become_tags() {
        assert_eq!(
            marked_html("<script>alert('x')</script> \u{E000}soil\u{E001} & \"more\""),
            "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; <mark>soil</mark> &amp; &quot;more&quot;"
        );
        assert!(has_mark("a \u{E000}b\u{E001}"));
        assert!(!has_mark("a b"));
    }
}
