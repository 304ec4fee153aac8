//! `/v1/audio/transcriptions` and `/v1/models` driven by OpenAI's own Python client (the `openai`
//! package from PyPI, `tests/support/openai_client.py`) against the real binary with a real
//! Whisper model: every response format, a WAV without an extension, OpenAI-shaped errors, and
//! the API token's "keep in the Vault" choice.

use std::time::Duration;

use serde_json::{Value, json};

use crate::helpers::{TestApp, audio};
use crate::pipeline::spawn_pipeline_app;
use scribevault_test_support::word_error_rate;

/// Whether python3 with the `openai` package and ffmpeg are installed (a failure under CI).
fn openai_installed(test_name: &str) -> bool {
    let python = std::process::Command::new("python3")
        .args(["-c", "import openai"])
        .output()
        .is_ok_and(|output| output.status.success());
    let ffmpeg = std::process::Command::new("ffmpeg")
        .arg("-version")
        .output()
        .is_ok_and(|output| output.status.success());
    scribevault_test_support::required_tool(
        python && ffmpeg,
        "python3 with the openai package (`scripts/install-test-tools.sh`) and ffmpeg",
        test_name,
    )
}

/// Runs the official client; answers what it printed.
async fn run_client(app: &TestApp, token: &str, mp3: &str, scenario: &str) -> Value {
    let script = scribevault_test_support::workspace_root()
        .join("crates/scribevault/tests/support/openai_client.py");
    let output = tokio::time::timeout(
        Duration::from_secs(600),
        tokio::process::Command::new("python3")
            .arg(script)
            .args([
                app.base.as_str(),
                token,
                audio(mp3).to_str().unwrap(),
                scenario,
            ])
            .kill_on_drop(true)
            .output(),
    )
    .await
    .expect("the client finishes")
    .expect("python3 runs");
    assert!(
        output.status.success(),
        "the openai client failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).unwrap_or_else(|error| {
        panic!(
            "the client printed no JSON ({error}): {}",
            String::from_utf8_lossy(&output.stdout)
        )
    })
}

/// Makes an API token for the signed-in `session`.
async fn api_token(app: &TestApp, session: &str, save_to_vault: bool) -> String {
    let (status, made) = app
        .post_json(
            "/api/tokens",
            &json!({ "name": "openai client", "saveToVault": save_to_vault }),
            Some(session),
        )
        .await;
    assert_eq!(status, 201, "{made}");
    made["data"]["token"].as_str().unwrap().to_owned()
}

fn reference(name: &str) -> String {
    std::fs::read_to_string(audio(&format!("{name}.txt"))).unwrap()
}

/// `/v1/models` names `whisper-1` and the installed models.
fn assert_the_models_are_listed(out: &Value) {
    let models: Vec<&str> = out["models"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert!(models.contains(&"whisper-1"), "{models:?}");
    assert!(models.contains(&"small"), "{models:?}");
}

/// `json` and `text` carry the spoken words; `verbose_json` adds ordered word times, the
/// language and the duration.
fn assert_the_text_formats_agree(out: &Value, spoken: &str) {
    let text = out["json"].as_str().unwrap();
    let wer = word_error_rate(spoken, text);
    assert!(wer < 0.25, "WER {wer} for {text:?}");
    assert_eq!(out["text"].as_str().unwrap().trim(), text.trim());

    let verbose = &out["verbose"];
    assert_eq!(verbose["text"], out["json"]);
    let segments = verbose["segments"].as_array().unwrap();
    assert!(!segments.is_empty());
    let words = verbose["words"].as_array().unwrap();
    assert!(words.len() >= 5, "{words:?}");
    let mut previous = 0.0;
    for word in words {
        let (start, end) = (
            word["start"].as_f64().unwrap(),
            word["end"].as_f64().unwrap(),
        );
        assert!(
            start >= previous - 0.05 && end >= start,
            "{word} after {previous}"
        );
        previous = start;
    }
    // tiny.en hears English whatever is asked; OpenAI names it in lower case.
    assert_eq!(verbose["language"], "english", "{verbose}");
    let duration = verbose["duration"].as_f64().unwrap();
    assert!(
        (5.0..9.0).contains(&duration),
        "7.5 s of audio, got {duration}"
    );
}

/// The client hands over the body's `error` object as `error.body`: each bad request gets the
/// class, status and `param` OpenAI's API would answer.
fn assert_the_errors_are_openais(out: &Value, spoken: &str) {
    // Not one of the containers taken: 415 before any decoder runs, naming the ones taken.
    let not_audio = &out["not_audio"];
    assert_eq!(not_audio["status"], 415, "{not_audio}");
    assert_eq!(not_audio["error"]["type"], "invalid_request_error");
    assert_eq!(not_audio["error"]["param"], "file");
    let message = not_audio["error"]["message"].as_str().unwrap();
    assert!(message.contains("WAV, FLAC, Ogg/Opus"), "{message}");
    // A taken container ffmpeg cannot read: 400.
    let broken = &out["broken_wav"];
    assert_eq!(broken["class"], "BadRequestError", "{broken}");
    assert_eq!(broken["error"]["param"], "file");
    let unknown = &out["unknown_model"];
    assert_eq!(unknown["class"], "NotFoundError", "{unknown}");
    assert_eq!(unknown["error"]["code"], "model_not_found");
    assert_eq!(
        out["bad_language"]["status"], 400,
        "{}",
        out["bad_language"]
    );
    assert_eq!(out["bad_language"]["error"]["param"], "language");
    let english = out["english"].as_str().unwrap();
    assert!(word_error_rate(spoken, english) < 0.25, "{english:?}");
    assert_eq!(out["bad_format"]["status"], 400, "{}", out["bad_format"]);
    assert_eq!(out["bad_format"]["error"]["param"], "response_format");
    assert_eq!(
        out["bad_token"]["class"], "AuthenticationError",
        "{}",
        out["bad_token"]
    );
}

/// This token does not keep transcriptions: the Vault stays empty. An absence needs a
/// witness, not a pause: a file the same user transcribes afterwards the usual way is handed
/// to the library after the ones above, so once it is in the Vault they would be too.
async fn assert_the_vault_holds_only_a_later_witness(app: &TestApp, session: &str) {
    let (status, body) = app
        .upload(session, &audio("sample-02-subscribe.mp3"), Some("witness"))
        .await;
    assert_eq!(status, 200, "{body}");
    let (status, started) = app
        .post_json(
            "/api/transcription/start",
            &json!({
                "files": [{ "id": "witness", "mp3Path": body["data"]["mp3Path"], "title": "witness" }],
                "model": "small",
                "outputFormat": "markdown"
            }),
            Some(session),
        )
        .await;
    assert_eq!(status, 200, "{started}");
    let vault = app
        .wait_for_vault_total(session, 1, Duration::from_secs(300))
        .await;
    assert_eq!(vault["data"][0]["title"], "witness", "{vault}");
}

#[tokio::test]
async fn the_openai_client_transcribes_in_every_format_and_gets_openai_errors() {
    if !openai_installed("the_openai_client_transcribes_in_every_format_and_gets_openai_errors") {
        return;
    }
    let (app, _models) = spawn_pipeline_app(&[]).await;
    let (session, _) = app.sign_up("openai@example.com").await;
    let token = api_token(&app, &session, false).await;

    let out = run_client(&app, &token, "sample-01-welcome.mp3", "formats").await;
    let spoken = reference("sample-01-welcome");
    assert_the_models_are_listed(&out);
    assert_the_text_formats_agree(&out, &spoken);

    let srt = out["srt"].as_str().unwrap();
    assert!(srt.starts_with("1\n00:00:0"), "{srt}");
    assert!(srt.contains(" --> "), "{srt}");
    let vtt = out["vtt"].as_str().unwrap();
    assert!(vtt.starts_with("WEBVTT\n\n00:00:0"), "{vtt}");

    let wav = out["wav"].as_str().unwrap();
    assert!(word_error_rate(&spoken, wav) < 0.25, "{wav:?}");

    assert_the_errors_are_openais(&out, &spoken);
    assert_the_vault_holds_only_a_later_witness(&app, &session).await;
}

#[tokio::test]
async fn a_token_that_keeps_transcriptions_puts_them_in_the_vault() {
    if !openai_installed("a_token_that_keeps_transcriptions_puts_them_in_the_vault") {
        return;
    }
    let (app, _models) = spawn_pipeline_app(&[]).await;
    let (session, _) = app.sign_up("keeper@example.com").await;
    let token = api_token(&app, &session, true).await;

    let out = run_client(&app, &token, "sample-02-subscribe.mp3", "once").await;
    let text = out["text"].as_str().unwrap();
    assert!(
        word_error_rate(&reference("sample-02-subscribe"), text) < 0.25,
        "{text:?}"
    );
    let vault = app
        .wait_for_vault_total(&session, 1, Duration::from_secs(30))
        .await;
    assert_eq!(vault["data"][0]["title"], "sample-02-subscribe", "{vault}");
}

/// Posts `bytes` as the form's file with curl, as a script would; answers the status and the
/// `Retry-After` header. curl reads an early answer while it still sends, as OpenAI's clients do.
async fn curl_upload(app: &TestApp, token: &str, file: &std::path::Path) -> (u16, Option<String>) {
    let output = tokio::process::Command::new("curl")
        .args([
            "-s",
            "-o",
            "/dev/null",
            "-D",
            "-",
            "-w",
            "\nstatus=%{http_code}",
        ])
        .arg("-H")
        .arg(format!("Authorization: Bearer {token}"))
        .args(["-F", "model=whisper-1", "-F"])
        .arg(format!("file=@{}", file.display()))
        .arg(app.url("/v1/audio/transcriptions"))
        .kill_on_drop(true)
        .output()
        .await
        .expect("curl runs");
    let printed = String::from_utf8_lossy(&output.stdout);
    let status = printed
        .lines()
        .find_map(|line| line.strip_prefix("status="))
        .and_then(|code| code.trim().parse().ok())
        .unwrap_or(0);
    let retry_after = printed.lines().find_map(|line| {
        let (name, value) = line.split_once(':')?;
        name.eq_ignore_ascii_case("retry-after")
            .then(|| value.trim().to_owned())
    });
    (status, retry_after)
}

/// An HLS playlist, a DASH manifest and an ffconcat script name a file on the server's disk;
/// probed by ffmpeg they would transcode it into the caller's own upload (the security
/// review's G4, confirmed with Debian's ffmpeg). The file they name is a FIFO with no writer:
/// any reader that opens it blocks until the request's 30-minute transcode deadline, so an
/// answer in seconds shows nothing read it.
#[tokio::test]
async fn playlists_and_scripts_are_refused_and_nothing_reads_the_files_they_name() {
    if !openai_installed("playlists_and_scripts_are_refused_and_nothing_reads_the_files_they_name")
    {
        return;
    }
    let app = TestApp::spawn().await;
    let (session, _) = app.sign_up("playlists@example.com").await;
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("secret.mp3");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success());
    let fifo = fifo.display();
    let documents = [
        (
            "hls",
            format!(
                "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXT-X-MEDIA-SEQUENCE:0\n#EXTINF:2,\nfile://{fifo}\n#EXT-X-ENDLIST\n"
            ),
        ),
        (
            "dash",
            format!(
                "<?xml version=\"1.0\"?>\n<MPD xmlns=\"urn:mpeg:dash:schema:mpd:2011\" profiles=\"urn:mpeg:dash:profile:isoff-on-demand:2011\" type=\"static\" mediaPresentationDuration=\"PT2S\"><Period><AdaptationSet mimeType=\"audio/mp4\"><Representation id=\"a\" bandwidth=\"64000\"><BaseURL>file://{fifo}</BaseURL></Representation></AdaptationSet></Period></MPD>\n"
            ),
        ),
        ("ffconcat", format!("ffconcat version 1.0\nfile '{fifo}'\n")),
    ];
    for (kind, document) in documents {
        let form = reqwest::multipart::Form::new()
            .text("model", "whisper-1")
            .part(
                "file",
                reqwest::multipart::Part::bytes(document.into_bytes()).file_name("recording"),
            );
        let answer = tokio::time::timeout(
            Duration::from_secs(30),
            app.http
                .post(app.url("/v1/audio/transcriptions"))
                .bearer_auth(&session)
                .multipart(form)
                .send(),
        )
        .await
        .unwrap_or_else(|_| panic!("the {kind} upload hung: something opened the file it names"))
        .unwrap();
        assert_eq!(answer.status(), 415, "{kind}");
        let body: Value = answer.json().await.unwrap();
        assert_eq!(body["error"]["param"], "file", "{kind}: {body}");
        let message = body["error"]["message"].as_str().unwrap();
        assert!(message.contains("MP4/M4A"), "{kind}: {message}");
    }
}

/// Eight 300 MB WAVs from one account at once (the review's G3): one is spooled, the other
/// seven are told to come back before their bodies are read; the one taken is transcoded only
/// just past the duration cap (here 10 minutes, where the WAV holds 10.9 hours) and refused by
/// storage; nothing is left in the spool.
#[tokio::test]
async fn parallel_uploads_meet_the_permit_and_the_cap_before_the_disk() {
    if !openai_installed("parallel_uploads_meet_the_permit_and_the_cap_before_the_disk") {
        return;
    }
    let app = TestApp::spawn_all_with(&[("SCRIBEVAULT_MAX_AUDIO_SECONDS", "600")]).await;
    let (session, _) = app.sign_up("burst@example.com").await;
    let dir = tempfile::tempdir().unwrap();
    let wav = dir.path().join("big.wav");
    {
        // 8 kHz, 8-bit mono silence: 300 MB is 10.9 hours. Sparse, so the test costs no disk.
        let samples: u32 = 300 << 20;
        let mut header = Vec::new();
        header.extend_from_slice(b"RIFF");
        header.extend_from_slice(&(36 + samples).to_le_bytes());
        header.extend_from_slice(b"WAVEfmt ");
        header.extend_from_slice(&16_u32.to_le_bytes());
        header.extend_from_slice(&1_u16.to_le_bytes());
        header.extend_from_slice(&1_u16.to_le_bytes());
        header.extend_from_slice(&8000_u32.to_le_bytes());
        header.extend_from_slice(&8000_u32.to_le_bytes());
        header.extend_from_slice(&1_u16.to_le_bytes());
        header.extend_from_slice(&8_u16.to_le_bytes());
        header.extend_from_slice(b"data");
        header.extend_from_slice(&samples.to_le_bytes());
        let file = std::fs::File::create(&wav).unwrap();
        std::io::Write::write_all(&mut &file, &header).unwrap();
        file.set_len(44 + u64::from(samples)).unwrap();
    }
    let uploads = (0..8).map(|_| curl_upload(&app, &session, &wav));
    let answers = futures::future::join_all(uploads).await;
    let refused: Vec<_> = answers
        .iter()
        .filter(|(status, _)| *status == 429)
        .collect();
    assert_eq!(refused.len(), 7, "{answers:?}");
    for (_, retry_after) in &refused {
        let seconds: u64 = retry_after.as_deref().unwrap().parse().unwrap();
        assert!(seconds > 0);
    }
    let taken: Vec<_> = answers
        .iter()
        .filter(|(status, _)| *status != 429)
        .collect();
    assert_eq!(taken.len(), 1, "{answers:?}");
    let status = taken[0].0;
    assert!(
        (400..500).contains(&status),
        "too long to store: {answers:?}"
    );
    let spool = app.data_dir.path().join("spool");
    let left: Vec<_> = std::fs::read_dir(&spool).unwrap().flatten().collect();
    assert!(left.is_empty(), "{left:?}");
}
