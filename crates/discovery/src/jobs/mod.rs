//! The service's background work: the download queue's consumer and the scheduler's sweep.

pub mod download;
pub mod scheduler;
