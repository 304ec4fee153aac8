//! How many OpenAI-style uploads one gateway spools and transcodes at once, in all and per
//! member. Each such request writes up to the upload limit to disk and runs ffmpeg on it, so a
//! burst (eight 300 MB WAVs from one script) would take the disk and both cores before any
//! quota applies: the permit is taken before a byte of the body is read, and a request past it
//! is told when to come back (429, `Retry-After`), as OpenAI's clients expect of a busy server.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// Seconds a refused client is asked to wait: about one short file's transcode.
pub const RETRY_AFTER_SECONDS: u64 = 10;

/// Who is already using the permits a request was refused for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Busy {
    /// The member's own transcodes.
    Member,
    /// The whole instance's.
    Instance,
}

/// The instance's transcode permits and each member's count.
#[derive(Clone)]
pub struct TranscodePermits {
    instance: Arc<Semaphore>,
    per_member: usize,
    members: Arc<Mutex<HashMap<String, usize>>>,
}

/// One request's right to spool and transcode; given back when dropped.
pub struct TranscodePermit {
    _instance: OwnedSemaphorePermit,
    member: String,
    members: Arc<Mutex<HashMap<String, usize>>>,
}

impl TranscodePermits {
    #[must_use]
    pub fn new(instance: usize, per_member: usize) -> Self {
        Self {
            instance: Arc::new(Semaphore::new(instance)),
            per_member,
            members: Arc::default(),
        }
    }

    /// A permit for `member`, or who holds the ones they would need.
    ///
    /// # Errors
    /// [`Busy`] when the member or the instance has no permit left.
    pub fn try_acquire(&self, member: &str) -> Result<TranscodePermit, Busy> {
        let mut members = self.members.lock().unwrap_or_else(PoisonError::into_inner);
        let held = members.get(member).copied().unwrap_or(0);
        if held >= self.per_member {
            return Err(Busy::Member);
        }
        let instance = self
            .instance
            .clone()
            .try_acquire_owned()
            .map_err(|_| Busy::Instance)?;
        members.insert(member.to_owned(), held + 1);
        Ok(TranscodePermit {
            _instance: instance,
            member: member.to_owned(),
            members: self.members.clone(),
        })
    }
}

impl Drop for TranscodePermit {
    fn drop(&mut self) {
        let mut members = self.members.lock().unwrap_or_else(PoisonError::into_inner);
        match members.get_mut(&self.member) {
            Some(held) if *held > 1 => *held -= 1,
            _ => {
                members.remove(&self.member);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_member_past_their_share_waits_and_others_go_on_until_the_instance_is_full() {
        let permits = TranscodePermits::new(2, 1);
        let anna = permits.try_acquire("anna").unwrap();
        assert_eq!(permits.try_acquire("anna").err(), Some(Busy::Member));
        let bob = permits.try_acquire("bob").unwrap();
        assert_eq!(permits.try_acquire("carl").err(), Some(Busy::Instance));
        drop(anna);
        assert!(permits.try_acquire("carl").is_ok());
        drop(bob);
        let again = permits.try_acquire("anna");
        assert!(again.is_ok(), "a permit given back is taken again");
        assert_eq!(
            permits.members.lock().unwrap().len(),
            1,
            "carl's was dropped"
        );
    }
}
