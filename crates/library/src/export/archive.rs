//! One zip of several exported files, written as a stream (zip's `new_stream`: data
//! descriptors, so nothing is seeked and nothing waits for the whole archive).

use std::io::Write;

use zip::CompressionMethod;
use zip::write::{SimpleFileOptions, ZipWriter};

/// Writes `files` (name, bytes) as a zip into `sink`, one file at a time as they arrive.
///
/// # Errors
/// The sink failed (the reader went away) or zip refused an entry.
pub fn write_zip<W: Write>(
    sink: W,
    files: impl IntoIterator<Item = (String, Vec<u8>)>,
) -> zip::result::ZipResult<()> {
    let mut zip = ZipWriter::new_stream(sink);
    let options = SimpleFileOptions::default()
        .compression_method(CompressionMethod::Deflated)
        .large_file(false);
    for (name, bytes) in files {
        zip.start_file(name, options)?;
        zip.write_all(&bytes)?;
    }
    zip.finish()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_streamed_zip_reads_back_with_every_file() {
        let mut bytes = Vec::new();
        write_zip(
            &mut bytes,
            vec![
                ("a.md".to_owned(), b"# A\n".to_vec()),
                ("b.md".to_owned(), "ü".repeat(10_000).into_bytes()),
            ],
        )
        .unwrap();
        let mut archive = zip::ZipArchive::new(std::io::Cursor::new(bytes)).unwrap();
        assert_eq!(archive.len(), 2);
        let mut text = String::new();
        std::io::Read::read_to_string(&mut archive.by_name("b.md").unwrap(), &mut text).unwrap();
        assert_eq!(text, "ü".repeat(10_000));
    }
}
