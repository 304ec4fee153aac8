//! Stop orders from the transcription service, on the worker-control topic: a cancelled file
//! stops at once instead of at its next report.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use scribevault_bus::{EventBus, Topic, WorkerControl};

use crate::liveness::FileKey;

/// One run: the claim it holds and its abort flag.
struct Run {
    claim_token: u32,
    abort: Arc<AtomicBool>,
}

/// Abort flags of the files this process is transcribing.
#[derive(Clone, Default)]
pub struct RunningFiles {
    runs: Arc<Mutex<HashMap<FileKey, Run>>>,
}

impl RunningFiles {
    /// Registers a file's run under its claim; the returned guard forgets it when the file ends,
    /// however it ends.
    pub fn start(&self, file: FileKey, claim_token: u32, abort: Arc<AtomicBool>) -> RunningGuard {
        self.runs
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(file.clone(), Run { claim_token, abort });
        RunningGuard {
            running: self.clone(),
            file,
        }
    }

    /// Sets the abort flag of the file's run, if it holds `claim_token` (any claim when `None`).
    fn stop(&self, file: &FileKey, claim_token: Option<u32>) {
        if let Some(run) = self
            .runs
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get(file)
            && claim_token.is_none_or(|token| token == run.claim_token)
        {
            run.abort.store(true, Ordering::Relaxed);
        }
    }
}

/// Forgets a running file's abort flag when dropped.
pub struct RunningGuard {
    running: RunningFiles,
    file: FileKey,
}

impl Drop for RunningGuard {
    fn drop(&mut self) {
        self.running
            .runs
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .remove(&self.file);
    }
}

/// Sets the abort flag of every running file the service orders stopped, until the bus closes.
pub async fn run(events: Arc<dyn EventBus>, running: RunningFiles) {
    let mut orders = match events.subscribe_on(Topic::WorkerControl).await {
        Ok(orders) => orders,
        Err(error) => {
            tracing::warn!(error = %error, "no stop orders: cancels wait for the next report");
            return;
        }
    };
    while let Some(envelope) = orders.next().await {
        match envelope.control() {
            Some(WorkerControl::StopTranscription {
                job_id,
                file_id,
                claim_token,
            }) => running.stop(&(job_id, file_id), claim_token),
            None => tracing::debug!(order = %envelope.event_type, "unknown worker order ignored"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key() -> FileKey {
        ("job".to_owned(), "file".to_owned())
    }

    #[test]
    fn an_order_for_an_older_claim_leaves_the_new_run_alone() {
        let running = RunningFiles::default();
        let abort = Arc::new(AtomicBool::new(false));
        let _run = running.start(key(), 3, abort.clone());
        running.stop(&key(), Some(2));
        assert!(
            !abort.load(Ordering::Relaxed),
            "claim 2 was taken back, not claim 3"
        );
        running.stop(&key(), Some(3));
        assert!(abort.load(Ordering::Relaxed));
    }

    #[test]
    fn a_cancel_stops_whichever_run_holds_the_file_and_finished_runs_are_forgotten() {
        let running = RunningFiles::default();
        let abort = Arc::new(AtomicBool::new(false));
        let run = running.start(key(), 7, abort.clone());
        running.stop(&key(), None);
        assert!(abort.load(Ordering::Relaxed));
        drop(run);
        assert!(
            running
                .runs
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .is_empty()
        );
    }
}
