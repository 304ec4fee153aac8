//! The caller's identity as it crosses process boundaries.
//!
//! The gateway authenticates the request and puts the user id into gRPC metadata; services never
//! see tokens. Every service reads the id with [`UserId::from_metadata`] and scopes every read
//! and write by it.

use std::fmt;

use serde::{Deserialize, Serialize};

/// gRPC metadata key carrying the authenticated user id.
pub const USER_ID_METADATA_KEY: &str = "x-scribevault-user-id";

/// An authenticated user's stable id (a UUID for local accounts, the token `sub` for OIDC).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct UserId(String);

impl UserId {
    /// Wraps an id that an authenticator has already verified.
    #[must_use]
    pub fn new(id: impl Into<String>) -> Self {
        Self(id.into())
    }

    /// The id as a string slice.
    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// Reads the caller from request metadata; a request without one is unauthenticated.
    ///
    /// # Errors
    /// `Unauthenticated` when the entry is missing, empty or not valid ASCII.
    pub fn from_metadata(metadata: &tonic::metadata::MetadataMap) -> Result<Self, tonic::Status> {
        metadata
            .get(USER_ID_METADATA_KEY)
            .and_then(|value| value.to_str().ok())
            .filter(|value| !value.is_empty())
            .map(Self::new)
            .ok_or_else(|| tonic::Status::unauthenticated("missing caller identity"))
    }

    /// Adds this user to outgoing request metadata.
    ///
    /// # Errors
    /// `InvalidArgument` if the id cannot be a metadata value (it never can for ids we issue).
    pub fn attach_to<T>(&self, request: &mut tonic::Request<T>) -> Result<(), tonic::Status> {
        let value = self
            .0
            .parse()
            .map_err(|_| tonic::Status::invalid_argument("user id is not valid metadata"))?;
        request.metadata_mut().insert(USER_ID_METADATA_KEY, value);
        Ok(())
    }
}

impl fmt::Display for UserId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Reads the caller of a gRPC request.
///
/// # Errors
/// `Unauthenticated` when the request carries no user id.
pub fn caller<T>(request: &tonic::Request<T>) -> Result<UserId, tonic::Status> {
    UserId::from_metadata(request.metadata())
}
