//! The Vault's player end to end: an MP3 transcribed by the real pipeline, then streamed back
//! with byte ranges (bearer header, or a signed link an `<audio>` element can follow), and its
//! timed segments.

use std::time::Duration;

use reqwest::Method;
use reqwest::header::{
    ACCEPT_RANGES, CACHE_CONTROL, CONTENT_LENGTH, CONTENT_RANGE, CONTENT_TYPE, ETAG, IF_RANGE,
    LAST_MODIFIED, RANGE,
};
use serde_json::json;

use crate::helpers::{TestApp, audio};
use crate::pipeline::spawn_pipeline_app;

/// A request with optional bearer token and headers; answers (status, headers, body bytes).
async fn fetch(
    app: &TestApp,
    method: Method,
    path: &str,
    token: Option<&str>,
    headers: &[(reqwest::header::HeaderName, &str)],
) -> (u16, reqwest::header::HeaderMap, Vec<u8>) {
    let mut request = reqwest::Client::new().request(method, app.url(path));
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    for (name, value) in headers {
        request = request.header(name, *value);
    }
    let response = request.send().await.unwrap();
    let status = response.status().as_u16();
    let headers = response.headers().clone();
    (status, headers, response.bytes().await.unwrap().to_vec())
}

fn header<'a>(
    headers: &'a reqwest::header::HeaderMap,
    name: &reqwest::header::HeaderName,
) -> &'a str {
    headers
        .get(name)
        .map_or("", |value| value.to_str().unwrap_or(""))
}

/// Transcribes `sample-01-welcome.mp3` for a new member; answers (token, item id, the MP3).
async fn transcribed_item(app: &TestApp, email: &str) -> (String, String, Vec<u8>) {
    let (token, _) = app.sign_up(email).await;
    let file = audio("sample-01-welcome.mp3");
    let (status, uploaded) = app.upload(&token, &file, Some("welcome")).await;
    assert_eq!(status, 200, "{uploaded}");
    let files = json!([{ "id": "w", "mp3Path": uploaded["data"]["mp3Path"], "title": "welcome" }]);
    let (status, started) = app
        .post_json(
            "/api/transcription/start",
            &json!({ "files": files, "model": "tiny.en", "outputFormat": "txt" }),
            Some(&token),
        )
        .await;
    assert_eq!(status, 200, "{started}");
    let job = app
        .wait_for_job(
            &token,
            started["data"]["jobId"].as_str().unwrap(),
            Duration::from_secs(120),
        )
        .await;
    assert_eq!(job["files"][0]["status"], "completed", "{job}");
    let vault = app
        .wait_for_vault_total(&token, 1, Duration::from_secs(30))
        .await;
    let id = vault["data"][0]["id"].as_str().unwrap().to_owned();
    (token, id, std::fs::read(file).unwrap())
}

/// The owner's view of a transcribed audio item: its audio path and the MP3 it must stream.
struct OwnedAudio<'a> {
    app: &'a TestApp,
    token: String,
    /// `/api/library/transcripts/{id}/audio`.
    path: String,
    mp3: Vec<u8>,
}

impl OwnedAudio<'_> {
    /// The owner's request of the audio with `headers`.
    async fn fetch(
        &self,
        method: Method,
        headers: &[(reqwest::header::HeaderName, &str)],
    ) -> (u16, reqwest::header::HeaderMap, Vec<u8>) {
        fetch(self.app, method, &self.path, Some(&self.token), headers).await
    }

    /// The whole file, with the headers a player needs; returns its ETag.
    async fn assert_the_whole_file_streams(&self) -> String {
        let (status, headers, body) = self.fetch(Method::GET, &[]).await;
        assert_eq!(status, 200);
        assert_eq!(body, self.mp3);
        assert_eq!(header(&headers, &CONTENT_TYPE), "audio/mpeg");
        assert_eq!(header(&headers, &ACCEPT_RANGES), "bytes");
        assert_eq!(
            header(&headers, &CONTENT_LENGTH),
            self.mp3.len().to_string()
        );
        assert!(header(&headers, &CACHE_CONTROL).contains("private"));
        let etag = header(&headers, &ETAG).to_owned();
        assert!(etag.starts_with('"'), "a strong ETag: {etag:?}");
        assert!(!header(&headers, &LAST_MODIFIED).is_empty());
        etag
    }

    /// One range of each form, then an unsatisfiable one: 416 with the size.
    async fn assert_each_range_form_is_served(&self) {
        let (mp3, size) = (&self.mp3, self.mp3.len());
        for (range, first, last) in [
            ("bytes=0-99".to_owned(), 0, 99),
            (format!("bytes={}-", size - 50), size - 50, size - 1),
            ("bytes=-10".to_owned(), size - 10, size - 1),
            (format!("bytes=1000-{}", size + 5000), 1000, size - 1),
        ] {
            let (status, headers, body) = self.fetch(Method::GET, &[(RANGE, &range)]).await;
            assert_eq!(status, 206, "{range}");
            assert_eq!(
                header(&headers, &CONTENT_RANGE),
                format!("bytes {first}-{last}/{size}"),
                "{range}"
            );
            assert_eq!(
                header(&headers, &CONTENT_LENGTH),
                (last - first + 1).to_string()
            );
            assert_eq!(body, mp3[first..=last], "{range}");
        }

        let (status, headers, _) = self
            .fetch(Method::GET, &[(RANGE, &format!("bytes={size}-"))])
            .await;
        assert_eq!(status, 416);
        assert_eq!(header(&headers, &CONTENT_RANGE), format!("bytes */{size}"));
    }

    /// Several ranges, or a stale If-Range: the whole file; a current If-Range: the range.
    async fn assert_several_ranges_or_a_stale_if_range_get_the_whole_file(&self, etag: &str) {
        let size = self.mp3.len();
        let (status, _, body) = self.fetch(Method::GET, &[(RANGE, "bytes=0-1,5-9")]).await;
        assert_eq!((status, body.len()), (200, size));
        let (status, _, body) = self
            .fetch(
                Method::GET,
                &[(RANGE, "bytes=0-1"), (IF_RANGE, "\"stale\"")],
            )
            .await;
        assert_eq!((status, body.len()), (200, size));
        let (status, _, body) = self
            .fetch(Method::GET, &[(RANGE, "bytes=0-1"), (IF_RANGE, etag)])
            .await;
        assert_eq!((status, body), (206, self.mp3[..2].to_vec()));
    }

    /// HEAD: the headers of the GET, no body.
    async fn assert_head_answers_the_headers_of_the_get(&self) {
        let size = self.mp3.len();
        let (status, headers, body) = self.fetch(Method::HEAD, &[]).await;
        assert_eq!(status, 200);
        assert_eq!(header(&headers, &CONTENT_LENGTH), size.to_string());
        assert_eq!(header(&headers, &ACCEPT_RANGES), "bytes");
        assert!(body.is_empty());
        let (status, headers, _) = self.fetch(Method::HEAD, &[(RANGE, "bytes=0-9")]).await;
        assert_eq!(status, 206);
        assert_eq!(
            header(&headers, &CONTENT_RANGE),
            format!("bytes 0-9/{size}")
        );
    }
}

/// Another member, and nobody, get nothing of item `id`; returns the other member's token.
async fn assert_strangers_get_no_audio(app: &TestApp, id: &str, path: &str) -> String {
    let (stranger, _) = app.sign_up("stranger@example.com").await;
    let (status, body) = app.get(path, Some(&stranger)).await;
    assert_eq!(status, 404, "{body}");
    assert_eq!(body["error"]["code"], "NOT_FOUND");
    let (status, body) = app
        .get(
            &format!("/api/library/transcripts/{id}/audio-link"),
            Some(&stranger),
        )
        .await;
    assert_eq!(status, 404, "{body}");
    let (status, _) = app.get(path, None).await;
    assert_eq!(status, 401);
    stranger
}

/// A non-AUDIO item has no recording.
async fn assert_a_non_audio_item_has_no_recording(app: &TestApp, token: &str) {
    let (_, saved) = app
        .post_json(
            "/api/vault/save",
            &json!({"files": [{"title": "Notes", "content": "words", "path": "converted/transcripts/notes.md"}]}),
            Some(token),
        )
        .await;
    let notes = saved["data"][0]["id"].as_str().unwrap();
    let (status, body) = app
        .get(
            &format!("/api/library/transcripts/{notes}/audio"),
            Some(token),
        )
        .await;
    assert_eq!(status, 404, "{body}");
    assert_eq!(body["error"]["code"], "NOT_FOUND");
}

/// The timed segments, with word times, for the owner only.
async fn assert_the_segments_have_word_times(app: &TestApp, id: &str, token: &str, stranger: &str) {
    let (status, segments) = app
        .get(
            &format!("/api/library/transcripts/{id}/segments"),
            Some(token),
        )
        .await;
    assert_eq!(status, 200, "{segments}");
    let segments = segments["data"]["segments"].as_array().unwrap();
    assert!(!segments.is_empty());
    let words = segments[0]["words"].as_array().unwrap();
    assert!(!words.is_empty(), "word times: {:?}", segments[0]);
    assert!(words[0]["startMs"].as_i64().unwrap() <= words[0]["endMs"].as_i64().unwrap());
    let (status, _) = app
        .get(
            &format!("/api/library/transcripts/{id}/segments"),
            Some(stranger),
        )
        .await;
    assert_eq!(status, 404);
}

#[tokio::test]
async fn an_audio_item_streams_with_ranges_to_its_owner_only() {
    let (app, _models) = spawn_pipeline_app(&[]).await;
    let (token, id, mp3) = transcribed_item(&app, "listener@example.com").await;
    let audio = OwnedAudio {
        app: &app,
        token: token.clone(),
        path: format!("/api/library/transcripts/{id}/audio"),
        mp3,
    };

    let etag = audio.assert_the_whole_file_streams().await;
    audio.assert_each_range_form_is_served().await;
    audio
        .assert_several_ranges_or_a_stale_if_range_get_the_whole_file(&etag)
        .await;
    audio.assert_head_answers_the_headers_of_the_get().await;

    let stranger = assert_strangers_get_no_audio(&app, &id, &audio.path).await;
    assert_a_non_audio_item_has_no_recording(&app, &token).await;
    assert_the_segments_have_word_times(&app, &id, &token, &stranger).await;
}

#[tokio::test]
async fn a_signed_audio_link_plays_without_a_token_and_refuses_any_change() {
    let (app, _models) = spawn_pipeline_app(&[]).await;
    let (token, id, mp3) = transcribed_item(&app, "linked@example.com").await;
    let (status, link) = app
        .get(
            &format!("/api/library/transcripts/{id}/audio-link"),
            Some(&token),
        )
        .await;
    assert_eq!(status, 200, "{link}");
    let url = link["data"]["url"].as_str().unwrap().to_owned();
    assert!(
        url.starts_with(&format!("/api/library/audio/{id}?")),
        "{url}"
    );
    let expires_at =
        chrono::DateTime::parse_from_rfc3339(link["data"]["expiresAt"].as_str().unwrap()).unwrap();
    let lifetime = expires_at.with_timezone(&chrono::Utc) - chrono::Utc::now();
    assert!(
        lifetime > chrono::Duration::minutes(5) && lifetime <= chrono::Duration::hours(2),
        "short-lived: {lifetime}"
    );

    // No bearer token: the link is the authority, ranges included.
    let (status, headers, body) =
        fetch(&app, Method::GET, &url, None, &[(RANGE, "bytes=10-19")]).await;
    assert_eq!(status, 206);
    assert_eq!(body, mp3[10..20]);
    assert_eq!(header(&headers, &CONTENT_TYPE), "audio/mpeg");
    let (status, _, body) = fetch(&app, Method::GET, &url, None, &[]).await;
    assert_eq!((status, body.len()), (200, mp3.len()));

    // A changed signature, expiry or item is refused.
    let (path, query) = url.split_once('?').unwrap();
    let mut expires = String::new();
    let mut signature = String::new();
    for pair in query.split('&') {
        match pair.split_once('=').unwrap() {
            ("expires", value) => value.clone_into(&mut expires),
            ("signature", value) => value.clone_into(&mut signature),
            _ => {}
        }
    }
    let forged_signature = format!(
        "{path}?expires={expires}&signature={}",
        signature.replacen(
            &signature[..1],
            if &signature[..1] == "A" { "B" } else { "A" },
            1
        )
    );
    let later = expires.parse::<i64>().unwrap() + 3600;
    let longer = format!("{path}?expires={later}&signature={signature}");
    let expired = format!("{path}?expires=1000&signature={signature}");
    for forged in [forged_signature, longer, expired] {
        let (status, body) = app.get(&forged, None).await;
        assert_eq!(status, 403, "{forged}: {body}");
        assert_eq!(body["error"]["code"], "FORBIDDEN");
    }
    // Another item under the same signature: refused the same way (nothing says it exists).
    let other = format!(
        "/api/library/audio/{}?expires={expires}&signature={signature}",
        uuid::Uuid::new_v4()
    );
    let (status, _) = app.get(&other, None).await;
    assert_eq!(status, 403);
    let (status, _) = app.get(path, None).await;
    assert_eq!(status, 400, "a link without its signature");
}
