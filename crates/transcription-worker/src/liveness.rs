//! Whether whisper is still making progress. whisper.cpp can hang inside a native call where no
//! abort flag reaches it; the process then looks alive to every other check. The liveness probe
//! asks this tracker instead: a file whose progress has not moved for `stall_after` makes the
//! probe fail, and the orchestrator restarts the worker (its files go to another worker once
//! their heartbeat is stale).

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use tokio::time::Instant;

/// A running file: job id and file id.
pub type FileKey = (String, String);

#[derive(Debug, Clone, Copy)]
struct Seen {
    progress: u32,
    since: Instant,
}

/// Progress of the files this worker is transcribing.
#[derive(Clone)]
pub struct Liveness {
    files: Arc<Mutex<HashMap<FileKey, Seen>>>,
    stall_after: Duration,
}

impl Liveness {
    /// A tracker that calls a file stuck after `stall_after` without progress.
    #[must_use]
    pub fn new(stall_after: Duration) -> Self {
        Self {
            files: Arc::default(),
            stall_after,
        }
    }

    /// Records the file's progress; the clock restarts only when it moved.
    pub fn observe(&self, file: &FileKey, progress: u32) {
        let now = Instant::now();
        let mut files = self.files.lock().unwrap_or_else(PoisonError::into_inner);
        let seen = files.entry(file.clone()).or_insert(Seen {
            progress,
            since: now,
        });
        if seen.progress != progress {
            *seen = Seen {
                progress,
                since: now,
            };
        }
    }

    /// The file is done (however it ended).
    pub fn forget(&self, file: &FileKey) {
        self.files
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .remove(file);
    }

    /// The files whose progress has not moved for `stall_after`.
    #[must_use]
    pub fn stalled(&self) -> Vec<FileKey> {
        let now = Instant::now();
        self.files
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .iter()
            .filter(|(_, seen)| now.duration_since(seen.since) >= self.stall_after)
            .map(|(file, _)| file.clone())
            .collect()
    }

    /// Serves the gRPC health service on `listener` until `shutdown`: SERVING while no file is
    /// stalled, NOT_SERVING once one is. Kubernetes' gRPC probe reads it.
    ///
    /// # Errors
    /// The transport fails.
    pub async fn serve(
        self,
        listener: tokio::net::TcpListener,
        shutdown: impl std::future::Future<Output = ()> + Send,
    ) -> Result<(), tonic::transport::Error> {
        let (reporter, health) = tonic_health::server::health_reporter();
        reporter
            .set_service_status("", tonic_health::ServingStatus::Serving)
            .await;
        let watch = tokio::spawn(async move {
            let mut healthy = true;
            let mut ticks = tokio::time::interval(Duration::from_secs(1));
            loop {
                ticks.tick().await;
                let stalled = self.stalled();
                if stalled.is_empty() != healthy {
                    healthy = stalled.is_empty();
                    if healthy {
                        tracing::info!("whisper is making progress again");
                    } else {
                        tracing::error!(?stalled, "whisper made no progress; liveness fails");
                    }
                    let status = if healthy {
                        tonic_health::ServingStatus::Serving
                    } else {
                        tonic_health::ServingStatus::NotServing
                    };
                    reporter.set_service_status("", status).await;
                }
            }
        });
        let result = tonic::transport::Server::builder()
            .add_service(health)
            .serve_with_incoming_shutdown(
                tokio_stream::wrappers::TcpListenerStream::new(listener),
                shutdown,
            )
            .await;
        watch.abort();
        result
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(file: &str) -> FileKey {
        ("job".to_owned(), file.to_owned())
    }

    #[tokio::test(start_paused = true)]
    async fn a_file_without_progress_for_the_limit_is_stalled() {
        let liveness = Liveness::new(Duration::from_secs(60));
        liveness.observe(&key("a"), 10);
        tokio::time::advance(Duration::from_secs(59)).await;
        liveness.observe(&key("a"), 10);
        assert!(liveness.stalled().is_empty(), "59 s is within the limit");
        tokio::time::advance(Duration::from_secs(1)).await;
        assert_eq!(liveness.stalled(), [key("a")]);
    }

    #[tokio::test(start_paused = true)]
    async fn progress_restarts_the_clock_and_finished_files_are_forgotten() {
        let liveness = Liveness::new(Duration::from_secs(60));
        liveness.observe(&key("a"), 10);
        liveness.observe(&key("b"), 0);
        tokio::time::advance(Duration::from_secs(50)).await;
        liveness.observe(&key("a"), 15);
        tokio::time::advance(Duration::from_secs(20)).await;
        assert_eq!(liveness.stalled(), [key("b")], "a moved 20 s ago, b never");
        liveness.forget(&key("b"));
        assert!(liveness.stalled().is_empty());
    }
}
