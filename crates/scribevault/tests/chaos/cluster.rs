//! The deployment under chaos: every target as its own process, started once on ports of its
//! own choosing and restarted after a kill on the same address, as a supervisor (Kubernetes
//! with a Service in front) would bring it back where its peers look for it.

use std::collections::HashMap;

use crate::helpers::{ANY_PORT, Process, model_dir, spawn_process};

pub struct Settings {
    pub database_url: String,
    pub amqp: String,
    pub s3: String,
    pub ytdlp: String,
    pub youtube_base: String,
    pub watch_url: String,
}

/// The gRPC services, in start order, with the setting that names their address.
const SERVICES: [(&str, &str); 5] = [
    ("storage", "SCRIBEVAULT_STORAGE_GRPC_ADDR"),
    ("transcription", "SCRIBEVAULT_TRANSCRIPTION_GRPC_ADDR"),
    ("library", "SCRIBEVAULT_LIBRARY_GRPC_ADDR"),
    ("discovery", "SCRIBEVAULT_DISCOVERY_GRPC_ADDR"),
    ("webhooks", "SCRIBEVAULT_WEBHOOKS_GRPC_ADDR"),
];

pub struct Cluster {
    env: Vec<(String, String)>,
    /// Every service's announced address, once known (the same after each restart).
    addrs: HashMap<&'static str, String>,
    processes: HashMap<&'static str, Process>,
    _data_dir: tempfile::TempDir,
    _models: tempfile::TempDir,
}

impl Cluster {
    pub async fn start(settings: Settings) -> Self {
        let data_dir = tempfile::tempdir().unwrap();
        let models = model_dir();
        let env: Vec<(String, String)> = [
            ("SCRIBEVAULT_DATABASE_URL", settings.database_url),
            ("SCRIBEVAULT_AMQP_URL", settings.amqp),
            ("SCRIBEVAULT_S3_ENDPOINT", settings.s3),
            (
                "SCRIBEVAULT_S3_BUCKET",
                scribevault_test_support::unique_name("chaos").replace('_', "-"),
            ),
            ("AWS_ACCESS_KEY_ID", "test".to_owned()),
            ("AWS_SECRET_ACCESS_KEY", "test".to_owned()),
            (
                "SCRIBEVAULT_DATA_DIR",
                data_dir.path().display().to_string(),
            ),
            (
                "SCRIBEVAULT_WHISPER_MODEL_DIR",
                models.path().display().to_string(),
            ),
            ("SCRIBEVAULT_DATABASE_MAX_CONNECTIONS", "5".to_owned()),
            // One core for whisper leaves the other to the rest of the deployment.
            ("SCRIBEVAULT_WHISPER_THREADS", "1".to_owned()),
            // A killed worker's file and a killed runner's download job are taken back fast.
            ("SCRIBEVAULT_WORKER_STALE_SECONDS", "3".to_owned()),
            ("SCRIBEVAULT_DOWNLOAD_STALE_SECONDS", "3".to_owned()),
            ("SCRIBEVAULT_SCHEDULER_INTERVAL_MS", "500".to_owned()),
            ("SCRIBEVAULT_RETRY_BASE_DELAY_SECONDS", "1".to_owned()),
            ("SCRIBEVAULT_RETRY_MAX_DELAY_SECONDS", "5".to_owned()),
            ("SCRIBEVAULT_TOKEN_TTL_SECONDS", "86400".to_owned()),
            ("SCRIBEVAULT_YOUTUBE_API_BASE", settings.youtube_base),
            ("SCRIBEVAULT_YOUTUBE_API_KEY", "chaos-key".to_owned()),
            ("SCRIBEVAULT_YTDLP_PATH", settings.ytdlp),
            ("SCRIBEVAULT_YOUTUBE_WATCH_URL", settings.watch_url),
            ("SCRIBEVAULT_HTTP_ADDR", ANY_PORT.to_owned()),
            ("SCRIBEVAULT_WORKER_HEALTH_ADDR", ANY_PORT.to_owned()),
            // The harness's webhook receiver listens on a loopback port of its own.
            ("SCRIBEVAULT_WEBHOOKS_ALLOW_PRIVATE", "true".to_owned()),
            ("SCRIBEVAULT_WEBHOOKS_ALLOW_ANY_PORT", "true".to_owned()),
        ]
        .into_iter()
        .map(|(key, value)| (key.to_owned(), value))
        .collect();
        let mut cluster = Self {
            env,
            addrs: HashMap::new(),
            processes: HashMap::new(),
            _data_dir: data_dir,
            _models: models,
        };
        for (service, _) in SERVICES {
            cluster.restart(service).await;
        }
        cluster.restart("gateway").await;
        cluster.restart("transcription-worker").await;
        cluster
    }

    /// The environment of `target`: the common settings and every known service address
    /// (its own, once it has one, so that a restart binds the same port).
    fn env_for(&self, target: &str) -> Vec<(String, String)> {
        let mut env = self.env.clone();
        for (service, key) in SERVICES {
            let addr = self
                .addrs
                .get(service)
                .cloned()
                .unwrap_or_else(|| ANY_PORT.to_owned());
            // A service not started yet is never dialled by the one starting now.
            if service == target || self.addrs.contains_key(service) {
                env.push((key.to_owned(), addr));
            }
        }
        env
    }

    /// Starts `target` (again), once it is listening.
    pub async fn restart(&mut self, target: &'static str) {
        let announces = match target {
            "gateway" => "http",
            "transcription-worker" => "worker-health",
            service => service,
        };
        let process = spawn_process(target, &self.env_for(target), &[announces]).await;
        if SERVICES.iter().any(|(service, _)| *service == target) {
            self.addrs.insert(target, process.addr(target));
        }
        self.processes.insert(target, process);
    }

    /// `kill -9`, and waits until the process is gone.
    pub async fn kill(&mut self, target: &str) {
        self.processes
            .get_mut(target)
            .unwrap_or_else(|| panic!("no {target} process"))
            .kill()
            .await;
    }

    pub fn pid(&self, target: &str) -> u32 {
        self.processes[target]
            .id()
            .unwrap_or_else(|| panic!("{target} is not running"))
    }

    pub fn pids(&self) -> Vec<u32> {
        self.processes.values().filter_map(Process::id).collect()
    }

    pub fn http_base(&self) -> String {
        self.processes["gateway"].http_base()
    }
}
