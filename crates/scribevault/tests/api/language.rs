//! Spoken languages end to end on embedded defaults: the user's default language (a setting
//! the gateway hands to transcription) and a request's own language decide what a job is
//! transcribed in; with `auto`, the multilingual base model detects each file's language, and
//! the Vault item carries it. The speech is espeak-ng's, made for the test.

use std::time::Duration;

use chrono::{Timelike as _, Utc};
use reqwest::Method;
use scribevault_test_support::speech::spoken_mp3;
use serde_json::{Value, json};

use crate::helpers::TestApp;

const GERMAN: &str = "Guten Morgen. Heute sprechen wir über das Wetter in Berlin und über die \
    Bahn, die wieder zu spät gekommen ist. Morgen soll es regnen, deshalb bleiben wir zu Hause \
    und lesen ein Buch.";
const ENGLISH: &str = "Good morning. Today we talk about the weather in London and about the \
    train, which was late again. Tomorrow it will rain, so we will stay at home and read a book.";

/// `ggml-base-q8_0.bin` (multilingual) and `ggml-tiny.en.bin` (English only), with the Silero
/// VAD model beside them as `make model` lays it out.
fn multilingual_model_dir() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let models = scribevault_test_support::shared_dir().join("models");
    for name in ["ggml-base-q8_0.bin", "ggml-tiny.en.bin"] {
        std::os::unix::fs::symlink(models.join(name), dir.path().join(name)).unwrap();
    }
    if let Some(vad) = scribevault_test_support::vad_model("multilingual_model_dir") {
        std::os::unix::fs::symlink(&vad, dir.path().join(scribevault_core::VAD_MODEL_FILE))
            .unwrap();
    }
    dir
}

/// Uploads `mp3` as `name`; answers its `mp3Path`.
async fn upload(
    app: &TestApp,
    token: &str,
    dir: &std::path::Path,
    name: &str,
    mp3: &[u8],
) -> Value {
    let path = dir.join(format!("{name}.mp3"));
    std::fs::write(&path, mp3).unwrap();
    let (status, body) = app.upload(token, &path, Some(name)).await;
    assert_eq!(status, 200, "{body}");
    body["data"]["mp3Path"].clone()
}

/// Schedules `mp3_path` for a window two hours ahead (so it never runs here), in `language`
/// when given; answers the job's language as the job view shows it.
async fn scheduled_language(
    app: &TestApp,
    token: &str,
    mp3_path: &Value,
    language: Option<&str>,
) -> Value {
    let hh_mm = |hours: i64| {
        let at = Utc::now() + chrono::Duration::hours(hours);
        format!("{:02}:{:02}", at.hour(), at.minute())
    };
    let mut request = json!({
        "files": [{ "id": "later", "mp3Path": mp3_path, "title": "Later" }],
        "model": "tiny.en", "startTime": hh_mm(2), "endTime": hh_mm(3), "timezone": "UTC"
    });
    if let Some(language) = language {
        request["language"] = json!(language);
    }
    let (status, scheduled) = app
        .post_json("/api/transcription/schedule", &request, Some(token))
        .await;
    assert_eq!(status, 200, "{scheduled}");
    let job_id = scheduled["data"]["jobId"].as_str().unwrap();
    let (_, job) = app
        .get(&format!("/api/transcription/jobs/{job_id}"), Some(token))
        .await;
    job["data"]["language"].clone()
}

async fn set_default_language(app: &TestApp, token: &str, language: &str) {
    let (status, body) = app
        .send(
            Method::PATCH,
            "/api/user/settings",
            Some(token),
            Some(&json!({ "transcriptionLanguage": language })),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["data"]["transcriptionLanguage"], language);
}

#[tokio::test]
async fn a_job_is_in_its_requests_language_else_its_owners_default() {
    let models = crate::helpers::model_dir();
    let app = TestApp::spawn_all_with(&[(
        "SCRIBEVAULT_WHISPER_MODEL_DIR",
        models.path().to_str().unwrap(),
    )])
    .await;
    let (token, _) = app.sign_up("polyglot@example.com").await;
    let dir = tempfile::tempdir().unwrap();
    let sample = std::fs::read(crate::helpers::audio("sample-01-welcome.mp3")).unwrap();
    let mp3_path = upload(&app, &token, dir.path(), "welcome", &sample).await;

    // Until the user saves a default, files are detected.
    let (_, settings) = app.get("/api/user/settings", Some(&token)).await;
    assert_eq!(settings["data"]["transcriptionLanguage"], "auto");
    assert_eq!(
        scheduled_language(&app, &token, &mp3_path, None).await,
        "auto"
    );
    set_default_language(&app, &token, "es").await;
    assert_eq!(
        scheduled_language(&app, &token, &mp3_path, None).await,
        "es"
    );
    assert_eq!(
        scheduled_language(&app, &token, &mp3_path, Some("fr")).await,
        "fr"
    );
    // Reset hands the default back too.
    let (status, _) = app
        .post_json("/api/user/settings/reset", &json!({}), Some(&token))
        .await;
    assert_eq!(status, 200);
    assert_eq!(
        scheduled_language(&app, &token, &mp3_path, None).await,
        "auto"
    );

    let (status, refused) = app
        .post_json(
            "/api/transcription/start",
            &json!({ "files": [{ "id": "x", "mp3Path": mp3_path }], "language": "klingon" }),
            Some(&token),
        )
        .await;
    assert_eq!(status, 400, "{refused}");
    let (status, languages) = app.get("/api/transcription/languages", Some(&token)).await;
    assert_eq!(status, 200);
    let languages = languages["data"]["languages"].as_array().unwrap();
    assert_eq!(languages.len(), 100);
    assert!(languages.contains(&json!({ "code": "de", "name": "German" })));
}

#[tokio::test]
async fn auto_detects_each_files_language_and_its_vault_item_shows_it() {
    let test = "auto_detects_each_files_language_and_its_vault_item_shows_it";
    let (Some(german), Some(english)) = (
        spoken_mp3(test, "de", GERMAN),
        spoken_mp3(test, "en", ENGLISH),
    ) else {
        return;
    };
    let models = multilingual_model_dir();
    let app = TestApp::spawn_all_with(&[
        (
            "SCRIBEVAULT_WHISPER_MODEL_DIR",
            models.path().to_str().unwrap(),
        ),
        ("SCRIBEVAULT_WHISPER_THREADS", "1"),
    ])
    .await;
    let (token, _) = app.sign_up("reisende@example.com").await;
    let dir = tempfile::tempdir().unwrap();
    let wetter = upload(&app, &token, dir.path(), "wetter", &german).await;
    let weather = upload(&app, &token, dir.path(), "weather", &english).await;
    let files = json!([
        { "id": "file-0", "title": "wetter", "mp3Path": wetter },
        { "id": "file-1", "title": "weather", "mp3Path": weather },
    ]);
    let (status, started) = app
        .post_json(
            "/api/transcription/start",
            &json!({ "files": files, "model": "base-q8_0", "outputFormat": "txt" }),
            Some(&token),
        )
        .await;
    assert_eq!(status, 200, "{started}");
    let job_id = started["data"]["jobId"].as_str().unwrap();
    let job = app
        .wait_for_job(&token, job_id, Duration::from_secs(600))
        .await;
    assert_eq!(job["language"], "auto");
    let languages: Vec<&Value> = job["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|file| &file["language"])
        .collect();
    assert_eq!(languages, [&json!("de"), &json!("en")], "{job}");

    let vault = app
        .wait_for_vault_total(&token, 2, Duration::from_secs(30))
        .await;
    for (title, language, words) in [
        ("wetter", "de", ["morgen", "berlin", "hause"]),
        ("weather", "en", ["morning", "london", "home"]),
    ] {
        let item = vault["data"]
            .as_array()
            .unwrap()
            .iter()
            .find(|item| item["title"] == title)
            .unwrap_or_else(|| panic!("{title}: {vault}"));
        assert_eq!(item["language"], language, "{item}");
        let id = item["id"].as_str().unwrap();
        let (_, detail) = app
            .get(&format!("/api/library/transcripts/{id}"), Some(&token))
            .await;
        assert_eq!(detail["data"]["language"], language, "{detail}");
        let (_, content) = app
            .get(
                &format!("/api/library/transcripts/{id}/content"),
                Some(&token),
            )
            .await;
        let text = content["data"]["content"].as_str().unwrap().to_lowercase();
        for word in words {
            assert!(text.contains(word), "{title}: {word} in {text}");
        }
    }
}
