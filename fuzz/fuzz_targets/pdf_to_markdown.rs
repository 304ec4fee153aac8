//! A PDF's way to markdown (unpdf's parser, the structure pass, comrak) without OCR.
#![no_main]

use std::panic::{self, AssertUnwindSafe};
use std::sync::Once;

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

/// A panic raised inside unpdf unwinds instead of ending the run: the service parses under
/// `catch_unwind` and answers such a file 422 (`crates/conversion/src/pdf/mod.rs`; the file that
/// taught us this is `seeds/pdf_to_markdown/font-table-panic.pdf`, tested in the conversion
/// API tests), and its bugs are not ours to fix here. A panic anywhere else, our structure pass
/// included, still goes to libFuzzer's hook and fails the run.
fn contain_parser_panics() {
    static INSTALL: Once = Once::new();
    INSTALL.call_once(|| {
        let libfuzzer_hook = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            let in_parser = info
                .location()
                .is_some_and(|location| location.file().contains("/unpdf-"));
            if !in_parser {
                libfuzzer_hook(info);
            }
        }));
    });
}

fuzz_target!(|data: &[u8]| {
    contain_parser_panics();
    let parsed = panic::catch_unwind(AssertUnwindSafe(|| {
        pdf_to_markdown(data, MAX_PAGES, MAX_INFLATED_BYTES)
    }));
    // Only unpdf's panics get this far (any other aborts in the hook).
    let Ok(parsed) = parsed else { return };
    let extracted = match parsed {
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
