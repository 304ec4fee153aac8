//! The user's template filled in. The input is the template, then the title, content, date and
//! source, separated by NUL bytes; the rendered text must stay within its cap.
#![no_main]

use libfuzzer_sys::fuzz_target;
#[allow(dead_code)]
#[path = "../../crates/conversion/src/domain/template.rs"]
mod template;

use template::{TemplateValues, output_limit, render as render_template};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let mut parts = text.split('\0');
    let template = parts.next().unwrap_or_default();
    let values = TemplateValues {
        title: parts.next().unwrap_or_default(),
        content: parts.next().unwrap_or_default(),
        date: parts.next().unwrap_or_default(),
        source: parts.next().unwrap_or_default(),
    };
    let Ok(rendered) = render_template(template, &values) else {
        return;
    };
    let limit = output_limit(template, values.content);
    assert!(
        rendered.text.len() <= limit,
        "{} bytes rendered, cap {limit}",
        rendered.text.len()
    );
    if !template.contains("{{") {
        assert_eq!(
            rendered.text, template,
            "a template without placeholders is kept"
        );
    }
});
