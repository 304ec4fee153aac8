//! Captions first, with the real yt-dlp: the local media server plays YouTube's video pages
//! (through a yt-dlp extractor plugin, `test-support/src/youtube_site.rs`) and serves json3
//! caption tracks, the real library consumes the ingest queue, and the real storage keeps the
//! MP3s. Cases: the uploader's captions before YouTube's automatic ones, word times from an
//! automatic track reaching the Vault's segments, a video without usable captions going to
//! Whisper, and a 429 on the caption URL falling back to Whisper with a warning.

use std::sync::{Arc, Mutex, PoisonError};

use scribevault_proto::client::SignedChannel;
use scribevault_proto::library::v1 as library_pb;
use scribevault_proto::library::v1::library_service_client::LibraryServiceClient;
use scribevault_test_support::grpc::{InProcessServer, stopped};
use scribevault_test_support::youtube_site::{self, FakeVideo, YtDlpWithFakeYouTube};

use super::*;
use scribevault_bus::contract::DownloadStatus as WireStatus;

const UPLOADER_TRACK: &[u8] = include_bytes!("../../../src/captions/testdata/uploader_en.json3");
const AUTO_TRACK: &[u8] = include_bytes!("../../../src/captions/testdata/asr_en.json3");

/// Discovery whose yt-dlp reads the fake pages, with the library on the same bus.
struct CaptionsSetup {
    app: TestApp,
    media: MediaServer,
    library: LibraryServiceClient<SignedChannel>,
    source: pb::Source,
    video_ids: Vec<String>,
    _library_server: InProcessServer,
    _library_dir: tempfile::TempDir,
    _ytdlp: YtDlpWithFakeYouTube,
}

async fn captions_setup(test: &str, videos: usize) -> Option<CaptionsSetup> {
    let ytdlp = YtDlpWithFakeYouTube::new(&ytdlp(test)?);
    let media = MediaServer::start().await;
    let youtube = FakeYouTube::start().await;
    youtube.add_channel(
        FakeChannel::generated(&channel_id(8), "Captions", videos).with_handle("captions"),
    );
    let watch_url = youtube_site::watch_url(&media);
    let app = spawn_app_with(
        youtube,
        &[
            ("SCRIBEVAULT_YOUTUBE_API_KEY", KEY),
            ("SCRIBEVAULT_YTDLP_PATH", ytdlp.path.as_str()),
            ("SCRIBEVAULT_YOUTUBE_WATCH_URL", watch_url.as_str()),
            ("SCRIBEVAULT_DOWNLOAD_RETRIES", "0"),
            ("SCRIBEVAULT_CAPTIONS_SLEEP_SECONDS", "0"),
        ],
    )
    .await;
    let library_dir = tempfile::tempdir().expect("a directory for the library");
    let db = scribevault_db::connect(&format!(
        "sqlite://{}/library.db?mode=rwc",
        library_dir.path().display()
    ))
    .await
    .expect("open the library's database");
    let blobs = scribevault_blob::LocalBlobStore::new(library_dir.path().join("blobs"))
        .expect("a blob directory");
    let library = scribevault_library::LibraryServer::build(
        db,
        scribevault_library::LibraryDependencies {
            work: Arc::new(app.bus.clone()),
            events: Arc::new(app.bus.clone()),
            blobs: Arc::new(blobs),
        },
        scribevault_library::LibraryConfig::for_tests(),
    )
    .await
    .expect("build the library");
    let library_server =
        InProcessServer::start(|listener, stop| library.run(listener, stopped(stop))).await;
    let source = add_source(&app, "alice", "https://www.youtube.com/@captions").await;
    let video_ids = app
        .client
        .clone()
        .list_source_videos(as_user(
            "alice",
            pb::ListSourceVideosRequest {
                source_id: source.id.clone(),
                page_token: String::new(),
            },
        ))
        .await
        .unwrap()
        .into_inner()
        .videos
        .into_iter()
        .map(|video| video.youtube_video_id)
        .collect();
    Some(CaptionsSetup {
        library: LibraryServiceClient::new(library_server.channel.clone()),
        app,
        media,
        source,
        video_ids,
        _library_server: library_server,
        _library_dir: library_dir,
        _ytdlp: ytdlp,
    })
}

impl CaptionsSetup {
    /// A fake page for `id` with these tracks and its MP3; `captions` bodies by caption file.
    fn publish(&self, video: &FakeVideo, captions: &[(String, &[u8])]) {
        video.publish(&self.media);
        self.media
            .add_audio(&video.id, sample("sample-01-welcome.mp3"));
        for (file, body) in captions {
            self.media.add_caption(file, body.to_vec());
        }
    }

    /// Runs a job to its end and answers how it ended.
    async fn run_job(&self, ids: &[String], transcribe: bool) -> DownloadProgress {
        let mut events = self.app.events().await;
        let job = self
            .app
            .client
            .clone()
            .create_download_job(as_user(
                "alice",
                pb::CreateDownloadJobRequest {
                    source_id: self.source.id.clone(),
                    video_ids: ids.to_vec(),
                    transcribe,
                    model: String::new(),
                    output_format: String::new(),
                    use_captions: Some(true),
                },
            ))
            .await
            .unwrap()
            .into_inner();
        assert!(job.use_captions);
        let seen = progress_until_ended(&mut events, &job.id, Duration::from_secs(90)).await;
        seen.last().cloned().unwrap()
    }

    /// Alice's Vault items, once there are `count` of them (within 10 s).
    async fn vault_items(&self, count: usize) -> Vec<library_pb::Transcript> {
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            let items = self
                .library
                .clone()
                .list_transcripts(as_user(
                    "alice",
                    library_pb::ListTranscriptsRequest::default(),
                ))
                .await
                .unwrap()
                .into_inner()
                .transcripts;
            if items.len() >= count || Instant::now() > deadline {
                return items;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    async fn segments(&self, id: &str) -> Vec<library_pb::TimedSegment> {
        self.library
            .clone()
            .get_transcript_segments(as_user(
                "alice",
                library_pb::GetTranscriptSegmentsRequest { id: id.to_owned() },
            ))
            .await
            .unwrap()
            .into_inner()
            .segments
    }

    async fn content(&self, id: &str) -> String {
        self.library
            .clone()
            .get_transcript_content(as_user(
                "alice",
                library_pb::GetTranscriptContentRequest { id: id.to_owned() },
            ))
            .await
            .unwrap()
            .into_inner()
            .content
    }
}

fn english_video(id: &str, uploader: &[&str], automatic: &[&str]) -> FakeVideo {
    FakeVideo {
        id: id.to_owned(),
        title: format!("Video {id}"),
        audio_language: Some("en".into()),
        uploader_tracks: uploader.iter().map(|key| (*key).to_owned()).collect(),
        automatic_tracks: automatic.iter().map(|key| (*key).to_owned()).collect(),
    }
}

#[tokio::test]
async fn the_uploaders_captions_become_the_vault_item_at_once_before_the_automatic_ones() {
    let Some(setup) = captions_setup("captions_uploader", 1).await else {
        return;
    };
    let id = setup.video_ids[0].clone();
    let video = english_video(&id, &["en"], &["en-orig", "en", "de"]);
    let uploader_file = video.caption_file("en", false);
    let auto_file = video.caption_file("en-orig", true);
    setup.publish(
        &video,
        &[
            (uploader_file.clone(), UPLOADER_TRACK),
            (auto_file.clone(), AUTO_TRACK),
        ],
    );
    let ended = setup.run_job(std::slice::from_ref(&id), true).await;
    assert_eq!(ended.status, WireStatus::Completed, "{ended:#?}");
    assert!(
        setup.app.transcriptions.queued().is_empty(),
        "a video with captions is not sent to Whisper"
    );
    assert_eq!(
        setup.media.requests(&format!("captions/{uploader_file}")),
        1
    );
    assert_eq!(
        setup.media.requests(&format!("captions/{auto_file}")),
        0,
        "the automatic track is not fetched when the uploader's is there"
    );
    let items = setup.vault_items(1).await;
    assert_eq!(items.len(), 1, "one Vault item: {items:#?}");
    let item = &items[0];
    assert_eq!(
        item.title, "Captions episode 1",
        "the title discovery has of the video, not the page's"
    );
    assert_eq!(
        item.transcript_source,
        Some(library_pb::TranscriptSource::CaptionsUploader.into())
    );
    assert_eq!(item.source_type(), library_pb::SourceType::Audio);
    let content = setup.content(&item.id).await;
    assert!(
        content.starts_with("Hi, I'm Vanessa from SpeakEnglishWithVanessa.com. Today, I have"),
        "{content}"
    );
    let segments = setup.segments(&item.id).await;
    assert_eq!(segments.len(), 4);
    assert!(
        segments.iter().all(|segment| segment.words.is_empty()),
        "the uploader's track has no word offsets"
    );
    // The item plays the MP3 the job stored.
    let audio = setup
        .library
        .clone()
        .get_transcript_audio(as_user(
            "alice",
            library_pb::GetTranscriptAudioRequest {
                id: item.id.clone(),
            },
        ))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(
        mp3_status(&setup.app, "alice", std::slice::from_ref(&id)).await,
        [true]
    );
    assert!(audio.audio_path.ends_with(".mp3"), "{audio:?}");
}

#[tokio::test]
async fn automatic_captions_in_the_original_language_carry_word_times_to_the_vault() {
    let Some(setup) = captions_setup("captions_auto", 1).await else {
        return;
    };
    let id = setup.video_ids[0].clone();
    // A German translation is offered too; only the original is fetched.
    let video = english_video(&id, &[], &["en-orig", "en", "de"]);
    let original = video.caption_file("en-orig", true);
    let translated = video.caption_file("de", true);
    setup.publish(
        &video,
        &[
            (original.clone(), AUTO_TRACK),
            (translated.clone(), UPLOADER_TRACK),
        ],
    );
    // Without `transcribe`: captions alone make the item.
    let ended = setup.run_job(std::slice::from_ref(&id), false).await;
    assert_eq!(ended.status, WireStatus::Completed, "{ended:#?}");
    assert_eq!(setup.media.requests(&format!("captions/{original}")), 1);
    assert_eq!(setup.media.requests(&format!("captions/{translated}")), 0);
    let items = setup.vault_items(1).await;
    assert_eq!(items.len(), 1);
    assert_eq!(
        items[0].transcript_source,
        Some(library_pb::TranscriptSource::CaptionsAuto.into())
    );
    assert_eq!(items[0].language.as_deref(), Some("en"));
    let segments = setup.segments(&items[0].id).await;
    assert_eq!(segments.len(), 4);
    assert_eq!(segments[0].text, "today we're going to be talking about");
    let words: Vec<(i64, i64, &str)> = segments[0]
        .words
        .iter()
        .map(|word| (word.start_ms, word.end_ms, word.text.as_str()))
        .collect();
    assert_eq!(
        words[..3],
        [(40, 280, "today"), (280, 440, "we're"), (440, 560, "going")]
    );
    assert_eq!(
        (segments[1].start_ms, segments[1].end_ms),
        (1680, 5120),
        "a rolling line ends where the next begins"
    );
    assert!(setup.app.transcriptions.queued().is_empty());
}

#[tokio::test]
async fn videos_without_captions_in_their_original_language_go_to_whisper() {
    let Some(setup) = captions_setup("captions_none", 2).await else {
        return;
    };
    let ids = setup.video_ids.clone();
    // One video has no captions at all; the other, German, only a machine translation to
    // English (no `de-orig`).
    let bare = english_video(&ids[0], &[], &[]);
    let mut translated_only = english_video(&ids[1], &[], &["en"]);
    translated_only.audio_language = Some("de".into());
    let translation = translated_only.caption_file("en", true);
    setup.publish(&bare, &[]);
    setup.publish(&translated_only, &[(translation.clone(), AUTO_TRACK)]);
    let ended = setup.run_job(&ids, true).await;
    assert_eq!(ended.status, WireStatus::Completed, "{ended:#?}");
    let queued: Vec<String> = setup
        .app
        .transcriptions
        .queued()
        .into_iter()
        .map(|(_, video, _, _)| video)
        .collect();
    assert_eq!(queued, ids, "both went to Whisper");
    assert_eq!(setup.media.requests(&format!("captions/{translation}")), 0);
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert!(
        setup.vault_items(0).await.is_empty(),
        "no item from captions"
    );
}

/// A subscriber for this thread that writes into a buffer (the test's runtime runs every task
/// on this thread).
fn capture_logs() -> (Arc<Mutex<Vec<u8>>>, tracing::subscriber::DefaultGuard) {
    #[derive(Clone)]
    struct Buffer(Arc<Mutex<Vec<u8>>>);
    impl std::io::Write for Buffer {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            self.0
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .write(bytes)
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let buffer = Arc::new(Mutex::new(Vec::new()));
    let writer = Buffer(buffer.clone());
    let subscriber = tracing_subscriber::fmt()
        .with_max_level(tracing::Level::WARN)
        .with_ansi(false)
        .with_writer(move || writer.clone())
        .finish();
    (buffer, tracing::subscriber::set_default(subscriber))
}

#[tokio::test]
async fn a_429_on_the_captions_falls_back_to_whisper_and_is_logged() {
    let Some(setup) = captions_setup("captions_429", 1).await else {
        return;
    };
    let (logs, _guard) = capture_logs();
    let id = setup.video_ids[0].clone();
    let video = english_video(&id, &[], &["en-orig", "en"]);
    let original = video.caption_file("en-orig", true);
    setup.publish(&video, &[]);
    setup.media.rate_limit_caption(&original);
    let ended = setup.run_job(std::slice::from_ref(&id), true).await;
    assert_eq!(ended.status, WireStatus::Completed, "{ended:#?}");
    assert_eq!(setup.media.requests(&format!("captions/{original}")), 1);
    let queued = setup.app.transcriptions.queued();
    assert_eq!(queued.len(), 1, "the video went to Whisper");
    assert_eq!(queued[0].1, id);
    let logs =
        String::from_utf8_lossy(&logs.lock().unwrap_or_else(PoisonError::into_inner)).into_owned();
    let warning = logs
        .lines()
        .find(|line| line.contains("falling back to Whisper"))
        .unwrap_or_else(|| panic!("no fallback warning in:\n{logs}"));
    assert!(warning.contains("WARN"), "{warning}");
    assert!(
        warning.contains(&id),
        "the warning names the video: {warning}"
    );
    assert!(warning.contains("429"), "{warning}");
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert!(setup.vault_items(0).await.is_empty());
}

#[tokio::test]
async fn a_job_without_a_choice_takes_the_users_default() {
    let Some(setup) = captions_setup("captions_default", 1).await else {
        return;
    };
    let create = |use_captions: Option<bool>| {
        let client = setup.app.client.clone();
        let request = pb::CreateDownloadJobRequest {
            source_id: setup.source.id.clone(),
            video_ids: setup.video_ids.clone(),
            transcribe: false,
            model: String::new(),
            output_format: String::new(),
            use_captions,
        };
        async move {
            let mut client = client;
            let job = client
                .create_download_job(as_user("alice", request))
                .await
                .unwrap()
                .into_inner();
            client
                .cancel_download_job(as_user("alice", pb::DownloadJobRef { id: job.id.clone() }))
                .await
                .unwrap();
            job.use_captions
        }
    };
    assert!(!create(None).await, "off until the user says otherwise");
    setup
        .app
        .client
        .clone()
        .set_sync_preferences(as_user(
            "alice",
            pb::SetSyncPreferencesRequest {
                auto_download: false,
                use_captions: true,
            },
        ))
        .await
        .unwrap();
    assert!(create(None).await, "the user's default");
    assert!(!create(Some(false)).await, "the job's own choice wins");
}
