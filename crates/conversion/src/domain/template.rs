//! Templates: markdown with `{{title}}`, `{{content}}`, `{{date}}` and `{{source}}` (docs/product-spec.md §5).
//!
//! Substitution is one pass over the template, so a transcript that happens to contain
//! `{{title}}` is never substituted itself. Unknown placeholders stay as written (a user may
//! mean them literally) and are reported, so a typo such as `{{titel}}` is noticed.
//!
//! # Bounded work
//!
//! A template comes from the user (saved, or sent with a request), so what it costs to render
//! is bounded here, in the service, whatever the gateway checked (security review F3: a 66 KB
//! template of `{{content}}` × 6000 over a PDF of 200 KB of text built a 1.3 GB string):
//!
//! - a template is at most [`MAX_TEMPLATE_BYTES`];
//! - `{{content}}` may appear at most [`MAX_CONTENT_PLACEHOLDERS`] (once): the content is the
//!   one value whose size the user controls through the file (hundreds of MB of text from a
//!   large PDF), every extra copy multiplies the output, and no document needs its body
//!   twice. `{{title}}`, `{{date}}` and `{{source}}` are short and have real uses more than
//!   once (front matter, a heading, a footer), so each may appear up to
//!   [`MAX_SHORT_PLACEHOLDERS`] times;
//! - extra occurrences are refused with a message naming the limit rather than left literal:
//!   a template that silently renders differently from what its author wrote is worse than
//!   one refused when it is saved or sent;
//! - the rendered text is at most the content plus the template plus [`RENDER_HEADROOM_BYTES`]
//!   (room for the short values), and its size is computed before anything is built, so even
//!   an unexpectedly long title cannot make the service allocate more than that.

/// Largest template body, in bytes.
pub const MAX_TEMPLATE_BYTES: usize = 64 * 1024;

/// How many times `{{content}}` may appear in a template.
pub const MAX_CONTENT_PLACEHOLDERS: usize = 1;
/// How many times each of `{{title}}`, `{{date}}` and `{{source}}` may appear in a template.
pub const MAX_SHORT_PLACEHOLDERS: usize = 8;
/// What a rendered text may take beyond its content and its template.
pub const RENDER_HEADROOM_BYTES: usize = 64 * 1024;

/// The placeholders a template may use.
const KNOWN_PLACEHOLDERS: [&str; 4] = ["title", "content", "date", "source"];

/// Why a template cannot be used. Each message names the limit, as the user sees it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TemplateError {
    /// The template is over [`MAX_TEMPLATE_BYTES`].
    #[error("Template must be at most {} KB ({MAX_TEMPLATE_BYTES} bytes)", MAX_TEMPLATE_BYTES / 1024)]
    TooLarge,
    /// A placeholder appears more often than it may.
    #[error("{{{{{placeholder}}}}} may appear at most {} in a template", times(*.limit))]
    TooManyPlaceholders {
        placeholder: &'static str,
        limit: usize,
    },
    /// The rendered text would pass its cap (content + template + headroom).
    #[error("The converted document would be larger than {limit} bytes (its content, the template and {} KB more)", RENDER_HEADROOM_BYTES / 1024)]
    OutputTooLarge { limit: usize },
}

fn times(count: usize) -> String {
    match count {
        1 => "once".to_owned(),
        count => format!("{count} times"),
    }
}

/// The template used when the caller gives none: a title heading, a source/date line, the body.
pub const DEFAULT_TEMPLATE: &str =
    "# {{title}}\n\n*Source: {{source}} · {{date}}*\n\n{{content}}\n";

/// The values a template is filled with.
#[derive(Debug, Clone, Copy)]
pub struct TemplateValues<'a> {
    pub title: &'a str,
    pub content: &'a str,
    pub date: &'a str,
    pub source: &'a str,
}

impl TemplateValues<'_> {
    fn get(&self, name: &str) -> Option<&str> {
        match name {
            "title" => Some(self.title),
            "content" => Some(self.content),
            "date" => Some(self.date),
            "source" => Some(self.source),
            _ => None,
        }
    }
}

/// A template filled in, with the placeholders it did not know.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rendered {
    pub text: String,
    pub unknown_placeholders: Vec<String>,
}

/// A piece of a template: text kept as written, or a `{{ name }}` (`raw` as written).
enum Piece<'t> {
    Text(&'t str),
    Placeholder { name: &'t str, raw: &'t str },
}

/// Calls `visit` with each piece of `template`, in order. A `{{` without its `}}` is text.
fn for_each_piece<'t>(template: &'t str, mut visit: impl FnMut(Piece<'t>)) {
    let mut rest = template;
    while let Some(open) = rest.find("{{") {
        let after = &rest[open + 2..];
        let Some(close) = after.find("}}") else {
            break;
        };
        visit(Piece::Text(&rest[..open]));
        visit(Piece::Placeholder {
            name: after[..close].trim(),
            raw: &rest[open..open + 2 + close + 2],
        });
        rest = &after[close + 2..];
    }
    visit(Piece::Text(rest));
}

/// Checks that `template` may be used: its size and how often each placeholder appears.
/// Called for every template, saved or sent with a request, before anything is converted.
///
/// # Errors
/// [`TemplateError::TooLarge`] or [`TemplateError::TooManyPlaceholders`].
pub fn check(template: &str) -> Result<(), TemplateError> {
    if template.len() > MAX_TEMPLATE_BYTES {
        return Err(TemplateError::TooLarge);
    }
    let mut uses = [0_usize; KNOWN_PLACEHOLDERS.len()];
    for_each_piece(template, |piece| {
        if let Piece::Placeholder { name, .. } = piece
            && let Some(index) = KNOWN_PLACEHOLDERS.iter().position(|known| *known == name)
        {
            uses[index] += 1;
        }
    });
    for (placeholder, used) in KNOWN_PLACEHOLDERS.into_iter().zip(uses) {
        let limit = if placeholder == "content" {
            MAX_CONTENT_PLACEHOLDERS
        } else {
            MAX_SHORT_PLACEHOLDERS
        };
        if used > limit {
            return Err(TemplateError::TooManyPlaceholders { placeholder, limit });
        }
    }
    Ok(())
}

/// The most bytes rendering `template` with `content` may produce.
#[must_use]
pub fn output_limit(template: &str, content: &str) -> usize {
    content
        .len()
        .saturating_add(template.len())
        .saturating_add(RENDER_HEADROOM_BYTES)
}

/// Fills `template` with `values`. `{{ name }}` may have spaces inside the braces.
///
/// # Errors
/// The template fails [`check`], or the text would pass [`output_limit`]; its size is known
/// before anything is built, so a refused render allocates nothing.
pub fn render(template: &str, values: &TemplateValues<'_>) -> Result<Rendered, TemplateError> {
    check(template)?;
    let limit = output_limit(template, values.content);
    let mut size = 0_usize;
    for_each_piece(template, |piece| {
        let added = match piece {
            Piece::Text(text) => text.len(),
            Piece::Placeholder { name, raw } => values.get(name).unwrap_or(raw).len(),
        };
        size = size.saturating_add(added);
    });
    if size > limit {
        return Err(TemplateError::OutputTooLarge { limit });
    }
    let mut text = String::with_capacity(size);
    let mut unknown_placeholders: Vec<String> = Vec::new();
    for_each_piece(template, |piece| match piece {
        Piece::Text(literal) => text.push_str(literal),
        Piece::Placeholder { name, raw } => match values.get(name) {
            Some(value) => text.push_str(value),
            None => {
                text.push_str(raw);
                if !name.is_empty() && !unknown_placeholders.iter().any(|known| known == name) {
                    unknown_placeholders.push(name.to_owned());
                }
            }
        },
    });
    Ok(Rendered {
        text,
        unknown_placeholders,
    })
}

/// The placeholders of `template` that [`render`] would keep as written.
#[must_use]
pub fn unknown_placeholders(template: &str) -> Vec<String> {
    let mut unknown: Vec<String> = Vec::new();
    for_each_piece(template, |piece| {
        if let Piece::Placeholder { name, .. } = piece
            && !name.is_empty()
            && !KNOWN_PLACEHOLDERS.contains(&name)
            && !unknown.iter().any(|known| known == name)
        {
            unknown.push(name.to_owned());
        }
    });
    unknown
}

#[cfg(test)]
mod tests {
    use super::*;

    const VALUES: TemplateValues<'static> = TemplateValues {
        title: "Soil",
        content: "Body with {{title}} inside.",
        date: "2026-11-24",
        source: "talk.mp3",
    };

    #[test]
    fn default_template_has_a_heading_a_source_line_and_the_body() {
        let rendered = render(DEFAULT_TEMPLATE, &VALUES).unwrap();
        assert_eq!(
            rendered.text,
            "# Soil\n\n*Source: talk.mp3 · 2026-11-24*\n\nBody with {{title}} inside.\n"
        );
        assert!(rendered.unknown_placeholders.is_empty());
    }

    #[test]
    fn content_is_never_substituted_again() {
        let rendered = render("{{content}}", &VALUES).unwrap();
        assert_eq!(rendered.text, "Body with {{title}} inside.");
        assert!(rendered.unknown_placeholders.is_empty());
    }

    #[test]
    fn unknown_placeholders_stay_and_are_reported_once() {
        let rendered = render(
            "{{ title }} by {{author}} / {{author}} {{}} {{date",
            &VALUES,
        )
        .unwrap();
        assert_eq!(rendered.text, "Soil by {{author}} / {{author}} {{}} {{date");
        assert_eq!(rendered.unknown_placeholders, vec!["author".to_owned()]);
        assert_eq!(unknown_placeholders("{{titel}}{{source}}"), vec!["titel"]);
    }

    #[test]
    fn text_without_placeholders_is_unchanged() {
        assert_eq!(
            render("plain } { text", &VALUES).unwrap().text,
            "plain } { text"
        );
    }

    #[test]
    fn short_placeholders_may_repeat_up_to_their_limit() {
        let template = "{{title}} ".repeat(MAX_SHORT_PLACEHOLDERS) + "{{ content }}";
        let rendered = render(&template, &VALUES).unwrap();
        assert_eq!(
            rendered.text.matches("Soil").count(),
            MAX_SHORT_PLACEHOLDERS
        );
        let over = "{{date}}".repeat(MAX_SHORT_PLACEHOLDERS + 1);
        assert_eq!(
            render(&over, &VALUES).unwrap_err().to_string(),
            "{{date}} may appear at most 8 times in a template"
        );
    }

    /// F3: `{{content}}` × 6000 (66 KB) over 200 KB of text built a 1.3 GB string.
    #[test]
    fn the_amplification_template_is_refused_before_anything_is_built() {
        let content = "page 1 line 1 xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\n".repeat(4_400);
        assert!(content.len() > 200_000);
        let values = TemplateValues {
            content: &content,
            ..VALUES
        };
        let oversized = "{{content}}".repeat(6_000);
        assert_eq!(render(&oversized, &values), Err(TemplateError::TooLarge));
        assert_eq!(
            TemplateError::TooLarge.to_string(),
            "Template must be at most 64 KB (65536 bytes)"
        );
        // Within the size limit, the repeats are refused by name.
        let repeated = "{{content}}".repeat(5_000);
        assert!(repeated.len() <= MAX_TEMPLATE_BYTES);
        let error = render(&repeated, &values).unwrap_err();
        assert_eq!(
            error,
            TemplateError::TooManyPlaceholders {
                placeholder: "content",
                limit: 1
            }
        );
        assert_eq!(
            error.to_string(),
            "{{content}} may appear at most once in a template"
        );
        assert!(check("{{content}}\n{{ content }}").is_err());
    }

    #[test]
    fn the_rendered_text_is_capped() {
        // Eight copies of a 10 KB title pass content + template + 64 KiB.
        let title = "t".repeat(10 * 1024);
        let values = TemplateValues {
            title: &title,
            ..VALUES
        };
        let template = "{{title}}".repeat(MAX_SHORT_PLACEHOLDERS);
        let error = render(&template, &values).unwrap_err();
        assert!(
            matches!(error, TemplateError::OutputTooLarge { .. }),
            "{error}"
        );
        // Six fit.
        assert!(render(&"{{title}}".repeat(6), &values).is_ok());
    }
}
