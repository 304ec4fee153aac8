//! The service's background work: the download queue's consumer (`download.rs`, with the
//! heartbeat of each video's work and what happens to each downloaded video) and the
//! scheduler's sweep.

pub mod download;
mod handover;
mod heartbeat;
pub mod scheduler;
