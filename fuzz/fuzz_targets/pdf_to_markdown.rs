//! A PDF's way to markdown (unpdf's parser, the structure pass, comrak) without OCR.
#![no_main]

use libfuzzer_sys::fuzz_target;
// The converter and OCR around the entry point are not driven here.
#[allow(dead_code)]
#[path = "../../crates/conversion/src/pdf/mod.rs"]
mod pdf;

use pdf::{PdfError, pdf_to_markdown};

/// Few pages keep each run short; the page limit is still exercised.
const MAX_PAGES: u32 = 8;
/// What the streams may inflate to before the file is refused (the service's default is
/// larger; a smaller one keeps each run's memory low).
const MAX_INFLATED_BYTES: u64 = 32 * 1024 * 1024;

fuzz_target!(|data: &[u8]| {
    let extracted = match pdf_to_markdown(data, MAX_PAGES, MAX_INFLATED_BYTES) {
        Ok(extracted) => extracted,
        Err(PdfError::Damaged {
            recovered: Some(recovered),
            ..
        }) => *recovered,
        Err(_) => return,
    };
    assert!(
        extracted.pages <= MAX_PAGES,
        "{} pages read with a limit of {MAX_PAGES}",
        extracted.pages
    );
    assert!(
        extracted
            .pages_without_text
            .iter()
            .all(|page| (1..=extracted.pages).contains(page)),
        "pages without text {:?} outside 1..={}",
        extracted.pages_without_text,
        extracted.pages
    );
});
