//! Spawning the binary and talking to it.

use std::collections::HashMap;
use std::time::Duration;

use scribevault_proto::library::v1 as library_pb;
use serde_json::{Value, json};

/// A running `scribevault` process (killed on drop).
pub struct Process {
    child: tokio::process::Child,
    /// What the process announced it listens on, by name (`http`, `library`, …).
    listening: HashMap<String, String>,
}

impl Process {
    /// Kills the process at once (SIGKILL), as a crash or an evicted pod would die.
    pub async fn kill(&mut self) {
        let _ = self.child.kill().await;
    }

    /// The `host:port` the process announced for `name`.
    pub fn addr(&self, name: &str) -> String {
        self.listening
            .get(name)
            .unwrap_or_else(|| panic!("the process announced no {name:?} listener"))
            .clone()
    }

    /// The base URL of the process's HTTP listener.
    pub fn http_base(&self) -> String {
        format!("http://{}", self.addr("http"))
    }

    /// The process id while it runs (the chaos harness looks for its children in /proc).
    pub fn id(&self) -> Option<u32> {
        self.child.id()
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        let _ = self.child.start_kill();
    }
}

/// What the binary prints for every listener it binds (`crates/scribevault/src/listening.rs`).
const LISTENING_PREFIX: &str = "scribevault listening ";

/// The longest a process may take to bind its listeners (a debug build under a loaded machine
/// migrates its databases first).
const STARTUP_TIMEOUT: Duration = Duration::from_secs(60);

/// The service key of the processes a test starts.
pub const TEST_SERVICE_KEY: &str = "test-service-key-0123456789abcdef0123456789abcdef";

/// Makes `request` a call by `user` of `method` (`/package.Service/Method`), signed as the
/// gateway signs it.
pub fn signed_as<T>(user: &str, method: &str, request: &mut tonic::Request<T>) {
    scribevault_core::identity::ServiceKey::new(TEST_SERVICE_KEY)
        .unwrap()
        .attach_user(request, &scribevault_core::UserId::new(user), method);
}

/// Starts `scribevault <target>` with `env` and returns once it has announced a listener for
/// every name in `wait_for`.
///
/// Listeners are meant to be configured with port 0: the process binds a port nobody else can
/// take in between and announces it on stdout. A process that exits before it is ready fails the
/// test at once, with its exit status and its output.
pub async fn spawn_process(target: &str, env: &[(String, String)], wait_for: &[&str]) -> Process {
    use tokio::io::AsyncBufReadExt as _;

    let stderr_log = tempfile::NamedTempFile::new().expect("create a log file");
    let mut command = tokio::process::Command::new(env!("CARGO_BIN_EXE_scribevault"));
    command
        .arg(target)
        .kill_on_drop(true)
        .stdout(std::process::Stdio::piped())
        .stderr(stderr_log.reopen().expect("open the log file"));
    // A clean slate: only what the test sets, plus what a process needs to run at all.
    command.env_clear();
    for key in ["PATH", "HOME", "TMPDIR", "RUST_LOG"] {
        if let Ok(value) = std::env::var(key) {
            command.env(key, value);
        }
    }
    // Every process of one test shares a service key, as the processes of one instance do; most
    // tests sign up several users, so sign-up is open unless a test says otherwise.
    command.env("SCRIBEVAULT_SERVICE_KEY", TEST_SERVICE_KEY);
    command.env("SCRIBEVAULT_SIGNUP", "open");
    command.envs(env.iter().map(|(k, v)| (k.as_str(), v.as_str())));
    let mut child = command.spawn().expect("spawn the scribevault binary");

    // Reads stdout for the whole life of the process (a full pipe would block it), keeps its
    // last lines for a failure report and passes announcements on.
    let stdout = child.stdout.take().expect("piped stdout");
    let recent = std::sync::Arc::new(std::sync::Mutex::new(std::collections::VecDeque::new()));
    let (announced, mut announcements) = tokio::sync::mpsc::unbounded_channel();
    let echo = std::env::var("TEST_LOG").is_ok();
    let target_name = target.to_owned();
    {
        let recent = recent.clone();
        tokio::spawn(async move {
            let mut lines = tokio::io::BufReader::new(stdout).lines();
            while let Ok(Some(line)) = lines.next_line().await {
                if echo {
                    eprintln!("[{target_name}] {line}");
                }
                if let Some((name, addr)) = line
                    .strip_prefix(LISTENING_PREFIX)
                    .and_then(|rest| rest.split_once(' '))
                {
                    let _ = announced.send((name.to_owned(), addr.trim().to_owned()));
                }
                let mut recent = recent.lock().unwrap();
                if recent.len() == 200 {
                    recent.pop_front();
                }
                recent.push_back(line);
            }
        });
    }
    let report = |why: String| -> String {
        let stdout: Vec<String> = recent.lock().unwrap().iter().cloned().collect();
        let stderr = std::fs::read_to_string(stderr_log.path()).unwrap_or_default();
        format!(
            "scribevault {target}: {why}\n--- stdout (last lines) ---\n{}\n--- stderr ---\n{stderr}",
            stdout.join("\n")
        )
    };

    let mut listening = HashMap::new();
    let deadline = tokio::time::Instant::now() + STARTUP_TIMEOUT;
    let mut stdout_open = true;
    while !wait_for.iter().all(|name| listening.contains_key(*name)) {
        tokio::select! {
            announcement = announcements.recv(), if stdout_open => match announcement {
                Some((name, addr)) => { listening.insert(name, addr); }
                None => stdout_open = false,
            },
            status = child.wait() => {
                // Give the reader a moment to take the last lines.
                tokio::time::sleep(Duration::from_millis(100)).await;
                panic!("{}", report(format!("exited before it was ready ({status:?})")));
            }
            () = tokio::time::sleep_until(deadline) => {
                panic!("{}", report(format!(
                    "announced {:?} but not all of {wait_for:?} within {STARTUP_TIMEOUT:?}",
                    listening.keys().collect::<Vec<_>>()
                )));
            }
        }
    }
    Process { child, listening }
}

/// `(key, value)` pairs as the owned environment [`spawn_process`] takes.
pub fn env_of(pairs: &[(&str, String)]) -> Vec<(String, String)> {
    pairs
        .iter()
        .map(|(key, value)| ((*key).to_owned(), value.clone()))
        .collect()
}

/// Asks the operating system for the port when the process binds, never before.
pub const ANY_PORT: &str = "127.0.0.1:0";

/// A Scribevault deployment under test: one process (`all`) or several.
pub struct TestApp {
    pub base: String,
    pub library_grpc: String,
    pub data_dir: tempfile::TempDir,
    pub http: reqwest::Client,
    processes: Vec<Process>,
}

impl TestApp {
    /// The admin listener's base URL (`/metrics`, detailed `/readyz`) of the first process.
    pub fn admin_base(&self) -> String {
        format!("http://{}", self.processes[0].addr("admin"))
    }

    /// The first process's id, to read its memory from /proc.
    pub fn pid(&self) -> u32 {
        self.processes[0].id().expect("the process runs")
    }

    /// `scribevault all` on embedded defaults in a fresh data dir.
    pub async fn spawn() -> Self {
        Self::spawn_all_with(&[]).await
    }

    /// `scribevault all` with extra settings.
    pub async fn spawn_all_with(extra: &[(&str, &str)]) -> Self {
        Self::spawn_all_in(tempfile::tempdir().unwrap(), extra).await
    }

    /// Stops the processes and starts `scribevault all` again on the same data, with `extra`
    /// settings (an operator changing the configuration).
    pub async fn restart_with(mut self, extra: &[(&str, &str)]) -> Self {
        for process in &mut self.processes {
            process.kill().await;
        }
        Self::spawn_all_in(self.data_dir, extra).await
    }

    async fn spawn_all_in(data_dir: tempfile::TempDir, extra: &[(&str, &str)]) -> Self {
        let mut env = env_of(&[
            (
                "SCRIBEVAULT_DATA_DIR",
                data_dir.path().display().to_string(),
            ),
            ("SCRIBEVAULT_HTTP_ADDR", ANY_PORT.to_owned()),
            ("SCRIBEVAULT_LIBRARY_GRPC_ADDR", ANY_PORT.to_owned()),
            (
                "SCRIBEVAULT_FRONTEND_DIR",
                data_dir.path().join("no-frontend").display().to_string(),
            ),
        ]);
        env.extend(
            extra
                .iter()
                .map(|(k, v)| ((*k).to_owned(), (*v).to_owned())),
        );
        let process = spawn_process("all", &env, &["http", "library", "admin"]).await;
        Self::from_parts(
            process.http_base(),
            process.addr("library"),
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
            // Idle connections are dropped before actix's 5 s keep-alive closes them: a request
            // sent on one the server is closing at that moment fails with `IncompleteMessage`
            // (hyper#2136), which a test polling after a pause of about 5 s met.
            http: reqwest::Client::builder()
                .pool_idle_timeout(Duration::from_secs(3))
                .build()
                .unwrap(),
            processes,
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
        self.ingest_request(
            user,
            library_pb::IngestTranscriptRequest {
                source_ref: source_ref.to_owned(),
                title: title.to_owned(),
                source_type: library_pb::SourceType::Audio.into(),
                content: content.to_owned(),
                duration_seconds: Some(12.5),
                ..Default::default()
            },
        )
        .await
    }

    /// Sends `request` to the library's gRPC API as `user`; returns the item's id.
    pub async fn ingest_request(
        &self,
        user: &str,
        request: library_pb::IngestTranscriptRequest,
    ) -> String {
        let mut client = library_pb::library_service_client::LibraryServiceClient::connect(
            format!("http://{}", self.library_grpc),
        )
        .await
        .unwrap();
        let mut request = tonic::Request::new(request);
        signed_as(
            user,
            "/scribevault.library.v1.LibraryService/IngestTranscript",
            &mut request,
        );
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

/// The shared audio fixtures.
pub fn audio(name: &str) -> std::path::PathBuf {
    scribevault_test_support::shared_dir()
        .join("audio")
        .join(name)
}

/// A model directory laid out as `make model` lays it out: `ggml-small.bin` (the product
/// default) is the small test model, and the Silero VAD model sits beside it (so files go
/// through VAD as they do for users, and the VAD model must not be offered as a Whisper model).
pub fn model_dir() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let tiny = scribevault_test_support::shared_dir().join("models/ggml-tiny.en.bin");
    std::os::unix::fs::symlink(&tiny, dir.path().join("ggml-small.bin")).unwrap();
    std::os::unix::fs::symlink(&tiny, dir.path().join("ggml-tiny.en.bin")).unwrap();
    if let Some(vad) = scribevault_test_support::vad_model("model_dir") {
        std::os::unix::fs::symlink(&vad, dir.path().join(scribevault_core::VAD_MODEL_FILE))
            .unwrap();
    }
    dir
}

impl TestApp {
    /// Uploads `file` as a manual upload; returns (status, body).
    pub async fn upload(
        &self,
        token: &str,
        file: &std::path::Path,
        title: Option<&str>,
    ) -> (u16, Value) {
        self.upload_to(token, "/api/video-mp3/upload", file, title)
            .await
    }

    pub async fn upload_to(
        &self,
        token: &str,
        path: &str,
        file: &std::path::Path,
        title: Option<&str>,
    ) -> (u16, Value) {
        let bytes = std::fs::read(file).unwrap();
        let name = file.file_name().unwrap().to_string_lossy().into_owned();
        let mut form = reqwest::multipart::Form::new();
        if let Some(title) = title {
            form = form.text("title", title.to_owned());
        }
        form = form.part(
            "mp3",
            reqwest::multipart::Part::bytes(bytes)
                .file_name(name)
                .mime_str("audio/mpeg")
                .unwrap(),
        );
        let response = self
            .http
            .post(self.url(path))
            .bearer_auth(token)
            .multipart(form)
            .send()
            .await
            .unwrap();
        let status = response.status().as_u16();
        (status, response.json().await.unwrap_or(Value::Null))
    }

    /// Polls the Vault until it holds `total` items (the library ingests after a file
    /// completes), then returns the first page.
    pub async fn wait_for_vault_total(
        &self,
        token: &str,
        total: usize,
        timeout: Duration,
    ) -> Value {
        let deadline = tokio::time::Instant::now() + timeout;
        loop {
            let (_, vault) = self
                .get("/api/library/transcripts?limit=100", Some(token))
                .await;
            if vault["meta"]["total"] == total {
                return vault;
            }
            assert!(
                tokio::time::Instant::now() < deadline,
                "the Vault did not reach {total} items: {vault}"
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    /// The content of the caller's only Vault item, once the library has ingested it.
    pub async fn only_vault_content(&self, token: &str) -> String {
        let vault = self
            .wait_for_vault_total(token, 1, Duration::from_secs(30))
            .await;
        let id = vault["data"][0]["id"].as_str().unwrap();
        let (_, content) = self
            .get(
                &format!("/api/library/transcripts/{id}/content"),
                Some(token),
            )
            .await;
        content["data"]["content"].as_str().unwrap().to_owned()
    }

    /// Polls a job until every file is finished (completed, error or failed) or `timeout`.
    pub async fn wait_for_job(&self, token: &str, job_id: &str, timeout: Duration) -> Value {
        let deadline = tokio::time::Instant::now() + timeout;
        loop {
            let (status, job) = self
                .get(&format!("/api/transcription/jobs/{job_id}"), Some(token))
                .await;
            assert_eq!(status, 200, "{job}");
            let files = job["data"]["files"].as_array().unwrap();
            if files
                .iter()
                .all(|file| matches!(file["status"].as_str(), Some("completed" | "failed")))
            {
                return job["data"].clone();
            }
            assert!(
                tokio::time::Instant::now() < deadline,
                "job not finished in time: {job}"
            );
            tokio::time::sleep(Duration::from_millis(250)).await;
        }
    }
}

/// A real npm `socket.io-client` in node, printing what it receives.
pub struct SocketClient {
    child: tokio::process::Child,
    lines: tokio::io::Lines<tokio::io::BufReader<tokio::process::ChildStdout>>,
    stdin: tokio::process::ChildStdin,
    /// Everything received so far.
    pub seen: Vec<Value>,
}

impl SocketClient {
    pub async fn connect(base: &str, user_id: &str, token: &str) -> Self {
        Self::connect_namespace(base, user_id, token, "").await
    }

    pub async fn connect_namespace(
        base: &str,
        user_id: &str,
        token: &str,
        namespace: &str,
    ) -> Self {
        let script = scribevault_test_support::workspace_root()
            .join("crates/scribevault")
            .join("tests/support/socket-client.cjs");
        let mut command = tokio::process::Command::new("node");
        command.arg(script).args([base, user_id, token, namespace]);
        Self::from_command(command)
    }

    /// Runs `command`, a client that prints one JSON object per line and reads commands from
    /// stdin like `socket-client.cjs`.
    pub fn from_command(mut command: tokio::process::Command) -> Self {
        use tokio::io::AsyncBufReadExt as _;
        let mut child = command
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .kill_on_drop(true)
            .spawn()
            .expect("the socket client runs (make test installs node and python-socketio)");
        let stdout = child.stdout.take().unwrap();
        let stdin = child.stdin.take().unwrap();
        Self {
            child,
            lines: tokio::io::BufReader::new(stdout).lines(),
            stdin,
            seen: Vec::new(),
        }
    }

    /// The next line matching `predicate`, within `timeout`.
    pub async fn wait_for(
        &mut self,
        timeout: Duration,
        predicate: impl Fn(&Value) -> bool,
    ) -> Value {
        let deadline = tokio::time::Instant::now() + timeout;
        loop {
            let remaining = deadline.saturating_duration_since(tokio::time::Instant::now());
            let line = tokio::time::timeout(remaining, self.lines.next_line())
                .await
                .unwrap_or_else(|_| {
                    panic!(
                        "socket: nothing matching within {timeout:?}; seen {:?}",
                        self.seen
                    )
                })
                .unwrap()
                .expect("socket client ended");
            let value: Value = serde_json::from_str(&line).unwrap();
            self.seen.push(value.clone());
            if predicate(&value) {
                return value;
            }
        }
    }

    /// Reads whatever arrives within `window` into `seen` (to assert something did not come).
    pub async fn drain(&mut self, window: Duration) {
        let deadline = tokio::time::Instant::now() + window;
        while let Ok(Ok(Some(line))) =
            tokio::time::timeout_at(deadline, self.lines.next_line()).await
        {
            self.seen.push(serde_json::from_str(&line).unwrap());
        }
    }

    /// Like [`SocketClient::wait_for`], but a matching line received earlier counts too.
    pub async fn seen_or_wait_for(
        &mut self,
        timeout: Duration,
        predicate: impl Fn(&Value) -> bool,
    ) -> Value {
        if let Some(line) = self.seen.iter().find(|line| predicate(line)) {
            return line.clone();
        }
        self.wait_for(timeout, predicate).await
    }

    /// Sends a named event (optionally asking for an ack).
    pub async fn emit(&mut self, name: &str, data: Value, ack: bool) {
        use tokio::io::AsyncWriteExt as _;
        let command = json!({ "emit": name, "data": data, "ack": ack });
        self.stdin
            .write_all(format!("{command}\n").as_bytes())
            .await
            .unwrap();
    }

    /// Events named `name` received so far.
    pub fn events(&self, name: &str) -> Vec<Value> {
        self.seen
            .iter()
            .filter(|line| line["kind"] == "event" && line["name"] == name)
            .map(|line| line["data"].clone())
            .collect()
    }
}

impl Drop for SocketClient {
    fn drop(&mut self) {
        let _ = self.child.start_kill();
    }
}
