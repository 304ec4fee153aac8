//! The configured API keys, each with what it spent today; a key whose quota Google declares
//! spent is parked until midnight Pacific, when every YouTube quota resets.

use std::sync::Mutex;

use chrono::{DateTime, NaiveDate, TimeZone as _, Utc};
use chrono_tz::America::Los_Angeles;
use secrecy::{ExposeSecret as _, SecretString};
use sha2::{Digest as _, Sha256};

use super::{KeySpend, YouTubeError};

/// One key: the secret and the fingerprint it is recorded under.
#[derive(Clone)]
pub struct ApiKey {
    secret: SecretString,
    id: String,
}

impl ApiKey {
    /// `secret`, fingerprinted.
    #[must_use]
    pub fn new(secret: &str) -> Self {
        let digest = Sha256::digest(secret.as_bytes());
        Self {
            secret: SecretString::from(secret.to_owned()),
            id: hex::encode(&digest[..6]),
        }
    }

    /// The key for the `key=` parameter.
    #[must_use]
    pub fn expose(&self) -> &str {
        self.secret.expose_secret()
    }

    /// A name for the key that does not reveal it.
    #[must_use]
    pub fn id(&self) -> &str {
        &self.id
    }
}

impl std::fmt::Debug for ApiKey {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(formatter, "ApiKey({})", self.id)
    }
}

/// The day (in Pacific time) a moment counts against.
#[must_use]
pub fn pacific_day(at: DateTime<Utc>) -> NaiveDate {
    at.with_timezone(&Los_Angeles).date_naive()
}

/// The next midnight in Pacific time after `at`, when quotas reset.
#[must_use]
pub fn next_pacific_midnight(at: DateTime<Utc>) -> DateTime<Utc> {
    let tomorrow = pacific_day(at).succ_opt().unwrap_or(NaiveDate::MAX);
    Los_Angeles
        .from_local_datetime(&tomorrow.and_time(chrono::NaiveTime::MIN))
        .earliest()
        .map_or(at + chrono::Duration::days(1), |midnight| {
            midnight.with_timezone(&Utc)
        })
}

#[derive(Debug, Default, Clone)]
struct KeyState {
    day: Option<NaiveDate>,
    unwritten: u64,
    exhausted: bool,
    exhaustion_unwritten: bool,
}

/// The keys, in the order they are tried.
#[derive(Debug)]
pub struct KeyRing {
    keys: Vec<ApiKey>,
    state: Mutex<Vec<KeyState>>,
}

impl KeyRing {
    /// `keys` (comma-separated in the setting; blanks dropped).
    #[must_use]
    pub fn new(keys: Vec<ApiKey>) -> Self {
        let state = Mutex::new(vec![KeyState::default(); keys.len()]);
        Self { keys, state }
    }

    fn state(&self) -> std::sync::MutexGuard<'_, Vec<KeyState>> {
        self.state
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn roll_over(state: &mut KeyState, today: NaiveDate) {
        if state.day != Some(today) {
            *state = KeyState {
                day: Some(today),
                ..KeyState::default()
            };
        }
    }

    /// The first key not parked today.
    ///
    /// # Errors
    /// [`YouTubeError::NoKey`] without keys; [`YouTubeError::QuotaExhausted`] when all are parked.
    pub fn pick(&self, now: DateTime<Utc>) -> Result<(usize, ApiKey), YouTubeError> {
        if self.keys.is_empty() {
            return Err(YouTubeError::NoKey);
        }
        let today = pacific_day(now);
        let mut state = self.state();
        for (index, key_state) in state.iter_mut().enumerate() {
            Self::roll_over(key_state, today);
            if !key_state.exhausted {
                return Ok((index, self.keys[index].clone()));
            }
        }
        Err(YouTubeError::QuotaExhausted {
            resets_at: next_pacific_midnight(now),
        })
    }

    /// Records `units` spent by key `index`.
    pub fn spend(&self, index: usize, units: u64, now: DateTime<Utc>) {
        let mut state = self.state();
        if let Some(key_state) = state.get_mut(index) {
            Self::roll_over(key_state, pacific_day(now));
            key_state.unwritten += units;
        }
    }

    /// Parks key `index` until the next Pacific midnight.
    pub fn park(&self, index: usize, now: DateTime<Utc>) {
        let mut state = self.state();
        if let Some(key_state) = state.get_mut(index) {
            Self::roll_over(key_state, pacific_day(now));
            key_state.exhausted = true;
            key_state.exhaustion_unwritten = true;
        }
    }

    /// What was spent since the last call.
    pub fn take_spending(&self) -> Vec<KeySpend> {
        let mut state = self.state();
        state
            .iter_mut()
            .zip(&self.keys)
            .filter_map(|(key_state, key)| {
                let day = key_state.day?;
                if key_state.unwritten == 0 && !key_state.exhaustion_unwritten {
                    return None;
                }
                let spend = KeySpend {
                    key_id: key.id().to_owned(),
                    day,
                    units: key_state.unwritten,
                    exhausted: key_state.exhausted,
                };
                key_state.unwritten = 0;
                key_state.exhaustion_unwritten = false;
                Some(spend)
            })
            .collect()
    }

    /// Parks the keys recorded as exhausted on `spent`'s days when those are today.
    pub fn restore(&self, spent: &[KeySpend], now: DateTime<Utc>) {
        let today = pacific_day(now);
        let mut state = self.state();
        for (key_state, key) in state.iter_mut().zip(&self.keys) {
            Self::roll_over(key_state, today);
            if spent
                .iter()
                .any(|row| row.key_id == key.id() && row.day == today && row.exhausted)
            {
                key_state.exhausted = true;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(text: &str) -> DateTime<Utc> {
        DateTime::parse_from_rfc3339(text)
            .unwrap()
            .with_timezone(&Utc)
    }

    #[test]
    fn quotas_reset_at_pacific_midnight_across_dst() {
        // PST (UTC-8) in winter, PDT (UTC-7) in summer.
        assert_eq!(
            next_pacific_midnight(at("2026-11-23T20:00:00Z")),
            at("2026-11-24T08:00:00Z")
        );
        assert_eq!(
            next_pacific_midnight(at("2026-07-01T06:59:00Z")),
            at("2026-07-01T07:00:00Z")
        );
        assert_eq!(
            pacific_day(at("2026-11-24T07:59:00Z")).to_string(),
            "2026-11-23"
        );
    }

    #[test]
    fn a_parked_key_hands_over_to_the_next_until_the_reset() {
        let ring = KeyRing::new(vec![ApiKey::new("first"), ApiKey::new("second")]);
        let now = at("2026-11-23T20:00:00Z");
        assert_eq!(ring.pick(now).unwrap().0, 0);
        ring.spend(0, 3, now);
        ring.park(0, now);
        assert_eq!(ring.pick(now).unwrap().0, 1);
        ring.park(1, now);
        assert_eq!(
            ring.pick(now).unwrap_err(),
            YouTubeError::QuotaExhausted {
                resets_at: at("2026-11-24T08:00:00Z")
            }
        );
        let spent = ring.take_spending();
        assert_eq!(spent.len(), 2);
        assert_eq!((spent[0].units, spent[0].exhausted), (3, true));
        assert!(ring.take_spending().is_empty(), "written once");
        assert_eq!(ring.pick(at("2026-11-24T08:00:01Z")).unwrap().0, 0);
    }

    #[test]
    fn parked_keys_stay_parked_after_a_restart_the_same_day() {
        let now = at("2026-11-23T20:00:00Z");
        let ring = KeyRing::new(vec![ApiKey::new("first"), ApiKey::new("second")]);
        ring.restore(
            &[KeySpend {
                key_id: ApiKey::new("first").id().to_owned(),
                day: pacific_day(now),
                units: 10_000,
                exhausted: true,
            }],
            now,
        );
        assert_eq!(ring.pick(now).unwrap().0, 1);
        assert!(!format!("{ring:?}").contains("first"), "keys never printed");
        assert_eq!(
            KeyRing::new(Vec::new()).pick(now).unwrap_err(),
            YouTubeError::NoKey
        );
    }
}
