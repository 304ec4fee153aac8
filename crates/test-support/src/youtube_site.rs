//! YouTube's video pages for the real `yt-dlp`, offline: a yt-dlp extractor plugin
//! (`ytdlp_plugin/scribevault_fake_youtube.py`) reads a video "page" of the [`MediaServer`]
//! (`http://127.0.0.1:PORT/watch?v=ID`) as the info JSON the server keeps for it, shaped as
//! yt-dlp's YouTube extractor gives it (`notes/engine.md` §7): the original audio's language on
//! its formats, the uploader's tracks in `subtitles`, speech recognition in
//! `automatic_captions` (`<lang>-orig` for the original, other keys for translations), each
//! offered as json3 and vtt on the same server. Everything else is yt-dlp's own code: format
//! choice, `--load-info-json`, subtitle downloads, HTTP errors.
//!
//! The plugin is handed to yt-dlp by a wrapper script (`--plugin-dirs`) that the tests give
//! discovery as its yt-dlp, so discovery runs exactly the commands it runs in production.

use std::path::PathBuf;

use serde_json::{Value, json};

use crate::media::MediaServer;

const PLUGIN: &str = include_str!("../ytdlp_plugin/scribevault_fake_youtube.py");

/// yt-dlp with the fake YouTube pages: a wrapper script around the real binary. The files
/// live as long as this value.
pub struct YtDlpWithFakeYouTube {
    /// The wrapper, to give as `SCRIBEVAULT_YTDLP_PATH`.
    pub path: String,
    _dir: tempfile::TempDir,
}

impl YtDlpWithFakeYouTube {
    /// Writes the plugin and a wrapper that runs `ytdlp` (the real binary) with it.
    ///
    /// # Panics
    /// If the temporary files cannot be written.
    #[must_use]
    pub fn new(ytdlp: &str) -> Self {
        use std::os::unix::fs::PermissionsExt as _;
        let dir = tempfile::tempdir().expect("a directory for the yt-dlp plugin");
        let extractors: PathBuf = dir
            .path()
            .join("plugins/scribevault_fake/yt_dlp_plugins/extractor");
        std::fs::create_dir_all(&extractors).expect("the plugin's package directories");
        std::fs::write(extractors.join("scribevault_fake_youtube.py"), PLUGIN)
            .expect("write the plugin");
        let wrapper = dir.path().join("yt-dlp");
        let quote = |text: &str| format!("'{}'", text.replace('\'', r"'\''"));
        std::fs::write(
            &wrapper,
            format!(
                "#!/bin/sh\nexec {} --plugin-dirs {} \"$@\"\n",
                quote(ytdlp),
                quote(&dir.path().join("plugins").to_string_lossy())
            ),
        )
        .expect("write the wrapper");
        std::fs::set_permissions(&wrapper, std::fs::Permissions::from_mode(0o755))
            .expect("make the wrapper executable");
        Self {
            path: wrapper.to_string_lossy().into_owned(),
            _dir: dir,
        }
    }
}

/// A YouTube video as the fake pages describe it.
#[derive(Debug, Clone, Default)]
pub struct FakeVideo {
    pub id: String,
    pub title: String,
    /// The original audio track's language (yt-dlp's `language_preference` 10); `None` when
    /// the formats say nothing of it.
    pub audio_language: Option<String>,
    /// Keys of the uploader's tracks (`subtitles`).
    pub uploader_tracks: Vec<String>,
    /// Keys of YouTube's automatic tracks (`automatic_captions`), e.g. `en-orig`, `en`, `de`.
    pub automatic_tracks: Vec<String>,
}

impl FakeVideo {
    /// The caption file a track is served as: `ID.KEY.json3` for the uploader's, and
    /// `ID.auto.KEY.json3` for an automatic one.
    #[must_use]
    pub fn caption_file(&self, key: &str, automatic: bool) -> String {
        if automatic {
            format!("{}.auto.{key}.json3", self.id)
        } else {
            format!("{}.{key}.json3", self.id)
        }
    }

    fn tracks(&self, media: &MediaServer, keys: &[String], automatic: bool) -> Value {
        Value::Object(
            keys.iter()
                .map(|key| {
                    let file = self.caption_file(key, automatic);
                    let url = format!("{}/captions/{file}", media.base_url());
                    let formats = json!([
                        { "ext": "json3", "url": url, "name": key },
                        { "ext": "vtt", "url": url.replace(".json3", ".vtt"), "name": key },
                    ]);
                    (key.clone(), formats)
                })
                .collect(),
        )
    }

    /// The info JSON the fake page gives, with the MP3 at `media`'s `/media/ID.mp3`.
    #[must_use]
    pub fn info(&self, media: &MediaServer) -> Value {
        let mut audio = json!({
            "format_id": "251", "ext": "mp3", "acodec": "mp3", "vcodec": "none",
            "url": format!("{}/media/{}.mp3", media.base_url(), self.id),
        });
        if let Some(language) = &self.audio_language {
            audio["language"] = json!(language);
            audio["language_preference"] = json!(10);
        }
        json!({
            "id": self.id,
            "title": self.title,
            "webpage_url": format!("{}/watch?v={}", media.base_url(), self.id),
            "formats": [audio],
            "subtitles": self.tracks(media, &self.uploader_tracks, false),
            "automatic_captions": self.tracks(media, &self.automatic_tracks, true),
        })
    }

    /// Puts the video's page on `media` (its audio and captions are added on their own).
    pub fn publish(&self, media: &MediaServer) {
        media.add_info(&self.id, self.info(media));
    }
}

/// The watch URL template of the fake pages: `http://127.0.0.1:PORT/watch?v={id}`.
#[must_use]
pub fn watch_url(media: &MediaServer) -> String {
    format!("{}/watch?v={{id}}", media.base_url())
}
