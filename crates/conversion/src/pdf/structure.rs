//! What unpdf's model leaves to its caller: running headers and footers, paragraphs cut in
//! two by a page break, the title, and where OCR text goes.

use std::collections::HashMap;

use unpdf::{Block, Document, InlineContent, Paragraph, TextRun};

/// Blocks this close to a page's top or bottom may be running headers or footers.
const EDGE_BLOCKS: usize = 2;
/// A running line is short; a long block at the edge is body text.
const MAX_RUNNING_LINE_CHARS: usize = 120;

/// Applies every rule of this module to `document`.
pub(super) fn tidy(document: &mut Document) {
    drop_running_lines(document);
    join_paragraphs_across_pages(document);
}

/// A running line's identity: case, spacing and numbers ignored, so "Page 3 of 9" and
/// "Page 4 of 9" are one line.
fn running_key(paragraph: &Paragraph) -> Option<String> {
    if paragraph.is_heading() || paragraph.is_list_item() {
        return None;
    }
    let text = paragraph.plain_text();
    let text = text.trim();
    if text.is_empty() || text.chars().count() > MAX_RUNNING_LINE_CHARS {
        return None;
    }
    let key: String = text
        .chars()
        .map(|c| {
            if c.is_ascii_digit() {
                '#'
            } else {
                c.to_ascii_lowercase()
            }
        })
        .collect::<String>()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    Some(key)
}

fn edge_indices(len: usize) -> impl Iterator<Item = usize> {
    let top = 0..len.min(EDGE_BLOCKS);
    let bottom = len.saturating_sub(EDGE_BLOCKS).max(len.min(EDGE_BLOCKS))..len;
    top.chain(bottom)
}

/// Removes the short lines that stand at the top or bottom of most pages: running titles,
/// chapter names, "Page N of M". (unpdf already leaves bare page numbers out.)
fn drop_running_lines(document: &mut Document) {
    let pages = document.pages.len();
    if pages < 2 {
        return;
    }
    let mut pages_with: HashMap<String, usize> = HashMap::new();
    for page in &document.pages {
        let mut seen: Vec<String> = Vec::new();
        for index in edge_indices(page.elements.len()) {
            if let Some(Block::Paragraph(paragraph)) = page.elements.get(index)
                && let Some(key) = running_key(paragraph)
                && !seen.contains(&key)
            {
                seen.push(key);
            }
        }
        for key in seen {
            *pages_with.entry(key).or_default() += 1;
        }
    }
    // On most pages, and never fewer than two.
    let threshold = pages.div_ceil(2).max(2);
    let running: Vec<String> = pages_with
        .into_iter()
        .filter(|(_, count)| *count >= threshold)
        .map(|(key, _)| key)
        .collect();
    if running.is_empty() {
        return;
    }
    for page in &mut document.pages {
        let edges: Vec<usize> = edge_indices(page.elements.len()).collect();
        let mut index = 0;
        page.elements.retain(|block| {
            let keep = !(edges.contains(&index)
                && matches!(block, Block::Paragraph(p) if running_key(p).is_some_and(|key| running.contains(&key))));
            index += 1;
            keep
        });
    }
}

fn is_body(block: &Block) -> bool {
    matches!(block, Block::Paragraph(p) if !p.is_heading() && !p.is_list_item() && !p.is_empty())
}

/// Joins a paragraph that a page break cut: the page ends mid-sentence and the next page
/// goes on in lower case. A word hyphenated across the break is joined whole.
fn join_paragraphs_across_pages(document: &mut Document) {
    for index in 1..document.pages.len() {
        let (before, after) = document.pages.split_at_mut(index);
        let (Some(previous), Some(next)) = (before.last_mut(), after.first_mut()) else {
            continue;
        };
        let (Some(last), Some(first)) = (previous.elements.last(), next.elements.first()) else {
            continue;
        };
        if !is_body(last) || !is_body(first) {
            continue;
        }
        let (Block::Paragraph(last_text), Block::Paragraph(first_text)) = (last, first) else {
            continue;
        };
        let ending = last_text.plain_text();
        let ending = ending.trim_end();
        let opening = first_text.plain_text();
        let ends_sentence = ending.ends_with(['.', '!', '?', ':', ';', '"', '\u{201d}', ')']);
        let continues = opening
            .trim_start()
            .chars()
            .next()
            .is_some_and(char::is_lowercase);
        if ends_sentence || !continues {
            continue;
        }
        let hyphenated =
            ending.ends_with('-') && ending.chars().rev().nth(1).is_some_and(char::is_alphabetic);
        let Block::Paragraph(continuation) = next.elements.remove(0) else {
            continue;
        };
        if let Some(Block::Paragraph(paragraph)) = previous.elements.last_mut() {
            join(paragraph, continuation, hyphenated);
        }
    }
}

fn join(paragraph: &mut Paragraph, continuation: Paragraph, hyphenated: bool) {
    if hyphenated {
        if let Some(InlineContent::Text(run)) = paragraph.content.last_mut() {
            let trimmed = run.text.trim_end().trim_end_matches('-').len();
            run.text.truncate(trimmed);
        }
    } else {
        paragraph
            .content
            .push(InlineContent::Text(TextRun::new(" ")));
    }
    paragraph.content.extend(continuation.content);
}

/// The document's title: its metadata title unless that is empty or a file name, else its
/// first heading.
pub(super) fn title_of(document: &Document) -> Option<String> {
    let from_metadata = document
        .metadata
        .title
        .as_deref()
        .map(str::trim)
        .filter(|title| {
            let lower = title.to_lowercase();
            !title.is_empty()
                && lower != "untitled"
                && !lower.starts_with("microsoft word - ")
                && ![".pdf", ".doc", ".docx", ".odt", ".tex", ".html"]
                    .iter()
                    .any(|extension| lower.ends_with(extension))
        })
        .map(str::to_owned);
    from_metadata.or_else(|| {
        document
            .pages
            .iter()
            .flat_map(|page| &page.elements)
            .find_map(|block| match block {
                Block::Paragraph(p) if p.is_heading() => {
                    let text = p.plain_text().trim().to_owned();
                    (!text.is_empty()).then_some(text)
                }
                _ => None,
            })
    })
}

/// Puts OCR text in place of the pages that had none: paragraphs split at blank lines, lines
/// re-flowed and words hyphenated at a line end joined.
pub(super) fn insert_ocr_text(document: &mut Document, pages: &[(u32, String)]) {
    for (number, text) in pages {
        let Some(page) = document
            .pages
            .iter_mut()
            .find(|page| page.number == *number)
        else {
            continue;
        };
        page.elements
            .retain(|block| !matches!(block, Block::Paragraph(p) if p.is_empty()));
        for paragraph in reflow(text) {
            page.elements
                .push(Block::Paragraph(Paragraph::with_text(paragraph)));
        }
    }
}

/// Lines to paragraphs: a blank line ends one; a line ending in a hyphen after a letter joins
/// the next without the hyphen.
pub(super) fn reflow(text: &str) -> Vec<String> {
    let mut paragraphs = Vec::new();
    let mut current = String::new();
    for line in text.lines().map(str::trim) {
        if line.is_empty() {
            if !current.is_empty() {
                paragraphs.push(std::mem::take(&mut current));
            }
            continue;
        }
        let hyphen_join = current.ends_with('-')
            && current
                .chars()
                .rev()
                .nth(1)
                .is_some_and(char::is_alphabetic)
            && line.chars().next().is_some_and(char::is_lowercase);
        if hyphen_join {
            current.pop();
        } else if !current.is_empty() {
            current.push(' ');
        }
        current.push_str(line);
    }
    if !current.is_empty() {
        paragraphs.push(current);
    }
    paragraphs
}

#[cfg(test)]
mod tests {
    use super::*;
    use unpdf::Page;

    fn page(number: u32, texts: &[&str]) -> Page {
        let mut page = Page::new(number, 595.0, 842.0);
        for text in texts {
            page.elements
                .push(Block::Paragraph(Paragraph::with_text(*text)));
        }
        page
    }

    fn texts(document: &Document) -> Vec<Vec<String>> {
        document
            .pages
            .iter()
            .map(|page| {
                page.elements
                    .iter()
                    .map(|block| {
                        let mut out = String::new();
                        block.append_plain_text(&mut out);
                        out
                    })
                    .collect()
            })
            .collect()
    }

    #[test]
    fn running_headers_and_footers_go_and_body_stays() {
        let mut document = Document::new();
        document.pages = vec![
            page(
                1,
                &["Annual Report", "First body paragraph.", "Page 1 of 3"],
            ),
            page(
                2,
                &["Annual Report", "Second body paragraph.", "Page 2 of 3"],
            ),
            page(
                3,
                &["ANNUAL  report", "Third body paragraph.", "Page 3 of 3"],
            ),
        ];
        tidy(&mut document);
        assert_eq!(
            texts(&document),
            vec![
                vec!["First body paragraph."],
                vec!["Second body paragraph."],
                vec!["Third body paragraph."],
            ]
        );
    }

    #[test]
    fn a_line_on_one_page_only_is_kept() {
        let mut document = Document::new();
        document.pages = vec![
            page(1, &["Foreword", "Body one."]),
            page(2, &["Body two."]),
            page(3, &["Body three."]),
        ];
        tidy(&mut document);
        assert_eq!(texts(&document)[0], vec!["Foreword", "Body one."]);
    }

    #[test]
    fn a_paragraph_cut_by_a_page_break_is_joined() {
        let mut document = Document::new();
        document.pages = vec![
            page(1, &["The heap needs air and", "Other."]),
            page(
                2,
                &[
                    "Ends here.",
                    "The compost is ready in three months, when it is dark and crum-",
                ],
            ),
            page(3, &["bly to the touch."]),
        ];
        // Page 1 ends with a complete sentence, so page 2 stays apart; 2 → 3 is cut.
        document.pages[0].elements.reverse();
        tidy(&mut document);
        let texts = texts(&document);
        assert_eq!(
            texts[1][1],
            "The compost is ready in three months, when it is dark and crumbly to the touch."
        );
        assert!(texts[2].is_empty());
        assert_eq!(texts[0], vec!["Other.", "The heap needs air and"]);
        assert_eq!(texts[1][0], "Ends here.");
    }

    #[test]
    fn ocr_lines_are_reflowed() {
        assert_eq!(
            reflow("Scanned page\n\nThe quick brown fox jumps\nover the la-\nzy dog.\n\n\n"),
            vec![
                "Scanned page",
                "The quick brown fox jumps over the lazy dog."
            ]
        );
    }

    #[test]
    fn title_prefers_metadata_then_the_first_heading() {
        let mut document = Document::new();
        document.pages = vec![page(1, &["Body."])];
        document.pages[0]
            .elements
            .push(Block::Paragraph(Paragraph::heading("First Heading", 1)));
        assert_eq!(title_of(&document).as_deref(), Some("First Heading"));
        document.metadata.title = Some("report-final.docx".into());
        assert_eq!(title_of(&document).as_deref(), Some("First Heading"));
        document.metadata.title = Some("The Garden Handbook".into());
        assert_eq!(title_of(&document).as_deref(), Some("The Garden Handbook"));
    }
}
