//! The discovery CSV export: whatever the titles hold, the file parses back to the same
//! cells, and no text cell can be read by a spreadsheet as a formula.
//!
//! The input's first byte picks the export (even: all fields, odd: URLs); the rest is rows
//! separated by 0x1E, each a video id alone (a video the cache does not know) or the id,
//! title, channel title, duration and publication time (Unix seconds) separated by 0x1F.
#![no_main]

use chrono::{DateTime, Utc};
use libfuzzer_sys::fuzz_target;
#[allow(dead_code)]
#[path = "../../crates/discovery/src/domain/export.rs"]
mod export;
// `crate::domain` of export.rs: discovery's own.
#[allow(dead_code)]
#[path = "../../crates/discovery/src/domain/catalog.rs"]
mod domain;

use domain::Video;
use export::{ALL_HEADER, ExportRow, ExportType, to_csv};

const FORMULA_LEADS: [char; 6] = ['=', '+', '-', '@', '\t', '\r'];

/// The cell a spreadsheet shows for `text`: a leading `'` where it would be a formula.
fn shown(text: &str) -> String {
    if text.starts_with(FORMULA_LEADS) {
        format!("'{text}")
    } else {
        text.to_owned()
    }
}

fn watch_url(id: &str) -> String {
    format!("https://www.youtube.com/watch?v={id}")
}

fuzz_target!(|data: &[u8]| {
    let Some((&kind, rest)) = data.split_first() else {
        return;
    };
    let kind = if kind % 2 == 0 {
        ExportType::All
    } else {
        ExportType::Urls
    };
    let text = String::from_utf8_lossy(rest);
    let mut videos = Vec::new();
    let mut unknown = Vec::new();
    for (index, row) in text.split('\x1e').enumerate() {
        let fields: Vec<&str> = row.split('\x1f').collect();
        if fields.len() == 1 {
            unknown.push((index, fields[0]));
            continue;
        }
        let field = |n: usize| fields.get(n).copied().unwrap_or_default();
        let published_at = field(4)
            .parse::<i64>()
            .ok()
            .and_then(|seconds| DateTime::<Utc>::from_timestamp(seconds, 0))
            .unwrap_or_default();
        videos.push((
            index,
            Video {
                youtube_video_id: field(0).to_owned(),
                title: field(1).to_owned(),
                channel_id: String::new(),
                channel_title: field(2).to_owned(),
                duration_seconds: field(3).parse().unwrap_or_default(),
                published_at,
            },
        ));
    }
    let mut rows: Vec<(usize, ExportRow<'_>)> = videos
        .iter()
        .map(|(index, video)| (*index, ExportRow::Known(video)))
        .chain(
            unknown
                .iter()
                .map(|(index, id)| (*index, ExportRow::Unknown(id))),
        )
        .collect();
    rows.sort_by_key(|(index, _)| *index);
    let rows: Vec<ExportRow<'_>> = rows.into_iter().map(|(_, row)| row).collect();

    let mut expected: Vec<Vec<String>> = Vec::new();
    if kind == ExportType::All {
        expected.push(ALL_HEADER.iter().map(|name| (*name).to_owned()).collect());
    }
    for row in &rows {
        expected.push(match (kind, row) {
            (ExportType::Urls, ExportRow::Known(video)) => vec![watch_url(&video.youtube_video_id)],
            (ExportType::Urls, ExportRow::Unknown(id)) => vec![watch_url(id)],
            (ExportType::All, ExportRow::Known(video)) => vec![
                shown(&video.youtube_video_id),
                shown(&video.title),
                shown(&video.channel_title),
                video.duration_seconds.to_string(),
                video.published_at.to_rfc3339(),
                watch_url(&video.youtube_video_id),
            ],
            (ExportType::All, ExportRow::Unknown(id)) => vec![
                shown(id),
                String::new(),
                String::new(),
                String::new(),
                String::new(),
                watch_url(id),
            ],
        });
    }

    let bytes = to_csv(kind, &rows).expect("writing CSV to memory");
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_reader(bytes.as_slice());
    let parsed: Vec<Vec<String>> = reader
        .records()
        .map(|record| {
            record
                .expect("the export parses as CSV")
                .iter()
                .map(str::to_owned)
                .collect()
        })
        .collect();
    assert_eq!(
        parsed,
        expected,
        "CSV {:?}",
        String::from_utf8_lossy(&bytes)
    );
    for record in &parsed {
        for cell in record.iter().take(3) {
            assert!(!cell.starts_with(FORMULA_LEADS), "formula cell {cell:?}");
        }
    }
});
