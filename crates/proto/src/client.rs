//! How one Scribevault process calls another on a user's behalf: the signed identity, the trace
//! context and a deadline travel with every call, and a peer's answer comes back as one error
//! vocabulary. Each caller used to carry its own copy of this; the copies drifted (one sent the
//! call without the identity when it could not be attached), so there is now this one.

use std::time::Duration;

use scribevault_core::UserId;
use scribevault_core::telemetry::{MetadataCarrier, inject_current_context};
use tonic::service::Interceptor;
use tonic::service::interceptor::InterceptedService;
use tonic::transport::Channel;

/// A channel whose calls are signed for their method as they leave ([`SignCalls`]).
pub type SignedChannel = InterceptedService<Channel, SignCalls>;

/// `channel`, signing every call marked with whom it is sent for.
#[must_use]
pub fn signed(channel: Channel) -> SignedChannel {
    InterceptedService::new(channel, SignCalls)
}

/// Signs each outgoing call for its gRPC method, for the caller its request was marked with
/// (`UserId::attach_to`, `attach_service`): the interceptor of every client whose requests are
/// built by hand ([`outgoing`]).
#[derive(Debug, Clone, Copy, Default)]
pub struct SignCalls;

impl Interceptor for SignCalls {
    fn call(&mut self, request: tonic::Request<()>) -> Result<tonic::Request<()>, tonic::Status> {
        scribevault_core::identity::sign_outgoing(request)
    }
}

/// A peer's failure, as the calling service sees it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PeerError {
    /// The peer has no such thing for this user (another user's id reads the same).
    #[error("not found: {0}")]
    NotFound(String),
    /// The peer refused the request as given; its message says why (e.g. storage: not an MP3).
    #[error("{0}")]
    Refused(String),
    /// The peer could not be reached, timed out or failed.
    #[error("{0}")]
    Unavailable(String),
    /// The caller's identity could not be attached, so the call was not sent.
    #[error("the caller's identity cannot be sent: {0}")]
    Identity(String),
}

impl From<tonic::Status> for PeerError {
    fn from(status: tonic::Status) -> Self {
        match status.code() {
            tonic::Code::NotFound => Self::NotFound(status.message().to_owned()),
            tonic::Code::InvalidArgument
            | tonic::Code::FailedPrecondition
            | tonic::Code::ResourceExhausted
            | tonic::Code::OutOfRange
            | tonic::Code::AlreadyExists => Self::Refused(status.message().to_owned()),
            code => Self::Unavailable(format!("{code:?}: {}", status.message())),
        }
    }
}

/// What every outgoing call on a user's behalf carries. As a tonic [`Interceptor`], a client
/// built with it (`FooServiceClient::with_interceptor(channel, context)`) cannot forget any of
/// it; the identity assertion is signed afresh for each call, because it expires.
#[derive(Debug, Clone)]
pub struct CallContext {
    user: UserId,
    timeout: Duration,
}

impl CallContext {
    /// Calls on behalf of `user`, each allowed `timeout`.
    #[must_use]
    pub fn new(user: UserId, timeout: Duration) -> Self {
        Self { user, timeout }
    }

    /// The user the calls act for.
    #[must_use]
    pub fn user(&self) -> &UserId {
        &self.user
    }

    fn stamp<T>(&self, request: &mut tonic::Request<T>) -> Result<(), tonic::Status> {
        self.user.attach_to(request)?;
        inject_current_context(&mut MetadataCarrier(request.metadata_mut()));
        request.set_timeout(self.timeout);
        Ok(())
    }
}

impl Interceptor for CallContext {
    fn call(
        &mut self,
        mut request: tonic::Request<()>,
    ) -> Result<tonic::Request<()>, tonic::Status> {
        self.stamp(&mut request)?;
        scribevault_core::identity::sign_outgoing(request)
    }
}

/// `message` as a request on behalf of `user`, for clients on a [`SignedChannel`] (which signs
/// it for its method as it leaves).
///
/// # Errors
/// [`PeerError::Identity`] when the identity cannot be attached (no service key installed in
/// this process); the call must then not be sent.
pub fn outgoing<T>(
    user: &UserId,
    message: T,
    timeout: Duration,
) -> Result<tonic::Request<T>, PeerError> {
    let mut request = tonic::Request::new(message);
    CallContext::new(user.clone(), timeout)
        .stamp(&mut request)
        .map_err(|status| PeerError::Identity(status.message().to_owned()))?;
    Ok(request)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_peer_status_maps_to_what_the_caller_can_act_on() {
        assert_eq!(
            PeerError::from(tonic::Status::not_found("no such item")),
            PeerError::NotFound("no such item".to_owned())
        );
        assert_eq!(
            PeerError::from(tonic::Status::invalid_argument("not an MP3")),
            PeerError::Refused("not an MP3".to_owned())
        );
        assert!(matches!(
            PeerError::from(tonic::Status::unavailable("connection refused")),
            PeerError::Unavailable(message) if message.contains("connection refused")
        ));
    }

    #[test]
    fn without_a_service_key_the_call_is_not_sent() {
        // No key is installed in this test process, so the identity cannot be signed.
        let user = UserId::new("user-1");
        let refused = outgoing(&user, (), Duration::from_secs(1));
        assert!(
            matches!(refused, Err(PeerError::Identity(_))),
            "{refused:?}"
        );
    }
}
