//! Helpers shared by the tests of every crate: gating on real servers, fixture paths, ports.
//!
//! Tests that need a real server (PostgreSQL, RabbitMQ, Redis, an S3 server) read its URL from a
//! `SCRIBEVAULT_TEST_*` variable that `make test` sets after starting the server. Under
//! `CI=true` a missing variable fails the test; elsewhere the test is skipped with a loud line,
//! so a developer without the servers still gets a useful run and is never fooled by it.
//!
//! [`youtube`] is an in-process fake of the YouTube Data API v3 (also served by the
//! `fake-youtube` binary for browser end-to-end runs).

pub mod grpc;
pub mod media;
pub mod speech;
pub mod transitions;
pub mod youtube;
pub mod youtube_site;

use std::path::PathBuf;
use std::time::Duration;

/// PostgreSQL admin URL (a role allowed to create databases).
pub const POSTGRES_URL_ENV: &str = "SCRIBEVAULT_TEST_POSTGRES_URL";
/// RabbitMQ URL.
pub const AMQP_URL_ENV: &str = "SCRIBEVAULT_TEST_AMQP_URL";
/// Redis URL.
pub const REDIS_URL_ENV: &str = "SCRIBEVAULT_TEST_REDIS_URL";
/// S3-compatible endpoint (moto_server in CI).
pub const S3_ENDPOINT_ENV: &str = "SCRIBEVAULT_TEST_S3_ENDPOINT";
/// A shell command prefix that runs `rabbitmqctl` against the test broker.
pub const RABBITMQCTL_ENV: &str = "SCRIBEVAULT_TEST_RABBITMQCTL";

/// True when running under CI, where every real-server test must run.
#[must_use]
pub fn in_ci() -> bool {
    std::env::var("CI").is_ok_and(|value| value == "true" || value == "1")
}

/// The value of a real-server variable, or `None` (after a loud message) when the server is not
/// configured outside CI.
///
/// # Panics
/// Under CI when the variable is unset: a suite that silently skipped would prove nothing.
#[must_use]
pub fn real_server(env_key: &str, test_name: &str) -> Option<String> {
    match std::env::var(env_key) {
        Ok(value) if !value.is_empty() => Some(value),
        _ if in_ci() => panic!(
            "{test_name}: {env_key} is not set but CI=true; real-server tests must run in CI \
             (`make test` starts the servers and sets it)"
        ),
        _ => {
            // Written to the real stderr, past libtest's capture, so the skip is never silent.
            use std::io::Write as _;
            let _ = writeln!(
                std::io::stderr(),
                "\n!!!! SKIPPED {test_name}: {env_key} is not set, so the real server is not tested. \
                 Run `make test` to start the servers. !!!!"
            );
            None
        }
    }
}

/// Whether a tool a test drives is installed (`available`), like [`real_server`] for servers:
/// `false` after a loud message when it is missing outside CI.
///
/// # Panics
/// Under CI when the tool is missing.
#[must_use]
pub fn required_tool(available: bool, tool: &str, test_name: &str) -> bool {
    if available {
        return true;
    }
    assert!(
        !in_ci(),
        "{test_name}: {tool} is not installed but CI=true; tests that drive it must run in CI"
    );
    use std::io::Write as _;
    let _ = writeln!(
        std::io::stderr(),
        "\n!!!! SKIPPED {test_name}: {tool} is not installed, so it is not tested. !!!!"
    );
    false
}

/// The Silero VAD model `scripts/install-vad-model.sh` builds (`make test` exports its path as
/// `SCRIBEVAULT_TEST_VAD_MODEL`), or `None` after a loud message outside CI.
///
/// # Panics
/// Under CI when the model is missing.
#[must_use]
pub fn vad_model(test_name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("SCRIBEVAULT_TEST_VAD_MODEL").map_or_else(
        || {
            let cache = std::env::var_os("XDG_CACHE_HOME").map_or_else(
                || PathBuf::from(std::env::var_os("HOME").unwrap_or_default()).join(".cache"),
                PathBuf::from,
            );
            cache.join("scribevault/models/ggml-silero-v6.2.0.bin")
        },
        PathBuf::from,
    );
    required_tool(
        path.is_file(),
        "the Silero VAD model (scripts/install-vad-model.sh)",
        test_name,
    )
    .then_some(path)
}

/// The sentence-embedding model `scripts/install-embedding-model.sh` installs (`make test`
/// exports its path as `SCRIBEVAULT_TEST_EMBEDDING_MODEL`), or `None` after a loud message
/// outside CI.
///
/// # Panics
/// Under CI when the model is missing.
#[must_use]
pub fn embedding_model(test_name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("SCRIBEVAULT_TEST_EMBEDDING_MODEL").map_or_else(
        || {
            let cache = std::env::var_os("XDG_CACHE_HOME").map_or_else(
                || PathBuf::from(std::env::var_os("HOME").unwrap_or_default()).join(".cache"),
                PathBuf::from,
            );
            cache.join("scribevault/models/e5-small-q4.bin")
        },
        PathBuf::from,
    );
    required_tool(
        path.is_file(),
        "the embedding model (scripts/install-embedding-model.sh)",
        test_name,
    )
    .then_some(path)
}

/// The project's `shared/` folder (models and audio fixtures), beside the repository root.
#[must_use]
pub fn shared_dir() -> PathBuf {
    if let Ok(dir) = std::env::var("SCRIBEVAULT_SHARED_DIR") {
        return PathBuf::from(dir);
    }
    workspace_root().join("../shared")
}

/// The repository root.
///
/// Read from the environment cargo and nextest give every test process (the tested crate's
/// directory, two levels below the root), not from a path compiled in: a shared target dir can
/// hand one checkout's compiled helpers to another.
#[must_use]
pub fn workspace_root() -> PathBuf {
    std::env::var("CARGO_MANIFEST_DIR")
        .map_or_else(|_| PathBuf::from(env!("CARGO_MANIFEST_DIR")), PathBuf::from)
        .join("../..")
}

/// A port that was free a moment ago on 127.0.0.1.
///
/// # Panics
/// If no local port can be bound at all.
#[must_use]
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|listener| listener.local_addr())
        .map(|addr| addr.port())
        .expect("bind an ephemeral port on 127.0.0.1")
}

/// Waits until something accepts TCP connections on `addr`.
///
/// # Panics
/// When nothing listens within `timeout`.
pub async fn wait_for_listener(addr: &str, timeout: Duration) {
    let deadline = tokio::time::Instant::now() + timeout;
    loop {
        if tokio::net::TcpStream::connect(addr).await.is_ok() {
            return;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "nothing listens on {addr} after {timeout:?}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// A short unique name for test resources (databases, queues, buckets).
#[must_use]
pub fn unique_name(prefix: &str) -> String {
    format!("{prefix}_{}", uuid::Uuid::new_v4().simple())
}

/// The words of a transcript or its reference, lower-cased, punctuation dropped (the audio
/// fixtures' reference texts have no digits), for word error rates.
#[must_use]
pub fn words(text: &str) -> Vec<String> {
    text.to_lowercase()
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || c == '\'' {
                c
            } else {
                ' '
            }
        })
        .collect::<String>()
        .split_whitespace()
        .map(str::to_owned)
        .collect()
}

/// Word error rate of `hypothesis` against `reference` (word edit distance over the
/// reference's words), on [`words`].
#[must_use]
pub fn word_error_rate(reference: &str, hypothesis: &str) -> f64 {
    let (reference, hypothesis) = (words(reference), words(hypothesis));
    let mut previous: Vec<usize> = (0..=hypothesis.len()).collect();
    for (i, reference_word) in reference.iter().enumerate() {
        let mut current = vec![i + 1; hypothesis.len() + 1];
        for (j, hypothesis_word) in hypothesis.iter().enumerate() {
            let substitution = previous[j] + usize::from(reference_word != hypothesis_word);
            current[j + 1] = substitution.min(previous[j + 1] + 1).min(current[j] + 1);
        }
        previous = current;
    }
    #[allow(clippy::cast_precision_loss)]
    let rate = previous[hypothesis.len()] as f64 / reference.len().max(1) as f64;
    rate
}
