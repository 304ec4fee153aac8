//! Recovery codes: ten single-use codes handed out when a second factor is turned on, for the
//! day the authenticator app is lost. They are shown once and kept as SHA-256 hashes (50 random
//! bits each, so a fast hash is enough, as for API tokens); signing in with one uses it up, in
//! one conditional update, so two sign-ins racing with the same code cannot both pass.

use super::secret::secret_hash as hash;
use chrono::{DateTime, Utc};
use rand::Rng as _;
use sea_orm::sea_query::Expr;
use sea_orm::{
    ColumnTrait as _, DatabaseConnection, DbErr, EntityTrait as _, PaginatorTrait as _,
    QueryFilter as _, Set,
};

use crate::entity::recovery_code::{self, Entity as RecoveryCodeRow};

/// How many codes a second factor comes with.
pub const RECOVERY_CODES: usize = 10;

/// Crockford's base32 without the letters people misread: codes are typed from paper.
const ALPHABET: &[u8] = b"0123456789abcdefghjkmnpqrstvwxyz";
/// Characters of a code, shown in two groups of five.
const CODE_CHARS: usize = 10;

/// The codes of every local account.
#[derive(Clone)]
pub struct RecoveryCodes {
    db: DatabaseConnection,
}

/// A code as typed (any case, with or without its dash or spaces), in the form it is hashed
/// in; `None` when it cannot be a recovery code (a 6-digit authenticator code, say).
#[must_use]
pub fn normalised(code: &str) -> Option<String> {
    let code: String = code
        .chars()
        .filter(|c| !matches!(c, '-' | ' '))
        .flat_map(char::to_lowercase)
        .collect();
    (code.len() == CODE_CHARS && code.bytes().all(|byte| ALPHABET.contains(&byte))).then_some(code)
}

fn new_code() -> String {
    let mut rng = rand::thread_rng();
    (0..CODE_CHARS)
        .map(|_| char::from(ALPHABET[rng.gen_range(0..ALPHABET.len())]))
        .collect()
}

/// How a code is shown: `abcde-fghjk`.
fn shown(code: &str) -> String {
    format!("{}-{}", &code[..CODE_CHARS / 2], &code[CODE_CHARS / 2..])
}

impl RecoveryCodes {
    pub fn new(db: DatabaseConnection) -> Self {
        Self { db }
    }

    /// Ten new codes for `user`, in place of any earlier ones; answered once, to be shown.
    ///
    /// # Errors
    /// Database failure.
    pub async fn replace(&self, user: &str) -> Result<Vec<String>, DbErr> {
        self.remove(user).await?;
        let codes: Vec<String> = (0..RECOVERY_CODES).map(|_| new_code()).collect();
        let rows = codes.iter().map(|code| recovery_code::ActiveModel {
            code_hash: Set(hash(code)),
            user_id: Set(user.to_owned()),
            used_at: Set(None),
        });
        RecoveryCodeRow::insert_many(rows).exec(&self.db).await?;
        Ok(codes.iter().map(|code| shown(code)).collect())
    }

    /// Uses up `code` of `user`; answers how many are left, or `None` when it is not one of
    /// theirs or was used.
    ///
    /// # Errors
    /// Database failure.
    pub async fn redeem(
        &self,
        user: &str,
        code: &str,
        now: DateTime<Utc>,
    ) -> Result<Option<u64>, DbErr> {
        let Some(code) = normalised(code) else {
            return Ok(None);
        };
        let used = RecoveryCodeRow::update_many()
            .col_expr(recovery_code::Column::UsedAt, Expr::value(now))
            .filter(recovery_code::Column::CodeHash.eq(hash(&code)))
            .filter(recovery_code::Column::UserId.eq(user))
            .filter(recovery_code::Column::UsedAt.is_null())
            .exec(&self.db)
            .await?;
        if used.rows_affected != 1 {
            return Ok(None);
        }
        Ok(Some(self.left(user).await?))
    }

    /// How many unused codes `user` has.
    ///
    /// # Errors
    /// Database failure.
    pub async fn left(&self, user: &str) -> Result<u64, DbErr> {
        RecoveryCodeRow::find()
            .filter(recovery_code::Column::UserId.eq(user))
            .filter(recovery_code::Column::UsedAt.is_null())
            .count(&self.db)
            .await
    }

    /// Forgets every code of `user` (the factor turned off, the member deleted).
    ///
    /// # Errors
    /// Database failure.
    pub async fn remove(&self, user: &str) -> Result<(), DbErr> {
        RecoveryCodeRow::delete_many()
            .filter(recovery_code::Column::UserId.eq(user))
            .exec(&self.db)
            .await?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_told_from_authenticator_codes_and_read_as_typed() {
        let code = new_code();
        let typed = shown(&code).to_uppercase();
        assert_eq!(normalised(&typed).as_deref(), Some(code.as_str()));
        assert_eq!(
            normalised(&format!(" {} ", shown(&code))).as_deref(),
            Some(code.as_str())
        );
        assert_eq!(normalised("123456"), None);
        assert_eq!(normalised("abcde-fghi"), None, "too short");
        assert_eq!(normalised("abcde-fghil"), None, "l is not in the alphabet");
    }

    #[test]
    fn ten_codes_are_ten_different_codes() {
        let codes: std::collections::HashSet<String> =
            (0..RECOVERY_CODES).map(|_| new_code()).collect();
        assert_eq!(codes.len(), RECOVERY_CODES);
    }
}
