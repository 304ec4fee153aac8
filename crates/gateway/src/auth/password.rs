//! Password hashing behind a semaphore. argon2id takes 19 MiB and a core for a few hundred
//! milliseconds; without a bound, a burst of sign-ins or sign-ups starts hundreds at once and
//! the gateway stalls or runs out of memory. Beyond the permits a request waits briefly, then
//! is told to come back (503).

use std::sync::Arc;
use std::time::Duration;

use argon2::Argon2;
use argon2::password_hash::rand_core::OsRng;
use argon2::password_hash::{PasswordHash, PasswordHasher as _, PasswordVerifier as _, SaltString};
use tokio::sync::Semaphore;

use super::{AuthError, internal};

/// How long a sign-in waits for a hashing permit.
const WAIT_FOR_PERMIT: Duration = Duration::from_secs(5);

/// Bounded argon2id hashing and verification.
#[derive(Clone)]
pub struct PasswordHashing {
    permits: Arc<Semaphore>,
    wait: Duration,
}

impl PasswordHashing {
    /// `concurrency` hashes at once; 0 means one per core.
    #[must_use]
    pub fn new(concurrency: usize) -> Self {
        let concurrency = if concurrency == 0 {
            std::thread::available_parallelism().map_or(2, std::num::NonZero::get)
        } else {
            concurrency
        };
        Self {
            permits: Arc::new(Semaphore::new(concurrency)),
            wait: WAIT_FOR_PERMIT,
        }
    }

    /// A PHC string of `password`.
    ///
    /// # Errors
    /// Busy beyond the wait, or hashing failed.
    pub async fn hash(&self, password: &str) -> Result<String, AuthError> {
        let password = password.to_owned();
        self.run(move || hash_password(&password)).await?
    }

    /// Whether `password` matches `stored`.
    ///
    /// # Errors
    /// Busy beyond the wait.
    pub async fn verify(&self, password: &str, stored: &str) -> Result<bool, AuthError> {
        let password = password.to_owned();
        let stored = stored.to_owned();
        self.run(move || verify_password(&password, &stored)).await
    }

    async fn run<T: Send + 'static>(
        &self,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, AuthError> {
        let permit = tokio::time::timeout(self.wait, self.permits.clone().acquire_owned())
            .await
            .map_err(|_| AuthError::Busy)?
            .map_err(internal)?;
        tokio::task::spawn_blocking(move || {
            let result = work();
            drop(permit);
            result
        })
        .await
        .map_err(internal)
    }
}

/// A PHC string of `password` (synchronous: for start-up and the command line).
///
/// # Errors
/// Hashing failed.
pub fn hash_password(password: &str) -> Result<String, AuthError> {
    let salt = SaltString::generate(&mut OsRng);
    Argon2::default()
        .hash_password(password.as_bytes(), &salt)
        .map(|hash| hash.to_string())
        .map_err(internal)
}

fn verify_password(password: &str, stored: &str) -> bool {
    PasswordHash::new(stored).is_ok_and(|hash| {
        Argon2::default()
            .verify_password(password.as_bytes(), &hash)
            .is_ok()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn hashes_verify_only_the_right_password() {
        let hashing = PasswordHashing::new(1);
        let hash = hashing.hash("correct horse").await.unwrap();
        assert!(hashing.verify("correct horse", &hash).await.unwrap());
        assert!(!hashing.verify("wrong horse", &hash).await.unwrap());
    }

    #[tokio::test]
    async fn a_request_beyond_the_permits_gets_busy_instead_of_queueing_forever() {
        let mut hashing = PasswordHashing::new(1);
        hashing.wait = Duration::from_millis(50);
        let held = hashing.permits.clone().acquire_owned().await.unwrap();
        let refused = hashing.verify("x", "y").await;
        assert!(matches!(refused, Err(AuthError::Busy)), "{refused:?}");
        drop(held);
        assert!(!hashing.verify("x", "y").await.unwrap());
    }
}
