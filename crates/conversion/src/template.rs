//! Templates: markdown with `{{title}}`, `{{content}}`, `{{date}}` and `{{source}}` (spec §5).
//!
//! Substitution is one pass over the template, so a transcript that happens to contain
//! `{{title}}` is never substituted itself. Unknown placeholders stay as written (a user may
//! mean them literally) and are reported, so a typo such as `{{titel}}` is noticed.

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

/// Fills `template` with `values`. `{{ name }}` may have spaces inside the braces.
#[must_use]
pub fn render(template: &str, values: &TemplateValues<'_>) -> Rendered {
    let mut text = String::with_capacity(template.len() + values.content.len());
    let mut unknown_placeholders: Vec<String> = Vec::new();
    let mut rest = template;
    while let Some(open) = rest.find("{{") {
        text.push_str(&rest[..open]);
        let after = &rest[open + 2..];
        let Some(close) = after.find("}}") else {
            rest = &rest[open..];
            break;
        };
        let name = after[..close].trim();
        match values.get(name) {
            Some(value) => text.push_str(value),
            None => {
                text.push_str(&rest[open..open + 2 + close + 2]);
                if !name.is_empty() && !unknown_placeholders.iter().any(|known| known == name) {
                    unknown_placeholders.push(name.to_owned());
                }
            }
        }
        rest = &after[close + 2..];
    }
    text.push_str(rest);
    Rendered {
        text,
        unknown_placeholders,
    }
}

/// The placeholders of `template` that [`render`] would keep as written.
#[must_use]
pub fn unknown_placeholders(template: &str) -> Vec<String> {
    render(
        template,
        &TemplateValues {
            title: "",
            content: "",
            date: "",
            source: "",
        },
    )
    .unknown_placeholders
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
        let rendered = render(DEFAULT_TEMPLATE, &VALUES);
        assert_eq!(
            rendered.text,
            "# Soil\n\n*Source: talk.mp3 · 2026-11-24*\n\nBody with {{title}} inside.\n"
        );
        assert!(rendered.unknown_placeholders.is_empty());
    }

    #[test]
    fn content_is_never_substituted_again() {
        let rendered = render("{{content}}", &VALUES);
        assert_eq!(rendered.text, "Body with {{title}} inside.");
        assert!(rendered.unknown_placeholders.is_empty());
    }

    #[test]
    fn unknown_placeholders_stay_and_are_reported_once() {
        let rendered = render(
            "{{ title }} by {{author}} / {{author}} {{}} {{date",
            &VALUES,
        );
        assert_eq!(rendered.text, "Soil by {{author}} / {{author}} {{}} {{date");
        assert_eq!(rendered.unknown_placeholders, vec!["author".to_owned()]);
        assert_eq!(unknown_placeholders("{{titel}}{{source}}"), vec!["titel"]);
    }

    #[test]
    fn text_without_placeholders_is_unchanged() {
        assert_eq!(render("plain } { text", &VALUES).text, "plain } { text");
    }
}
