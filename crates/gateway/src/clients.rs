//! gRPC clients of the downstream services, and how every call carries the caller's identity
//! and trace context.

use std::time::Duration;

use scribevault_core::UserId;
use scribevault_core::telemetry::{MetadataCarrier, inject_current_context};
use scribevault_proto::conversion::v1::conversion_service_client::ConversionServiceClient;
use scribevault_proto::discovery::v1::discovery_service_client::DiscoveryServiceClient;
use scribevault_proto::library::v1::library_service_client::LibraryServiceClient;
use scribevault_proto::storage::v1::storage_service_client::StorageServiceClient;
use scribevault_proto::transcription::v1::transcription_service_client::TranscriptionServiceClient;
use tonic::transport::Channel;

use crate::error::ApiError;
use crate::readiness::ReadinessCheck;

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
}

/// Lazily connected clients of the downstream services (a client is added here as routes that
/// need it land; every service is health-checked either way). Cloning is cheap (channels are shared).
#[derive(Clone)]
pub struct ServiceClients {
    pub conversion: ConversionServiceClient<Channel>,
    pub discovery: DiscoveryServiceClient<Channel>,
    pub library: LibraryServiceClient<Channel>,
    pub storage: StorageServiceClient<Channel>,
    pub transcription: TranscriptionServiceClient<Channel>,
    channels: Vec<(&'static str, &'static str, Channel)>,
}

impl ServiceClients {
    /// Clients for `addresses`; nothing is dialled until the first call.
    ///
    /// # Errors
    /// An address is not a valid URI.
    pub fn connect_lazy(addresses: &ServiceAddresses) -> Result<Self, tonic::transport::Error> {
        let discovery = scribevault_proto::server::connect_lazy(&addresses.discovery)?;
        let storage = scribevault_proto::server::connect_lazy(&addresses.storage)?;
        let transcription = scribevault_proto::server::connect_lazy(&addresses.transcription)?;
        let conversion = scribevault_proto::server::connect_lazy(&addresses.conversion)?;
        let library = scribevault_proto::server::connect_lazy(&addresses.library)?;
        Ok(Self {
            // A converted document's markdown is answered whole.
            conversion: ConversionServiceClient::new(conversion.clone())
                .max_decoding_message_size(scribevault_proto::library::MAX_MESSAGE_BYTES),
            discovery: DiscoveryServiceClient::new(discovery.clone()),
            library: LibraryServiceClient::new(library.clone())
                .max_decoding_message_size(scribevault_proto::library::MAX_MESSAGE_BYTES)
                .max_encoding_message_size(scribevault_proto::library::MAX_MESSAGE_BYTES),
            storage: StorageServiceClient::new(storage.clone())
                .max_decoding_message_size(scribevault_proto::storage::MAX_MESSAGE_BYTES),
            transcription: TranscriptionServiceClient::new(transcription.clone()),
            channels: vec![
                (
                    "discovery",
                    "scribevault.discovery.v1.DiscoveryService",
                    discovery,
                ),
                ("storage", "scribevault.storage.v1.StorageService", storage),
                (
                    "transcription",
                    "scribevault.transcription.v1.TranscriptionService",
                    transcription,
                ),
                (
                    "conversion",
                    "scribevault.conversion.v1.ConversionService",
                    conversion,
                ),
                ("library", "scribevault.library.v1.LibraryService", library),
            ],
        })
    }

    /// A `grpc.health.v1` check per downstream service, for `/readyz`.
    #[must_use]
    pub fn readiness_checks(&self) -> Vec<ReadinessCheck> {
        self.channels
            .iter()
            .map(|(name, service, channel)| {
                let channel = channel.clone();
                let service = (*service).to_owned();
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

/// A request on behalf of `user`, carrying the trace context and the spec's timeout.
///
/// # Errors
/// The user id cannot be put in metadata (never for ids we issue).
pub fn on_behalf_of<T>(user: &UserId, message: T) -> Result<tonic::Request<T>, ApiError> {
    let mut request = tonic::Request::new(message);
    user.attach_to(&mut request)?;
    inject_current_context(&mut MetadataCarrier(request.metadata_mut()));
    request.set_timeout(CALL_TIMEOUT);
    Ok(request)
}
