//! The caller's identity as it crosses process boundaries.
//!
//! The gateway authenticates the request; services never see tokens. What travels in gRPC
//! metadata is an identity assertion: the user id, an expiry, a request id and the gRPC method
//! it was made for, signed with HMAC-SHA256 under the service key every process of one instance
//! shares (`SCRIBEVAULT_SERVICE_KEY`). A bare user id proves nothing (anyone who can open a TCP
//! connection to a service port could write one), so services accept only an assertion that
//! verifies, for the method called, and read the caller with [`caller`]. The method is in the
//! signature so that an assertion seen on one call (a read) cannot be replayed on another (a
//! deletion) in its minute of life.
//!
//! Requests are marked with who they are sent for ([`SignAs`], by [`UserId::attach_to`] and
//! [`attach_service`]) and signed when they leave, by the client's interceptor
//! ([`sign_outgoing`]), which is the first place the method is known.
//!
//! The key is installed once per process ([`install_service_key`]) rather than threaded through
//! every client: the peers that sign (gateway, discovery, conversion, worker) call deep from
//! inside their use cases, and one key per process is exactly the deployment model.

use std::fmt;
use std::sync::OnceLock;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use hmac::{Hmac, Mac as _};
use serde::{Deserialize, Serialize};
use sha2::Sha256;

/// gRPC metadata key carrying the signed identity assertion.
pub const IDENTITY_METADATA_KEY: &str = "x-scribevault-identity";

/// How long an assertion is accepted after it was made. Calls are verified when they start, so
/// this bounds replay of a captured assertion, not the length of a call.
pub const ASSERTION_LIFETIME: Duration = Duration::from_secs(60);

/// How far a signer's clock may run ahead of the verifier's.
pub const CLOCK_SKEW: Duration = Duration::from_secs(30);

/// Shortest service key accepted (bytes).
pub const MIN_SERVICE_KEY_BYTES: usize = 32;

const VERSION: &str = "v2";

type HmacSha256 = Hmac<Sha256>;

/// An authenticated user's stable id (a UUID for local accounts, the token `sub` for OIDC).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct UserId(String);

/// The key that signs and verifies identity assertions.
#[derive(Clone)]
pub struct ServiceKey(Vec<u8>);

impl fmt::Debug for ServiceKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("ServiceKey(..)")
    }
}

/// Why a service key cannot be used.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum ServiceKeyError {
    /// Under [`MIN_SERVICE_KEY_BYTES`].
    #[error("the service key must be at least {MIN_SERVICE_KEY_BYTES} bytes")]
    TooShort,
    /// Another key is already installed in this process.
    #[error("another service key is already installed in this process")]
    AlreadyInstalled,
}

impl ServiceKey {
    /// A key from configured bytes.
    ///
    /// # Errors
    /// Shorter than [`MIN_SERVICE_KEY_BYTES`].
    pub fn new(bytes: impl Into<Vec<u8>>) -> Result<Self, ServiceKeyError> {
        let bytes = bytes.into();
        if bytes.len() < MIN_SERVICE_KEY_BYTES {
            return Err(ServiceKeyError::TooShort);
        }
        Ok(Self(bytes))
    }

    /// A fresh random key: for one process that runs every service (`scribevault all`) and for
    /// tests, where no other process needs to verify.
    #[must_use]
    pub fn random() -> Self {
        use rand::RngCore as _;
        let mut bytes = vec![0_u8; 64];
        rand::thread_rng().fill_bytes(&mut bytes);
        Self(bytes)
    }

    fn mac(&self, payload: &str) -> HmacSha256 {
        // HMAC accepts keys of any length.
        let mut mac = HmacSha256::new_from_slice(&self.0).unwrap_or_else(|_| unreachable!());
        mac.update(payload.as_bytes());
        mac
    }

    /// An assertion that `user` is calling `method` (`/package.Service/Method`), valid for
    /// [`ASSERTION_LIFETIME`] from `now`.
    #[must_use]
    pub fn assert_user(&self, user: &UserId, method: &str, now: SystemTime) -> String {
        self.assert(&Principal::User(user.clone()), method, now)
    }

    /// An assertion that `principal` is calling `method`, valid for [`ASSERTION_LIFETIME`]
    /// from `now`.
    #[must_use]
    pub fn assert(&self, principal: &Principal, method: &str, now: SystemTime) -> String {
        let expires = unix_seconds(now) + ASSERTION_LIFETIME.as_secs();
        let request_id = uuid_like();
        let (kind, id) = match principal {
            Principal::User(user) => ("u", user.as_str()),
            Principal::Service(name) => ("s", name.as_str()),
        };
        let payload = format!(
            "{VERSION}.{kind}.{}.{expires}.{request_id}.{}",
            URL_SAFE_NO_PAD.encode(id),
            URL_SAFE_NO_PAD.encode(method)
        );
        let signature = URL_SAFE_NO_PAD.encode(self.mac(&payload).finalize().into_bytes());
        format!("{payload}.{signature}")
    }

    /// Puts an assertion that `user` is calling `method`, signed with this key, into
    /// `request`: for a client that talks to another process's services with a key of its own
    /// (tests, benchmarks, tools).
    pub fn attach_user<T>(&self, request: &mut tonic::Request<T>, user: &UserId, method: &str) {
        if let Ok(value) = self.assert_user(user, method, SystemTime::now()).parse() {
            request.metadata_mut().insert(IDENTITY_METADATA_KEY, value);
        }
    }

    /// The user an assertion names, if it was signed with this key for `method`, has not
    /// expired and names a user (not a service).
    ///
    /// # Errors
    /// Why the assertion is refused (for the log; callers answer one `Unauthenticated`).
    pub fn verify(
        &self,
        assertion: &str,
        method: &str,
        now: SystemTime,
    ) -> Result<UserId, AssertionError> {
        match self.verify_principal(assertion, method, now)? {
            Principal::User(user) => Ok(user),
            Principal::Service(_) => Err(AssertionError::NotAUser),
        }
    }

    /// Who an assertion names, if it was signed with this key for `method` and has not
    /// expired.
    ///
    /// # Errors
    /// Why the assertion is refused.
    pub fn verify_principal(
        &self,
        assertion: &str,
        method: &str,
        now: SystemTime,
    ) -> Result<Principal, AssertionError> {
        let (payload, signature) = assertion
            .rsplit_once('.')
            .ok_or(AssertionError::Malformed)?;
        let signature = URL_SAFE_NO_PAD
            .decode(signature)
            .map_err(|_| AssertionError::Malformed)?;
        self.mac(payload)
            .verify_slice(&signature)
            .map_err(|_| AssertionError::BadSignature)?;
        let mut parts = payload.split('.');
        let (
            Some(VERSION),
            Some(kind),
            Some(id),
            Some(expires),
            Some(_request_id),
            Some(made_for),
            None,
        ) = (
            parts.next(),
            parts.next(),
            parts.next(),
            parts.next(),
            parts.next(),
            parts.next(),
            parts.next(),
        )
        else {
            return Err(AssertionError::Malformed);
        };
        if URL_SAFE_NO_PAD.decode(made_for).ok().as_deref() != Some(method.as_bytes()) {
            return Err(AssertionError::WrongMethod);
        }
        let expires: u64 = expires.parse().map_err(|_| AssertionError::Malformed)?;
        if unix_seconds(now) > expires {
            return Err(AssertionError::Expired);
        }
        // A signer whose clock runs fast (or that was made to) must not mint assertions that
        // live for hours: no genuine one expires further ahead than its lifetime and the skew.
        if expires > unix_seconds(now) + ASSERTION_LIFETIME.as_secs() + CLOCK_SKEW.as_secs() {
            return Err(AssertionError::TooLongLived);
        }
        let id = URL_SAFE_NO_PAD
            .decode(id)
            .ok()
            .and_then(|bytes| String::from_utf8(bytes).ok())
            .filter(|id| !id.is_empty())
            .ok_or(AssertionError::Malformed)?;
        match kind {
            "u" => Ok(Principal::User(UserId::new(id))),
            "s" => Ok(Principal::Service(id)),
            _ => Err(AssertionError::Malformed),
        }
    }
}

/// Who a call is made by: a user (through the gateway or a peer acting for them), or one of the
/// instance's own services acting for nobody in particular (the gateway serving a signed export
/// link, whose signature the library checks itself).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Principal {
    User(UserId),
    Service(String),
}

/// Why an identity assertion was refused.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum AssertionError {
    /// No assertion in the metadata (a bare user-id header counts as none).
    #[error("no identity assertion")]
    Missing,
    /// Not of the assertion's shape.
    #[error("malformed identity assertion")]
    Malformed,
    /// Signed with another key, or altered.
    #[error("identity assertion signed with another key")]
    BadSignature,
    /// Past its expiry.
    #[error("identity assertion expired")]
    Expired,
    /// Expires further ahead than any assertion this code makes.
    #[error("identity assertion expires too far ahead")]
    TooLongLived,
    /// Made for another gRPC method than the one called.
    #[error("identity assertion made for another method")]
    WrongMethod,
    /// The server did not say which method was called (a wiring bug).
    #[error("the called method is not known")]
    NoMethod,
    /// Names a service where a user is needed.
    #[error("identity assertion names a service, not a user")]
    NotAUser,
    /// This process has no service key installed.
    #[error("no service key installed")]
    NoKey,
}

fn unix_seconds(time: SystemTime) -> u64 {
    time.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs())
}

/// 128 random bits as hex: the request id that makes each assertion unique in logs.
fn uuid_like() -> String {
    use rand::RngCore as _;
    let mut bytes = [0_u8; 16];
    rand::thread_rng().fill_bytes(&mut bytes);
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

static SERVICE_KEY: OnceLock<ServiceKey> = OnceLock::new();

/// Installs this process's service key. Installing the same key twice is fine (tests start
/// many servers in one process); a different one is refused.
///
/// # Errors
/// Another key is installed.
pub fn install_service_key(key: ServiceKey) -> Result<(), ServiceKeyError> {
    let installed = SERVICE_KEY.get_or_init(|| key.clone());
    if installed.0 == key.0 {
        Ok(())
    } else {
        Err(ServiceKeyError::AlreadyInstalled)
    }
}

/// Installs a random key unless one is installed: the processes where every signer and
/// verifier shares this address space (`scribevault all`, tests).
pub fn install_process_service_key() {
    SERVICE_KEY.get_or_init(ServiceKey::random);
}

/// The installed key.
fn service_key() -> Option<&'static ServiceKey> {
    SERVICE_KEY.get()
}

/// The verified caller a service's interceptor put into the request's extensions.
#[derive(Debug, Clone)]
pub struct VerifiedCaller(pub Principal);

/// Who an outgoing request is sent for, until [`sign_outgoing`] signs it for its method.
#[derive(Debug, Clone)]
pub struct SignAs(pub Principal);

/// The path of the gRPC method an incoming call names (`/package.Service/Method`), put into
/// the request's extensions by the server before [`verify_incoming`] runs.
#[derive(Debug, Clone)]
pub struct CalledMethod(pub String);

/// Signs an outgoing request marked with [`SignAs`] for the method tonic's client marked it
/// with; a request marked with nobody goes out as it is (and a service refuses it). The client
/// interceptor of every channel that calls a service.
///
/// # Errors
/// `Internal` when this process has no service key or the method is not known.
pub fn sign_outgoing(mut request: tonic::Request<()>) -> Result<tonic::Request<()>, tonic::Status> {
    let Some(SignAs(principal)) = request.extensions().get::<SignAs>().cloned() else {
        return Ok(request);
    };
    let method = request
        .extensions()
        .get::<tonic::GrpcMethod<'static>>()
        .map(|method| format!("/{}/{}", method.service(), method.method()))
        .ok_or_else(|| tonic::Status::internal("the call's gRPC method is not known"))?;
    let key = service_key()
        .ok_or_else(|| tonic::Status::internal("no service key installed in this process"))?;
    let value = key
        .assert(&principal, &method, SystemTime::now())
        .parse()
        .map_err(|_| tonic::Status::internal("identity assertion is not valid metadata"))?;
    request.metadata_mut().insert(IDENTITY_METADATA_KEY, value);
    Ok(request)
}

/// An assertion that `principal` calls `method`, signed with this process's key: for tests
/// and tools that put it on a request themselves.
///
/// # Errors
/// No key is installed.
pub fn assertion_for(principal: &Principal, method: &str) -> Result<String, AssertionError> {
    service_key()
        .map(|key| key.assert(principal, method, SystemTime::now()))
        .ok_or(AssertionError::NoKey)
}

/// Checks the assertion of an incoming call; on success the call carries a [`VerifiedCaller`]
/// extension that [`caller`] reads. Every gRPC service is wrapped with this (in the proto
/// crate's `serve`), so no handler can forget it.
///
/// # Errors
/// `Unauthenticated` for a missing, forged or expired assertion.
pub fn verify_incoming(
    mut request: tonic::Request<()>,
) -> Result<tonic::Request<()>, tonic::Status> {
    let result = service_key().ok_or(AssertionError::NoKey).and_then(|key| {
        let assertion = request
            .metadata()
            .get(IDENTITY_METADATA_KEY)
            .and_then(|value| value.to_str().ok())
            .ok_or(AssertionError::Missing)?;
        let method = request
            .extensions()
            .get::<CalledMethod>()
            .ok_or(AssertionError::NoMethod)?;
        key.verify_principal(assertion, &method.0, SystemTime::now())
    });
    match result {
        Ok(principal) => {
            request.extensions_mut().insert(VerifiedCaller(principal));
            Ok(request)
        }
        Err(reason) => {
            tracing::warn!(%reason, "gRPC call refused");
            Err(tonic::Status::unauthenticated(
                "missing or invalid caller identity",
            ))
        }
    }
}

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

    /// Marks an outgoing request as sent for this user; the client's [`sign_outgoing`]
    /// interceptor signs it for its method.
    ///
    /// # Errors
    /// `Internal` when this process has no service key (a start-up bug: every target installs
    /// one before serving), so that no call leaves unsigned.
    pub fn attach_to<T>(&self, request: &mut tonic::Request<T>) -> Result<(), tonic::Status> {
        service_key()
            .ok_or_else(|| tonic::Status::internal("no service key installed in this process"))?;
        request
            .extensions_mut()
            .insert(SignAs(Principal::User(self.clone())));
        Ok(())
    }
}

/// Marks an outgoing request as sent by this process's service `name` (for the few calls made
/// on nobody's behalf); the client's [`sign_outgoing`] interceptor signs it.
///
/// # Errors
/// `Internal` when this process has no service key.
pub fn attach_service<T>(name: &str, request: &mut tonic::Request<T>) -> Result<(), tonic::Status> {
    service_key()
        .ok_or_else(|| tonic::Status::internal("no service key installed in this process"))?;
    request
        .extensions_mut()
        .insert(SignAs(Principal::Service(name.to_owned())));
    Ok(())
}

impl fmt::Display for UserId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// The verified user calling a gRPC method.
///
/// # Errors
/// `Unauthenticated` when the request did not pass [`verify_incoming`] or names a service.
pub fn caller<T>(request: &tonic::Request<T>) -> Result<UserId, tonic::Status> {
    match request.extensions().get::<VerifiedCaller>() {
        Some(VerifiedCaller(Principal::User(user))) => Ok(user.clone()),
        _ => Err(tonic::Status::unauthenticated("missing caller identity")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const M: &str = "/scribevault.library.v1.LibraryService/GetTranscript";

    fn at(seconds: u64) -> SystemTime {
        UNIX_EPOCH + Duration::from_secs(seconds)
    }

    #[test]
    fn an_assertion_verifies_under_its_key_until_it_expires() {
        let key = ServiceKey::random();
        let user = UserId::new("auth0|ada.lovelace");
        let assertion = key.assert_user(&user, M, at(1_000));
        assert_eq!(key.verify(&assertion, M, at(1_000)), Ok(user.clone()));
        assert_eq!(key.verify(&assertion, M, at(1_060)), Ok(user));
        assert_eq!(
            key.verify(&assertion, M, at(1_061)),
            Err(AssertionError::Expired)
        );
    }

    /// The review's G11: a fast-clocked (or hostile) signer could mint assertions for hours.
    #[test]
    fn an_assertion_expiring_past_its_lifetime_and_the_skew_is_refused() {
        let key = ServiceKey::random();
        let user = UserId::new("ada");
        let from_the_future = key.assert_user(&user, M, at(1_000 + 3_600));
        assert_eq!(
            key.verify(&from_the_future, M, at(1_000)),
            Err(AssertionError::TooLongLived)
        );
        let a_little_fast = key.assert_user(&user, M, at(1_000 + 20));
        assert_eq!(key.verify(&a_little_fast, M, at(1_000)), Ok(user));
    }

    #[test]
    fn another_key_or_an_altered_user_is_refused() {
        let key = ServiceKey::random();
        let assertion = key.assert_user(&UserId::new("alice"), M, at(1_000));
        assert_eq!(
            ServiceKey::random().verify(&assertion, M, at(1_000)),
            Err(AssertionError::BadSignature)
        );
        let forged = assertion.replacen(
            &URL_SAFE_NO_PAD.encode("alice"),
            &URL_SAFE_NO_PAD.encode("mallory"),
            1,
        );
        assert_eq!(
            key.verify(&forged, M, at(1_000)),
            Err(AssertionError::BadSignature)
        );
        assert_eq!(
            key.verify("alice", M, at(1_000)),
            Err(AssertionError::Malformed)
        );
        assert_eq!(key.verify("", M, at(1_000)), Err(AssertionError::Malformed));
    }

    #[test]
    fn a_service_assertion_is_not_a_user() {
        let key = ServiceKey::random();
        let assertion = key.assert(&Principal::Service("gateway".into()), M, at(1_000));
        assert_eq!(
            key.verify_principal(&assertion, M, at(1_000)),
            Ok(Principal::Service("gateway".into()))
        );
        assert_eq!(
            key.verify(&assertion, M, at(1_000)),
            Err(AssertionError::NotAUser)
        );
    }

    /// The review's G11: an assertion seen on one call (a read) must not open another (a
    /// deletion) during its minute of life.
    #[test]
    fn an_assertion_is_refused_for_any_method_but_its_own() {
        let key = ServiceKey::random();
        let user = UserId::new("alice");
        let read = key.assert_user(&user, M, at(1_000));
        assert_eq!(key.verify(&read, M, at(1_000)), Ok(user));
        for other in [
            "/scribevault.library.v1.LibraryService/DeleteUserData",
            "/scribevault.storage.v1.StorageService/GetTranscript",
            "",
        ] {
            assert_eq!(
                key.verify(&read, other, at(1_000)),
                Err(AssertionError::WrongMethod),
                "{other}"
            );
        }
        // The method is under the signature: naming another one breaks it.
        let (payload, signature) = read.rsplit_once('.').unwrap();
        let (head, _) = payload.rsplit_once('.').unwrap();
        let moved = format!(
            "{head}.{}.{signature}",
            URL_SAFE_NO_PAD.encode("/scribevault.library.v1.LibraryService/DeleteUserData")
        );
        assert_eq!(
            key.verify(
                &moved,
                "/scribevault.library.v1.LibraryService/DeleteUserData",
                at(1_000)
            ),
            Err(AssertionError::BadSignature)
        );
    }

    #[test]
    fn short_keys_are_refused() {
        assert_eq!(
            ServiceKey::new(vec![1; 31]).unwrap_err(),
            ServiceKeyError::TooShort
        );
        assert!(ServiceKey::new(vec![1; 32]).is_ok());
    }
}
