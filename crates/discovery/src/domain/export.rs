//! Videos as a CSV file a spreadsheet opens safely.

use crate::domain::{Video, watch_url};

/// Which columns an export writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExportType {
    /// One URL a line, no header.
    Urls,
    /// A header row and every field.
    All,
}

impl ExportType {
    /// `urls` or `all`.
    ///
    /// # Errors
    /// Any other name.
    pub fn parse(name: &str) -> Result<Self, String> {
        match name {
            "urls" => Ok(Self::Urls),
            "all" => Ok(Self::All),
            _ => Err("exportType must be urls or all".to_owned()),
        }
    }
}

/// The export of videos the cache knows and of ids it does not (those get their URL only).
pub enum ExportRow<'a> {
    Known(&'a Video),
    Unknown(&'a str),
}

/// Characters that make a spreadsheet read a cell as a formula (OWASP "CSV injection"), so a
/// title like `=HYPERLINK(…)` is shown, not run.
const FORMULA_LEADS: [char; 6] = ['=', '+', '-', '@', '\t', '\r'];

fn neutralised(cell: &str) -> std::borrow::Cow<'_, str> {
    if cell.starts_with(FORMULA_LEADS) {
        std::borrow::Cow::Owned(format!("'{cell}"))
    } else {
        std::borrow::Cow::Borrowed(cell)
    }
}

/// The header of an `all` export: the field names of the SPA's video.
pub const ALL_HEADER: [&str; 6] = [
    "youtubeVideoId",
    "title",
    "channelTitle",
    "duration",
    "publishedAt",
    "url",
];

/// The CSV bytes of `rows`.
///
/// # Errors
/// Never in practice (writing to memory); the csv writer's error otherwise.
pub fn to_csv(kind: ExportType, rows: &[ExportRow<'_>]) -> Result<Vec<u8>, csv::Error> {
    let mut writer = csv::WriterBuilder::new()
        .terminator(csv::Terminator::CRLF)
        .from_writer(Vec::new());
    match kind {
        ExportType::Urls => {
            for row in rows {
                let url = match row {
                    ExportRow::Known(video) => video.url(),
                    ExportRow::Unknown(id) => watch_url(id),
                };
                writer.write_record([url])?;
            }
        }
        ExportType::All => {
            writer.write_record(ALL_HEADER)?;
            for row in rows {
                match row {
                    ExportRow::Known(video) => writer.write_record([
                        neutralised(&video.youtube_video_id).as_ref(),
                        neutralised(&video.title).as_ref(),
                        neutralised(&video.channel_title).as_ref(),
                        &video.duration_seconds.to_string(),
                        &video.published_at.to_rfc3339(),
                        &video.url(),
                    ])?,
                    ExportRow::Unknown(id) => writer.write_record([
                        neutralised(id).as_ref(),
                        "",
                        "",
                        "",
                        "",
                        &watch_url(id),
                    ])?,
                }
            }
        }
    }
    writer
        .into_inner()
        .map_err(|error| error.into_error().into())
}

/// `youtube-videos[-urls]-YYYY-MM-DD.csv`.
#[must_use]
pub fn filename(kind: ExportType, today: chrono::NaiveDate) -> String {
    match kind {
        ExportType::Urls => format!("youtube-video-urls-{today}.csv"),
        ExportType::All => format!("youtube-videos-{today}.csv"),
    }
}

#[cfg(test)]
mod tests {
    use chrono::TimeZone as _;

    use super::*;

    fn video(id: &str, title: &str) -> Video {
        Video {
            youtube_video_id: id.to_owned(),
            title: title.to_owned(),
            channel_id: "UCX6OQ3DkcsbYNE6H8uQQuVA".to_owned(),
            channel_title: "Café, \"Ünïcode\" 頻道".to_owned(),
            duration_seconds: 3_725,
            published_at: chrono::Utc.with_ymd_and_hms(2024, 1, 5, 10, 0, 0).unwrap(),
        }
    }

    #[test]
    fn hostile_titles_round_trip_and_formulas_are_neutralised() {
        let titles = [
            "Commas, \"quotes\"\nand a newline",
            "日本語のタイトル — ελληνικά",
            "=HYPERLINK(\"http://evil\",\"click\")",
            "+1 trick",
            "@everyone",
            "-minus",
        ];
        let videos: Vec<Video> = titles
            .iter()
            .enumerate()
            .map(|(n, title)| video(&format!("abcdefghij{n}"), title))
            .collect();
        let rows: Vec<ExportRow<'_>> = videos.iter().map(ExportRow::Known).collect();
        let bytes = to_csv(ExportType::All, &rows).unwrap();
        let mut reader = csv::Reader::from_reader(bytes.as_slice());
        assert_eq!(reader.headers().unwrap(), ALL_HEADER.as_slice());
        let read: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
        assert_eq!(read.len(), titles.len());
        assert_eq!(&read[0][1], titles[0]);
        assert_eq!(&read[1][1], titles[1]);
        assert_eq!(&read[2][1], "'=HYPERLINK(\"http://evil\",\"click\")");
        assert_eq!(&read[3][1], "'+1 trick");
        assert_eq!(&read[4][1], "'@everyone");
        assert_eq!(&read[5][1], "'-minus");
        assert_eq!(&read[0][2], "Café, \"Ünïcode\" 頻道");
        assert_eq!(&read[0][3], "3725");
        assert_eq!(&read[0][4], "2024-01-05T10:00:00+00:00");
        assert_eq!(&read[0][5], "https://www.youtube.com/watch?v=abcdefghij0");
    }

    #[test]
    fn urls_are_one_a_line_without_a_header() {
        let known = video("dQw4w9WgXcQ", "x");
        let rows = [ExportRow::Known(&known), ExportRow::Unknown("-bc_DEF1234")];
        let text = String::from_utf8(to_csv(ExportType::Urls, &rows).unwrap()).unwrap();
        assert_eq!(
            text,
            "https://www.youtube.com/watch?v=dQw4w9WgXcQ\r\nhttps://www.youtube.com/watch?v=-bc_DEF1234\r\n"
        );
    }
}
