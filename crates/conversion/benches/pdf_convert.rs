//! PDF → markdown through the service's own converter, for `bench/pdf_compare.py`.
//!
//!     cargo bench -p scribevault-conversion --bench pdf_convert -- OUT_DIR REPEATS FILE...
//!
//! Writes `OUT_DIR/<file stem>.md` and prints one JSON line per file:
//! `{"file", "pages", "seconds_median", "seconds_min"}` (conversion only, in process).

use std::path::Path;
use std::time::{Duration, Instant};

use scribevault_conversion::{ConversionConfig, PdfConverter};

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|arg| arg != "--bench")
        .collect();
    let [out_dir, repeats, files @ ..] = args.as_slice() else {
        eprintln!("usage: pdf_convert OUT_DIR REPEATS FILE...");
        std::process::exit(2);
    };
    let repeats: usize = repeats.parse().expect("REPEATS is a number");
    let config = ConversionConfig::for_tests();
    let converter = PdfConverter::new(config.pdf, config.ocr, 1);
    std::fs::create_dir_all(out_dir).expect("OUT_DIR can be made");
    for file in files {
        let bytes = std::fs::read(file).expect("the PDF is readable");
        let mut times: Vec<Duration> = Vec::with_capacity(repeats);
        let mut last = None;
        for _ in 0..repeats.max(1) {
            let started = Instant::now();
            let mut pdf = converter.receive().await.expect("a permit");
            pdf.write(&bytes).await.expect("the spool takes it");
            let converted = converter.convert(&mut pdf, false).await;
            times.push(started.elapsed());
            last = Some(converted);
        }
        times.sort();
        let (pages, markdown) = match last.expect("one run") {
            Ok(extracted) => (extracted.pages, extracted.markdown),
            Err(error) => (0, format!("ERROR: {error}")),
        };
        let stem = Path::new(file)
            .file_stem()
            .expect("a file name")
            .to_string_lossy()
            .into_owned();
        std::fs::write(Path::new(out_dir).join(format!("{stem}.md")), markdown)
            .expect("OUT_DIR is writable");
        println!(
            "{}",
            serde_json::json!({
                "file": file,
                "pages": pages,
                "seconds_median": times[times.len() / 2].as_secs_f64(),
                "seconds_min": times[0].as_secs_f64(),
            })
        );
    }
}
