//! Spawning the binary and talking to it.

use std::time::Duration;

use scribevault_proto::library::v1 as library_pb;
use scribevault_test_support::{free_port, wait_for_listener};
use serde_json::{Value, json};

/// A running `scribevault` process (killed on drop).
pub struct Process {
    child: tokio::process::Child,
}

impl Drop for Process {
    fn drop(&mut self) {
        let _ = self.child.start_kill();
    }
}

/// Starts `scribevault <target>` with `env` and waits until `wait_addr` accepts connections.
pub async fn spawn_process(target: &str, env: &[(String, String)], wait_addr: &str) -> Process {
    let mut command = tokio::process::Command::new(env!("CARGO_BIN_EXE_scribevault"));
    command
        .arg(target)
        .kill_on_drop(true)
        .stdout(std::process::Stdio::null());
    if std::env::var("TEST_LOG").is_err() {
        command.stderr(std::process::Stdio::null());
    }
    // A clean slate: only what the test sets, plus what a process needs to run at all.
    command.env_clear();
    for key in ["PATH", "HOME", "TMPDIR", "RUST_LOG"] {
        if let Ok(value) = std::env::var(key) {
            command.env(key, value);
        }
    }
    command.envs(env.iter().map(|(k, v)| (k.as_str(), v.as_str())));
    let child = command.spawn().expect("spawn the scribevault binary");
    wait_for_listener(wait_addr, Duration::from_secs(30)).await;
    Process { child }
}

/// A Scribevault deployment under test: one process (`all`) or several.
pub struct TestApp {
    pub base: String,
    pub library_grpc: String,
    pub data_dir: tempfile::TempDir,
    pub http: reqwest::Client,
    _processes: Vec<Process>,
}

impl TestApp {
    /// `scribevault all` on embedded defaults in a fresh data dir.
    pub async fn spawn() -> Self {
        Self::spawn_all_with(&[]).await
    }

    /// `scribevault all` with extra settings.
    pub async fn spawn_all_with(extra: &[(&str, &str)]) -> Self {
        let data_dir = tempfile::tempdir().unwrap();
        let http_port = free_port();
        let library_port = free_port();
        let mut env = vec![
            (
                "SCRIBEVAULT_DATA_DIR".to_owned(),
                data_dir.path().display().to_string(),
            ),
            (
                "SCRIBEVAULT_HTTP_ADDR".to_owned(),
                format!("127.0.0.1:{http_port}"),
            ),
            (
                "SCRIBEVAULT_LIBRARY_GRPC_ADDR".to_owned(),
                format!("127.0.0.1:{library_port}"),
            ),
            (
                "SCRIBEVAULT_FRONTEND_DIR".to_owned(),
                data_dir.path().join("no-frontend").display().to_string(),
            ),
        ];
        env.extend(
            extra
                .iter()
                .map(|(k, v)| ((*k).to_owned(), (*v).to_owned())),
        );
        let process = spawn_process("all", &env, &format!("127.0.0.1:{http_port}")).await;
        Self::from_parts(
            format!("http://127.0.0.1:{http_port}"),
            format!("127.0.0.1:{library_port}"),
            data_dir,
            vec![process],
        )
    }

    pub fn from_parts(
        base: String,
        library_grpc: String,
        data_dir: tempfile::TempDir,
        processes: Vec<Process>,
    ) -> Self {
        Self {
            base,
            library_grpc,
            data_dir,
            http: reqwest::Client::new(),
            _processes: processes,
        }
    }

    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    pub async fn post_json(&self, path: &str, body: &Value, token: Option<&str>) -> (u16, Value) {
        let mut request = self.http.post(self.url(path)).json(body);
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        let response = request.send().await.unwrap();
        let status = response.status().as_u16();
        (status, response.json().await.unwrap_or(Value::Null))
    }

    pub async fn send(
        &self,
        method: reqwest::Method,
        path: &str,
        token: Option<&str>,
        body: Option<&Value>,
    ) -> (u16, Value) {
        let mut request = self.http.request(method, self.url(path));
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        if let Some(body) = body {
            request = request.json(body);
        }
        let response = request.send().await.unwrap();
        let status = response.status().as_u16();
        (status, response.json().await.unwrap_or(Value::Null))
    }

    pub async fn get(&self, path: &str, token: Option<&str>) -> (u16, Value) {
        self.send(reqwest::Method::GET, path, token, None).await
    }

    /// Signs up a new user; returns (token, user id).
    pub async fn sign_up(&self, email: &str) -> (String, String) {
        let (status, body) = self
            .post_json(
                "/api/auth/signup",
                &json!({ "email": email, "password": "correct horse battery" }),
                None,
            )
            .await;
        assert_eq!(status, 201, "sign-up failed: {body}");
        (
            body["data"]["token"].as_str().unwrap().to_owned(),
            body["data"]["user"]["id"].as_str().unwrap().to_owned(),
        )
    }

    /// Puts an item in `user`'s Vault through the library's gRPC API (as the transcription
    /// pipeline does); returns its id.
    pub async fn ingest(&self, user: &str, source_ref: &str, title: &str, content: &str) -> String {
        let mut client = library_pb::library_service_client::LibraryServiceClient::connect(
            format!("http://{}", self.library_grpc),
        )
        .await
        .unwrap();
        let mut request = tonic::Request::new(library_pb::IngestTranscriptRequest {
            source_ref: source_ref.to_owned(),
            title: title.to_owned(),
            source_type: "AUDIO".into(),
            content: content.to_owned(),
            duration_seconds: Some(12.5),
            created_at: None,
        });
        request
            .metadata_mut()
            .insert("x-scribevault-user-id", user.parse().unwrap());
        client
            .ingest_transcript(request)
            .await
            .unwrap()
            .into_inner()
            .transcript
            .unwrap()
            .id
    }
}
