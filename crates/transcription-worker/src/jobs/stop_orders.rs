//! Stop orders from the transcription service, on the worker-control topic: a cancelled file
//! stops at once instead of at its next report.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use scribevault_bus::{EventBus, Topic, WorkerControl};

use crate::liveness::FileKey;

/// Abort flags of the files this process is transcribing.
#[derive(Clone, Default)]
pub struct RunningFiles {
    flags: Arc<Mutex<HashMap<FileKey, Arc<AtomicBool>>>>,
}

impl RunningFiles {
    /// Registers a file; the returned guard forgets it when the file ends, however it ends.
    pub fn start(&self, file: FileKey, abort: Arc<AtomicBool>) -> RunningGuard {
        self.flags
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(file.clone(), abort);
        RunningGuard {
            running: self.clone(),
            file,
        }
    }

    fn stop(&self, file: &FileKey) {
        if let Some(abort) = self
            .flags
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get(file)
        {
            abort.store(true, Ordering::Relaxed);
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
            .flags
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
            Some(WorkerControl::StopTranscription { job_id, file_id }) => {
                running.stop(&(job_id, file_id));
            }
            None => tracing::debug!(order = %envelope.event_type, "unknown worker order ignored"),
        }
    }
}
