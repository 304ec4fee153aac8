//! A bound on how much a PDF's compressed streams expand, checked before the parser reads them.
//!
//! unpdf limits each stream on its own (MuPDF's rule: past 100 MiB, 600 times its compressed
//! size; nothing past 1 GiB), and decodes them whole into memory. A small file holding many
//! streams just under that limit (a flate bomb: a few MB of deflated zeros) still makes it
//! decode gigabytes. So every Flate stream is inflated here first, into a fixed buffer that is
//! thrown away, and the total is counted: past the limit the PDF is refused before unpdf sees
//! it, having cost a 64 KiB buffer and the time to inflate the limit once.
//!
//! Image streams are left out: unpdf does not decode images for text extraction, and a scan's
//! pictures legitimately inflate far beyond any text budget (they only reach pdftoppm, which
//! runs under its own memory limit). Streams are found by their `stream` keyword rather than
//! through the cross-reference table, so a damaged table does not hide one.

use flate2::{Decompress, FlushDecompress, Status};

/// The dictionary text looked at before a `stream` keyword for `/Subtype /Image`.
const DICTIONARY_LOOKBACK: usize = 2048;
const BUFFER: usize = 64 * 1024;

/// The total inflated size of `pdf`'s non-image Flate streams, counted up to `limit`: `Err`
/// with the size reached once it passes `limit`.
///
/// # Errors
/// The streams inflate to more than `limit` bytes.
pub fn check_inflation(pdf: &[u8], limit: u64) -> Result<u64, u64> {
    let mut total: u64 = 0;
    let mut buffer = vec![0_u8; BUFFER];
    let mut search_from = 0;
    while let Some(found) = find(&pdf[search_from..], b"stream") {
        let keyword = search_from + found;
        search_from = keyword + b"stream".len();
        // `endstream` contains `stream`; only a keyword that ends its line starts data.
        if keyword >= 3 && &pdf[keyword - 3..keyword] == b"end" {
            continue;
        }
        let Some(data_start) = data_start(pdf, search_from) else {
            continue;
        };
        let dictionary = &pdf[keyword.saturating_sub(DICTIONARY_LOOKBACK)..keyword];
        if !is_flate(dictionary) || is_image(dictionary) {
            continue;
        }
        let room = limit.saturating_sub(total);
        let inflated = inflated_size(&pdf[data_start..], room.saturating_add(1), &mut buffer);
        total = total.saturating_add(inflated);
        if total > limit {
            return Err(total);
        }
    }
    Ok(total)
}

/// Where a stream's data begins: after the end of line that follows the keyword.
fn data_start(pdf: &[u8], after_keyword: usize) -> Option<usize> {
    match pdf.get(after_keyword..after_keyword + 2) {
        Some([b'\r', b'\n']) => Some(after_keyword + 2),
        Some([b'\n' | b'\r', _]) => Some(after_keyword + 1),
        _ => None,
    }
}

/// The dictionary that precedes the keyword, from its object's start.
fn own_dictionary(before: &[u8]) -> &[u8] {
    match rfind(before, b" obj") {
        Some(start) => &before[start..],
        None => before,
    }
}

fn is_flate(before: &[u8]) -> bool {
    let dictionary = own_dictionary(before);
    find(dictionary, b"/FlateDecode").is_some()
}

fn is_image(before: &[u8]) -> bool {
    let dictionary: Vec<u8> = own_dictionary(before)
        .iter()
        .copied()
        .filter(|byte| !byte.is_ascii_whitespace())
        .collect();
    find(&dictionary, b"/Subtype/Image").is_some()
}

/// Bytes the zlib stream at the start of `data` inflates to, counting stops at `stop_after`.
/// A stream that is not zlib (encrypted, another filter) counts what it yielded before the
/// error, as unpdf would decode no more of it either.
fn inflated_size(data: &[u8], stop_after: u64, buffer: &mut [u8]) -> u64 {
    let mut inflater = Decompress::new(true);
    loop {
        let consumed = usize::try_from(inflater.total_in()).unwrap_or(usize::MAX);
        let Some(input) = data.get(consumed..) else {
            break;
        };
        let before_out = inflater.total_out();
        let before_in = inflater.total_in();
        match inflater.decompress(input, buffer, FlushDecompress::None) {
            Ok(Status::StreamEnd) | Err(_) => break,
            Ok(Status::Ok | Status::BufError) => {}
        }
        if inflater.total_out() >= stop_after
            || (inflater.total_out() == before_out && inflater.total_in() == before_in)
        {
            break;
        }
    }
    inflater.total_out()
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack
        .windows(needle.len())
        .position(|window| window == needle)
}

fn rfind(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack
        .windows(needle.len())
        .rposition(|window| window == needle)
}

#[cfg(test)]
mod tests {
    use std::io::Write as _;

    use flate2::Compression;
    use flate2::write::ZlibEncoder;

    use super::*;

    fn deflated(bytes: usize) -> Vec<u8> {
        let mut encoder = ZlibEncoder::new(Vec::new(), Compression::best());
        let chunk = vec![b' '; 1 << 20];
        let mut left = bytes;
        while left > 0 {
            let part = left.min(chunk.len());
            encoder.write_all(&chunk[..part]).unwrap();
            left -= part;
        }
        encoder.finish().unwrap()
    }

    fn object(number: u32, dictionary: &str, data: &[u8]) -> Vec<u8> {
        let mut out = format!(
            "{number} 0 obj\n<< {dictionary} /Length {} >>\nstream\n",
            data.len()
        )
        .into_bytes();
        out.extend_from_slice(data);
        out.extend_from_slice(b"\nendstream\nendobj\n");
        out
    }

    #[test]
    fn text_streams_are_counted_and_images_are_not() {
        let text = deflated(10_000);
        let picture = deflated(5_000_000);
        let mut pdf = b"%PDF-1.7\n".to_vec();
        pdf.extend(object(4, "/Filter /FlateDecode", &text));
        pdf.extend(object(
            5,
            "/Type /XObject /Subtype /Image /Width 2000 /Height 2500 /Filter /FlateDecode",
            &picture,
        ));
        pdf.extend(object(6, "/Filter /ASCIIHexDecode", b"414243>"));
        assert_eq!(check_inflation(&pdf, 1 << 20), Ok(10_000));
    }

    #[test]
    fn many_streams_past_the_limit_are_refused_early() {
        let bomb = deflated(8 << 20);
        let mut pdf = b"%PDF-1.7\n".to_vec();
        for number in 0..16 {
            pdf.extend(object(number + 4, "/Filter/FlateDecode", &bomb));
        }
        let refused = check_inflation(&pdf, 20 << 20).unwrap_err();
        assert!(
            refused > 20 << 20 && refused <= (20 << 20) + (8 << 20),
            "{refused}"
        );
    }

    #[test]
    fn broken_and_truncated_streams_end_the_count_without_error() {
        let mut pdf = b"%PDF-1.7\n".to_vec();
        pdf.extend(object(4, "/Filter /FlateDecode", b"not zlib at all"));
        let whole = deflated(100_000);
        pdf.extend(b"5 0 obj\n<< /Filter /FlateDecode >>\nstream\n");
        pdf.extend_from_slice(&whole[..whole.len() / 2]);
        let counted = check_inflation(&pdf, 1 << 20).unwrap();
        assert!(counted < 100_000, "{counted}");
        assert_eq!(check_inflation(b"%PDF-1.7 stream", 10), Ok(0));
    }
}
