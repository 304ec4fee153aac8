//! gRPC clients of the downstream services, and how every call carries the caller's identity
//! and trace context.

use std::time::Duration;

use std::future::{Ready, ready};

use actix_web::dev::Payload;
use actix_web::{FromRequest, HttpRequest, web};
use scribevault_core::UserId;
use scribevault_proto::client::CallContext;
use scribevault_proto::conversion::v1::conversion_service_client::ConversionServiceClient;
use scribevault_proto::discovery::v1::discovery_service_client::DiscoveryServiceClient;
use scribevault_proto::library::v1::library_service_client::LibraryServiceClient;
use scribevault_proto::storage::v1::storage_service_client::StorageServiceClient;
use scribevault_proto::transcription::v1::transcription_service_client::TranscriptionServiceClient;
use scribevault_proto::webhooks::v1::webhooks_service_client::WebhooksServiceClient;
use tonic::service::interceptor::InterceptedService;
use tonic::transport::Channel;

use crate::auth::AuthenticatedUser;
use crate::error::ApiError;
use crate::readiness::ReadinessCheck;

/// A channel whose calls go through [`CallContext`].
pub type Intercepted = InterceptedService<Channel, CallContext>;

/// The spec's REST timeout, applied to every downstream call.
const CALL_TIMEOUT: Duration = Duration::from_secs(120);

/// Where each downstream service listens (`host:port`).
#[derive(Debug, Clone)]
pub struct ServiceAddresses {
    pub discovery: String,
    pub storage: String,
    pub transcription: String,
    pub conversion: String,
    pub library: String,
    pub webhooks: String,
}

/// One lazily connected channel per downstream service. Cloning is cheap (channels are shared).
#[derive(Clone)]
struct Channels {
    conversion: Channel,
    discovery: Channel,
    library: Channel,
    storage: Channel,
    transcription: Channel,
    webhooks: Channel,
}

/// The downstream services: health checks, and clients for a caller ([`Self::for_user`]).
#[derive(Clone)]
pub struct ServiceClients {
    channels: Channels,
}

impl ServiceClients {
    /// Clients for `addresses`; nothing is dialled until the first call.
    ///
    /// # Errors
    /// An address is not a valid URI.
    pub fn connect_lazy(addresses: &ServiceAddresses) -> Result<Self, tonic::transport::Error> {
        let connect = scribevault_proto::server::connect_lazy;
        Ok(Self {
            channels: Channels {
                conversion: connect(&addresses.conversion)?,
                discovery: connect(&addresses.discovery)?,
                library: connect(&addresses.library)?,
                storage: connect(&addresses.storage)?,
                transcription: connect(&addresses.transcription)?,
                webhooks: connect(&addresses.webhooks)?,
            },
        })
    }

    /// Clients whose every call acts for `user`.
    #[must_use]
    pub fn for_user(&self, user: &UserId) -> UserClients {
        UserClients {
            channels: self.channels.clone(),
            call: CallContext::new(user.clone(), CALL_TIMEOUT),
        }
    }

    /// A library client calling as the gateway itself, on nobody's behalf: only for the signed
    /// export links, whose signature the library checks.
    #[must_use]
    pub fn library_as_gateway(
        &self,
    ) -> LibraryServiceClient<scribevault_proto::client::SignedChannel> {
        LibraryServiceClient::new(scribevault_proto::client::signed(
            self.channels.library.clone(),
        ))
    }

    fn named_channels(&self) -> [(&'static str, &'static str, &Channel); 6] {
        let channels = &self.channels;
        [
            (
                "discovery",
                "scribevault.discovery.v1.DiscoveryService",
                &channels.discovery,
            ),
            (
                "storage",
                "scribevault.storage.v1.StorageService",
                &channels.storage,
            ),
            (
                "transcription",
                "scribevault.transcription.v1.TranscriptionService",
                &channels.transcription,
            ),
            (
                "conversion",
                "scribevault.conversion.v1.ConversionService",
                &channels.conversion,
            ),
            (
                "library",
                "scribevault.library.v1.LibraryService",
                &channels.library,
            ),
            (
                "webhooks",
                "scribevault.webhooks.v1.WebhooksService",
                &channels.webhooks,
            ),
        ]
    }

    /// A `grpc.health.v1` check per downstream service, for `/readyz`.
    #[must_use]
    pub fn readiness_checks(&self) -> Vec<ReadinessCheck> {
        self.named_channels()
            .into_iter()
            .map(|(name, service, channel)| {
                let channel = channel.clone();
                let service = service.to_owned();
                ReadinessCheck::new(format!("{name} service"), move || {
                    let mut health =
                        tonic_health::pb::health_client::HealthClient::new(channel.clone());
                    let service = service.clone();
                    Box::pin(async move {
                        let answer = health
                            .check(tonic_health::pb::HealthCheckRequest { service })
                            .await
                            .map_err(|status| status.message().to_owned())?;
                        if answer.into_inner().status
                            == tonic_health::pb::health_check_response::ServingStatus::Serving
                                as i32
                        {
                            Ok(())
                        } else {
                            Err("not serving".to_owned())
                        }
                    })
                })
            })
            .collect()
    }
}

/// Clients that act for one signed-in caller: every call they make carries the caller's signed
/// identity, the trace context and the spec's timeout (the [`CallContext`] interceptor), so no
/// handler can send a call without them. Taken by handlers as an extractor.
pub struct UserClients {
    channels: Channels,
    call: CallContext,
}

impl UserClients {
    /// The caller these clients act for.
    #[must_use]
    pub fn user(&self) -> &UserId {
        self.call.user()
    }

    #[must_use]
    pub fn conversion(&self) -> ConversionServiceClient<Intercepted> {
        // A converted document's markdown is answered whole.
        ConversionServiceClient::with_interceptor(
            self.channels.conversion.clone(),
            self.call.clone(),
        )
        .max_decoding_message_size(scribevault_proto::library::MAX_MESSAGE_BYTES)
    }

    #[must_use]
    pub fn discovery(&self) -> DiscoveryServiceClient<Intercepted> {
        DiscoveryServiceClient::with_interceptor(self.channels.discovery.clone(), self.call.clone())
    }

    #[must_use]
    pub fn library(&self) -> LibraryServiceClient<Intercepted> {
        LibraryServiceClient::with_interceptor(self.channels.library.clone(), self.call.clone())
            .max_decoding_message_size(scribevault_proto::library::MAX_MESSAGE_BYTES)
            .max_encoding_message_size(scribevault_proto::library::MAX_MESSAGE_BYTES)
    }

    #[must_use]
    pub fn storage(&self) -> StorageServiceClient<Intercepted> {
        StorageServiceClient::with_interceptor(self.channels.storage.clone(), self.call.clone())
            .max_decoding_message_size(scribevault_proto::storage::MAX_MESSAGE_BYTES)
    }

    #[must_use]
    pub fn transcription(&self) -> TranscriptionServiceClient<Intercepted> {
        TranscriptionServiceClient::with_interceptor(
            self.channels.transcription.clone(),
            self.call.clone(),
        )
    }

    #[must_use]
    pub fn webhooks(&self) -> WebhooksServiceClient<Intercepted> {
        WebhooksServiceClient::with_interceptor(self.channels.webhooks.clone(), self.call.clone())
    }
}

impl FromRequest for UserClients {
    type Error = ApiError;
    type Future = Ready<Result<Self, ApiError>>;

    fn from_request(request: &HttpRequest, payload: &mut Payload) -> Self::Future {
        let Some(clients) = request.app_data::<web::Data<ServiceClients>>() else {
            return ready(Err(ApiError::internal("no service clients registered")));
        };
        ready(
            AuthenticatedUser::from_request(request, payload)
                .into_inner()
                .map(|user| clients.for_user(&user.0)),
        )
    }
}
