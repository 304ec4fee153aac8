//! Whose turn it is in a queue several users share: round-robin between users, whatever order
//! their work was queued in. Transcription and downloads both hand work out by it.

use chrono::{DateTime, Utc};

/// One user's share of a queue.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QueueShare {
    pub user_id: String,
    /// Work of theirs waiting for a worker.
    pub waiting: u64,
    /// Work of theirs a worker holds now.
    pub running: u64,
    /// The last time a worker was busy for them: when they were last served.
    pub last_served: Option<DateTime<Utc>>,
}

/// Where a group of a user's work stands, as a queue's store counts it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Standing {
    Waiting,
    Running,
    /// Finished or set aside: it only says when the user was last served.
    Other,
}

/// The shares of a store's grouped counts: `(user, standing, how many, last served)` rows, a
/// user in as many rows as they have standings.
#[must_use]
pub fn shares_from(
    rows: impl IntoIterator<Item = (String, Standing, u64, Option<DateTime<Utc>>)>,
) -> Vec<QueueShare> {
    let mut shares: Vec<QueueShare> = Vec::new();
    for (user_id, standing, count, served) in rows {
        let index = match shares.iter().position(|share| share.user_id == user_id) {
            Some(index) => index,
            None => {
                shares.push(QueueShare {
                    user_id,
                    waiting: 0,
                    running: 0,
                    last_served: None,
                });
                shares.len() - 1
            }
        };
        let share = &mut shares[index];
        match standing {
            Standing::Waiting => share.waiting += count,
            Standing::Running => share.running += count,
            Standing::Other => {}
        }
        share.last_served = Ord::max(share.last_served, served);
    }
    shares
}

/// The user whose turn it is: of those with waiting work, the one with the fewest running, then
/// the one served longest ago (never served first), then by id so replicas agree. A user who
/// queued 1,000 files gets one worker while another user's one file waits for the next.
#[must_use]
pub fn whose_turn(shares: &[QueueShare]) -> Option<&QueueShare> {
    shares
        .iter()
        .filter(|share| share.waiting > 0)
        .min_by(|a, b| {
            a.running
                .cmp(&b.running)
                .then_with(|| a.last_served.cmp(&b.last_served))
                .then_with(|| a.user_id.cmp(&b.user_id))
        })
}

/// Whether `turn` stands strictly before `owner`: equal standing keeps the queue's own order.
#[must_use]
pub fn goes_before(turn: &QueueShare, owner: &QueueShare) -> bool {
    turn.user_id != owner.user_id
        && (turn.running, turn.last_served) < (owner.running, owner.last_served)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn share(
        user: &str,
        waiting: u64,
        running: u64,
        served_minutes_ago: Option<i64>,
    ) -> QueueShare {
        QueueShare {
            user_id: user.to_owned(),
            waiting,
            running,
            last_served: served_minutes_ago
                .map(|minutes| Utc::now() - chrono::Duration::minutes(minutes)),
        }
    }

    #[test]
    fn grouped_counts_add_up_per_user() {
        let served = Some(Utc::now());
        let shares = shares_from([
            ("alice".to_owned(), Standing::Waiting, 3, None),
            ("alice".to_owned(), Standing::Running, 1, served),
            ("alice".to_owned(), Standing::Other, 7, None),
            ("bob".to_owned(), Standing::Waiting, 1, None),
        ]);
        assert_eq!(
            shares,
            [
                QueueShare {
                    user_id: "alice".to_owned(),
                    waiting: 3,
                    running: 1,
                    last_served: served,
                },
                QueueShare {
                    user_id: "bob".to_owned(),
                    waiting: 1,
                    running: 0,
                    last_served: None,
                },
            ]
        );
    }

    #[test]
    fn the_turn_goes_to_the_user_with_fewest_running_then_served_longest_ago() {
        // Alice queued 1,000 files and has one running; Bob's one file is next.
        let shares = [
            share("alice", 999, 1, Some(0)),
            share("bob", 1, 0, Some(60)),
        ];
        assert_eq!(whose_turn(&shares).unwrap().user_id, "bob");
        // Nobody running: the one served longest ago, and never served before anyone.
        let shares = [
            share("alice", 999, 0, Some(1)),
            share("bob", 3, 0, Some(5)),
            share("carol", 1, 0, None),
        ];
        assert_eq!(whose_turn(&shares).unwrap().user_id, "carol");
        let shares = [share("alice", 999, 0, Some(1)), share("bob", 3, 0, Some(5))];
        assert_eq!(whose_turn(&shares).unwrap().user_id, "bob");
        // Users with nothing waiting never get the turn.
        let shares = [share("alice", 0, 0, None), share("bob", 2, 2, Some(0))];
        assert_eq!(whose_turn(&shares).unwrap().user_id, "bob");
        assert!(whose_turn(&[share("alice", 0, 1, None)]).is_none());
    }
}
