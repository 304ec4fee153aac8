//! `scribevault model fetch` against a real HTTP server on loopback that serves the real test
//! model from `shared/models/` (77 MB): checksums given on the command line and whisper.cpp's
//! published ones, a body cut short, a 404, plain progress lines when stdout is not a terminal,
//! and what is (not) left in the model directory afterwards.

use std::path::{Path, PathBuf};
use std::process::Output;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use tokio::io::{AsyncBufReadExt as _, AsyncReadExt as _, AsyncWriteExt as _};

/// What the test server does for one path.
#[derive(Clone, Copy)]
enum Reply {
    /// 200 with the whole file.
    Whole,
    /// 200 announcing the whole length, then half the body and a closed connection.
    CutShort,
}

/// A minimal HTTP/1.1 server on 127.0.0.1: `/ggml-tiny.en.bin` and `/ggml-my-tiny.bin` serve the
/// shared tiny.en model, `/cut/ggml-tiny.en.bin` breaks off half way, anything else is 404.
/// Hand-written rather than a mock so that a body can really be cut short mid-stream.
struct ModelServer {
    base_url: String,
    requests: Arc<AtomicUsize>,
    task: tokio::task::JoinHandle<()>,
}

impl ModelServer {
    async fn start() -> Self {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base_url = format!("http://{}", listener.local_addr().unwrap());
        let requests = Arc::new(AtomicUsize::new(0));
        let counter = requests.clone();
        let task = tokio::spawn(async move {
            loop {
                let Ok((socket, _)) = listener.accept().await else {
                    return;
                };
                counter.fetch_add(1, Ordering::SeqCst);
                tokio::spawn(serve(socket));
            }
        });
        Self {
            base_url,
            requests,
            task,
        }
    }

    fn requests(&self) -> usize {
        self.requests.load(Ordering::SeqCst)
    }
}

impl Drop for ModelServer {
    fn drop(&mut self) {
        self.task.abort();
    }
}

async fn serve(socket: tokio::net::TcpStream) {
    let mut socket = tokio::io::BufReader::new(socket);
    let mut request_line = String::new();
    if socket.read_line(&mut request_line).await.is_err() {
        return;
    }
    // Skip the headers.
    loop {
        let mut line = String::new();
        match socket.read_line(&mut line).await {
            Ok(0) | Err(_) => return,
            Ok(_) if line == "\r\n" => break,
            Ok(_) => {}
        }
    }
    let path = request_line.split_whitespace().nth(1).unwrap_or_default();
    let reply = match path {
        "/ggml-tiny.en.bin" | "/ggml-my-tiny.bin" => Some(Reply::Whole),
        "/cut/ggml-tiny.en.bin" => Some(Reply::CutShort),
        _ => None,
    };
    let socket = socket.get_mut();
    let Some(reply) = reply else {
        let _ = socket
            .write_all(b"HTTP/1.1 404 Not Found\r\ncontent-length: 9\r\nconnection: close\r\n\r\nnot found")
            .await;
        return;
    };
    let mut file = tokio::fs::File::open(shared_model()).await.unwrap();
    let length = file.metadata().await.unwrap().len();
    let head = format!(
        "HTTP/1.1 200 OK\r\ncontent-type: application/octet-stream\r\ncontent-length: {length}\r\nconnection: close\r\n\r\n"
    );
    if socket.write_all(head.as_bytes()).await.is_err() {
        return;
    }
    let sent = match reply {
        Reply::Whole => tokio::io::copy(&mut file, socket).await,
        Reply::CutShort => tokio::io::copy(&mut (&mut file).take(length / 2), socket).await,
    };
    let _ = sent;
    let _ = socket.shutdown().await;
}

fn shared_model() -> PathBuf {
    scribevault_test_support::shared_dir().join("models/ggml-tiny.en.bin")
}

/// The SHA-256 of `file` from `shared/models/SHA256SUMS`.
fn published_sha256(file: &str) -> String {
    let sums =
        std::fs::read_to_string(scribevault_test_support::shared_dir().join("models/SHA256SUMS"))
            .unwrap();
    sums.lines()
        .find_map(|line| {
            let (hash, name) = line.split_once(char::is_whitespace)?;
            (name.trim_start_matches([' ', '*']) == file).then(|| hash.to_owned())
        })
        .unwrap_or_else(|| panic!("{file} is not in SHA256SUMS"))
}

/// Runs `scribevault model fetch <args>` with only the settings it needs, stdout piped (so not a
/// terminal).
async fn fetch(models: &Path, base_url: &str, args: &[&str]) -> Output {
    let mut command = tokio::process::Command::new(env!("CARGO_BIN_EXE_scribevault"));
    command.env_clear();
    for key in ["PATH", "HOME", "TMPDIR"] {
        if let Ok(value) = std::env::var(key) {
            command.env(key, value);
        }
    }
    command
        .args(["model", "fetch"])
        .args(args)
        .env("SCRIBEVAULT_MODEL_BASE_URL", base_url)
        .env("SCRIBEVAULT_WHISPER_MODEL_DIR", models)
        .env("SCRIBEVAULT_DATA_DIR", models.with_file_name("data"))
        .kill_on_drop(true)
        .output()
        .await
        .unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The names in the model directory; none when the command did not create it.
fn entries(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names
}

#[tokio::test]
async fn a_matching_sha256_saves_the_model_with_plain_progress_lines_then_it_is_not_fetched_again()
{
    let server = ModelServer::start().await;
    let root = tempfile::tempdir().unwrap();
    let models = root.path().join("models");
    let sha256 = published_sha256("ggml-tiny.en.bin");

    let output = fetch(&models, &server.base_url, &["tiny.en", "--sha256", &sha256]).await;
    let (stdout, stderr) = (text(&output.stdout), text(&output.stderr));
    assert!(
        output.status.success(),
        "stdout:\n{stdout}\nstderr:\n{stderr}"
    );
    assert_eq!(entries(&models), ["ggml-tiny.en.bin"], "no partial left");
    let saved = models.join("ggml-tiny.en.bin");
    assert!(
        std::fs::read(&saved).unwrap() == std::fs::read(shared_model()).unwrap(),
        "the saved file is the served one"
    );
    assert!(
        stdout.contains("SHA-256 matches the one given on the command line"),
        "{stdout}"
    );
    // Not a terminal: a handful of plain lines with size, rate and time left, not redraws.
    let progress: Vec<&str> = stdout
        .lines()
        .filter(|line| line.starts_with("tiny.en: ") && line.contains(" % ("))
        .collect();
    assert!(
        (1..=9).contains(&progress.len()),
        "one line per tenth at most:\n{stdout}"
    );
    assert!(
        progress
            .iter()
            .all(|line| line.contains(" of 74.10 MiB, ") && line.contains("/s")),
        "{stdout}"
    );
    assert!(
        !stdout.contains('\r'),
        "no carriage-return redraws:\n{stdout:?}"
    );
    assert_eq!(server.requests(), 1);

    let again = fetch(&models, &server.base_url, &["tiny.en", "--sha256", &sha256]).await;
    assert!(again.status.success(), "{}", text(&again.stderr));
    assert!(text(&again.stdout).contains("already present"));
    assert_eq!(
        server.requests(),
        1,
        "a present model is not downloaded again"
    );
}

#[tokio::test]
async fn fetch_with_quantize_writes_int8_weights_beside_the_model() {
    let server = ModelServer::start().await;
    let root = tempfile::tempdir().unwrap();
    let models = root.path().join("models");
    let sha256 = published_sha256("ggml-tiny.en.bin");

    let output = fetch(
        &models,
        &server.base_url,
        &["tiny.en", "--sha256", &sha256, "--quantize", "q8_0"],
    )
    .await;
    let stdout = text(&output.stdout);
    assert!(
        output.status.success(),
        "{stdout}\n{}",
        text(&output.stderr)
    );
    assert_eq!(
        entries(&models),
        ["ggml-tiny.en-q8_0.bin", "ggml-tiny.en.bin"],
        "the model, its quantised copy, nothing partial"
    );
    assert!(stdout.contains("tensors quantised to q8_0"), "{stdout}");
    let quantised = std::fs::read(models.join("ggml-tiny.en-q8_0.bin")).unwrap();
    // The header's weight type: 2007 is q8_0 as whisper.cpp writes it.
    assert_eq!(
        i32::from_le_bytes(quantised[44..48].try_into().unwrap()),
        2007
    );
    assert!(quantised.len() * 10 < std::fs::metadata(shared_model()).unwrap().len() as usize * 6);

    let refused = fetch(
        &models,
        &server.base_url,
        &["tiny.en", "--quantize", "q4_k"],
    )
    .await;
    assert!(!refused.status.success());
    assert!(
        text(&refused.stderr).contains("q8_0, q5_0 or bf16"),
        "{}",
        text(&refused.stderr)
    );
}

#[tokio::test]
async fn a_wrong_sha256_fails_naming_both_digests_and_leaves_nothing() {
    let server = ModelServer::start().await;
    let root = tempfile::tempdir().unwrap();
    let models = root.path().join("models");
    let right = published_sha256("ggml-tiny.en.bin");
    let wrong = published_sha256("ggml-base-q8_0.bin");

    let output = fetch(&models, &server.base_url, &["tiny.en", "--sha256", &wrong]).await;
    let stderr = text(&output.stderr);
    assert!(!output.status.success(), "a wrong checksum must fail");
    assert!(stderr.contains("SHA-256 mismatch"), "{stderr}");
    assert!(
        stderr.contains(&format!(
            "expected {wrong} (given on the command line), got {right}"
        )),
        "{stderr}"
    );
    assert!(stderr.contains("the download was deleted"), "{stderr}");
    assert_eq!(
        entries(&models),
        Vec::<String>::new(),
        "no model, no partial"
    );
}

/// The shared tiny.en is a conversion, not whisper.cpp's file: without an option, the published
/// SHA-1 for tiny.en applies and must reject it.
#[tokio::test]
async fn a_published_name_is_checked_against_whisper_cpps_sha1() {
    let server = ModelServer::start().await;
    let root = tempfile::tempdir().unwrap();
    let models = root.path().join("models");

    let output = fetch(&models, &server.base_url, &["tiny.en"]).await;
    let stderr = text(&output.stderr);
    assert!(
        !output.status.success(),
        "the published SHA-1 must be checked"
    );
    assert!(
        stderr.contains("SHA-1 mismatch for http://127.0.0.1:")
            && stderr.contains(
                "expected c78c86eb1a8faa21b369bcd33207cc90d64ae9df (published by whisper.cpp), got "
            ),
        "{stderr}"
    );
    assert_eq!(entries(&models), Vec::<String>::new());
}

#[tokio::test]
async fn a_name_without_a_published_checksum_is_saved_after_the_header_and_length_checks() {
    let server = ModelServer::start().await;
    let root = tempfile::tempdir().unwrap();
    let models = root.path().join("models");

    let output = fetch(&models, &server.base_url, &["my-tiny"]).await;
    let stdout = text(&output.stdout);
    assert!(output.status.success(), "{}", text(&output.stderr));
    assert!(
        stdout.contains(
            "ggml-my-tiny.bin has no published checksum and none was given (--sha1/--sha256)"
        ),
        "{stdout}"
    );
    assert!(
        stdout.contains("ggml header and length checked"),
        "{stdout}"
    );
    assert_eq!(entries(&models), ["ggml-my-tiny.bin"]);
}

#[tokio::test]
async fn a_body_cut_short_fails_and_leaves_nothing() {
    let server = ModelServer::start().await;
    let root = tempfile::tempdir().unwrap();
    let models = root.path().join("models");
    let sha256 = published_sha256("ggml-tiny.en.bin");
    let base_url = format!("{}/cut", server.base_url);

    let output = fetch(&models, &base_url, &["tiny.en", "--sha256", &sha256]).await;
    let stderr = text(&output.stderr);
    assert!(!output.status.success(), "half a model must fail");
    assert!(
        stderr.contains(&format!(
            "the download of {base_url}/ggml-tiny.en.bin broke off after "
        )) && stderr.contains(" of 77704698 bytes: "),
        "{stderr}"
    );
    assert_eq!(entries(&models), Vec::<String>::new());
}

#[tokio::test]
async fn a_404_says_there_is_no_such_model_and_leaves_nothing() {
    let server = ModelServer::start().await;
    let root = tempfile::tempdir().unwrap();
    let models = root.path().join("models");

    let output = fetch(&models, &server.base_url, &["base.en"]).await;
    let stderr = text(&output.stderr);
    assert!(!output.status.success());
    assert!(
        stderr.contains(&format!(
            "{}/ggml-base.en.bin answered 404 Not Found: no such model there",
            server.base_url
        )),
        "{stderr}"
    );
    assert_eq!(entries(&models), Vec::<String>::new());
}

#[tokio::test]
async fn no_server_says_so_in_one_line() {
    // A port nobody listens on: bound, then closed.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let root = tempfile::tempdir().unwrap();
    let models = root.path().join("models");
    let output = fetch(&models, &format!("http://127.0.0.1:{port}"), &["small"]).await;
    let stderr = text(&output.stderr);
    assert!(!output.status.success());
    let line = stderr
        .lines()
        .find(|line| line.starts_with("scribevault: "))
        .unwrap_or_else(|| panic!("{stderr}"));
    assert!(
        line.contains(&format!(
            "cannot reach http://127.0.0.1:{port}/ggml-small.bin: "
        )) && line.to_lowercase().contains("refused"),
        "{line}"
    );
}

#[tokio::test]
async fn checksum_options_are_checked_before_any_download() {
    let server = ModelServer::start().await;
    let root = tempfile::tempdir().unwrap();
    let models = root.path().join("models");
    let short = fetch(&models, &server.base_url, &["tiny.en", "--sha256", "abc"]).await;
    assert!(!short.status.success());
    assert!(text(&short.stderr).contains("a SHA-256 digest is 64 hex digits"));
    let both = fetch(
        &models,
        &server.base_url,
        &[
            "tiny.en",
            "--sha1",
            &"0".repeat(40),
            "--sha256",
            &"0".repeat(64),
        ],
    )
    .await;
    assert!(!both.status.success());
    assert!(text(&both.stderr).contains("cannot be used with"));
    assert_eq!(server.requests(), 0);
}

/// A small synthetic model under a name with no published checksum; something that is not a
/// model; a missing one; a name that tries to leave the directory.
#[tokio::test]
async fn model_fetch_downloads_a_model_once_and_refuses_what_is_not_one() {
    use wiremock::matchers::{method, path};
    use wiremock::{Mock, MockServer, ResponseTemplate};
    let mirror = MockServer::start().await;
    let model: Vec<u8> = b"lmgg"
        .iter()
        .copied()
        .chain((0..100_000u32).map(|i| (i % 251) as u8))
        .collect();
    Mock::given(method("GET"))
        .and(path("/ggml-synthetic.bin"))
        .respond_with(ResponseTemplate::new(200).set_body_bytes(model.clone()))
        .expect(1)
        .mount(&mirror)
        .await;
    Mock::given(method("GET"))
        .and(path("/ggml-html.bin"))
        .respond_with(ResponseTemplate::new(200).set_body_string("<html>not a model</html>"))
        .mount(&mirror)
        .await;
    let models = tempfile::tempdir().unwrap();
    let fetch = |name: &str| {
        std::process::Command::new(env!("CARGO_BIN_EXE_scribevault"))
            .args(["model", "fetch", name, "--base-url", &mirror.uri()])
            .env("SCRIBEVAULT_WHISPER_MODEL_DIR", models.path())
            .env("SCRIBEVAULT_DATA_DIR", models.path())
            .output()
            .unwrap()
    };
    let first = fetch("synthetic");
    assert!(
        first.status.success(),
        "{}",
        String::from_utf8_lossy(&first.stderr)
    );
    assert_eq!(
        std::fs::read(models.path().join("ggml-synthetic.bin")).unwrap(),
        model
    );
    let again = fetch("synthetic");
    assert!(again.status.success());
    assert!(
        String::from_utf8_lossy(&again.stdout).contains("already present"),
        "no second download"
    );
    let html = fetch("html");
    assert!(!html.status.success());
    assert!(String::from_utf8_lossy(&html.stderr).contains("is not a whisper.cpp ggml model"));
    assert!(
        !models.path().join("ggml-html.bin").exists(),
        "nothing half-downloaded is left"
    );
    let missing = fetch("absent");
    assert!(!missing.status.success());
    assert!(String::from_utf8_lossy(&missing.stderr).contains("404"));
    let bad = fetch("../escape");
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("invalid model name"));
}
