//! Paths handed to clients, and the keys they stand for.
//!
//! A client sees an opaque, relative path such as `uploads/0193….mp3` or
//! `transcripts/0193….md`; the object lives at `users/<user id>/<path>`. Because the owner is
//! part of the key and never part of the path, a path can only ever name the caller's own
//! objects: another user's path simply does not exist under the caller's prefix.

use crate::{BlobError, BlobKey};

/// The top-level folders a client path may start with.
pub const CLIENT_PATH_ROOTS: [&str; 4] = ["uploads/", "transcripts/", "exports/", "converted/"];

/// The key of `client_path` for `user_id`.
///
/// # Errors
/// [`BlobError::InvalidKey`] for an absolute path, `..`, NUL, an unknown root folder, or a user
/// id that cannot be a single key segment.
pub fn owned_key(user_id: &str, client_path: &str) -> Result<BlobKey, BlobError> {
    check_owner(user_id)?;
    let path = BlobKey::parse(client_path)?;
    if !CLIENT_PATH_ROOTS
        .iter()
        .any(|root| path.as_str().starts_with(root))
    {
        return Err(BlobError::InvalidKey(format!(
            "unknown path {client_path:?}"
        )));
    }
    BlobKey::parse(&format!("users/{}/{}", user_id, path.as_str()))
}

/// The folder holding every object of `user_id` under one of the [`CLIENT_PATH_ROOTS`]
/// (`owned_folder("u1", "uploads/")` is `users/u1/uploads`), for
/// [`BlobStore::delete_prefix`](crate::BlobStore::delete_prefix).
///
/// # Errors
/// [`BlobError::InvalidKey`] for a root that is not one of [`CLIENT_PATH_ROOTS`], or a user id
/// that cannot be a single key segment.
pub fn owned_folder(user_id: &str, root: &str) -> Result<BlobKey, BlobError> {
    check_owner(user_id)?;
    let Some(root) = CLIENT_PATH_ROOTS
        .iter()
        .find(|known| **known == root)
        .and_then(|known| known.strip_suffix('/'))
    else {
        return Err(BlobError::InvalidKey(format!("unknown root {root:?}")));
    };
    BlobKey::parse(&format!("users/{user_id}/{root}"))
}

/// A user id is one key segment: never empty, `.`, `..` or containing `/`.
fn check_owner(user_id: &str) -> Result<(), BlobError> {
    if user_id.is_empty() || user_id.contains('/') || user_id == "." || user_id == ".." {
        return Err(BlobError::InvalidKey(format!("invalid owner {user_id:?}")));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_are_scoped_to_their_owner() {
        assert_eq!(
            owned_key("u1", "uploads/a.mp3").unwrap().as_str(),
            "users/u1/uploads/a.mp3"
        );
        assert_eq!(
            owned_key("auth0|abc", "transcripts/f.md").unwrap().as_str(),
            "users/auth0|abc/transcripts/f.md"
        );
    }

    #[test]
    fn no_path_reaches_outside_the_owner() {
        for bad in [
            "../u2/uploads/a.mp3",
            "/etc/passwd",
            "uploads/../../u2/x",
            "users/u2/uploads/a.mp3",
            "uploads/a\0.mp3",
            "",
        ] {
            assert!(owned_key("u1", bad).is_err(), "{bad:?}");
        }
        assert!(owned_key("../u2", "uploads/a.mp3").is_err());
    }

    #[test]
    fn a_folder_is_one_root_of_one_owner() {
        assert_eq!(
            owned_folder("u1", "uploads/").unwrap().as_str(),
            "users/u1/uploads"
        );
        assert_eq!(
            owned_folder("auth0|abc", "converted/").unwrap().as_str(),
            "users/auth0|abc/converted"
        );
        for (owner, root) in [
            ("u1", "uploads"),
            ("u1", ""),
            ("u1", "users/"),
            ("u1", "../"),
            ("", "uploads/"),
            ("..", "uploads/"),
            ("u1/u2", "uploads/"),
        ] {
            assert!(owned_folder(owner, root).is_err(), "{owner:?} {root:?}");
        }
    }
}
