//! The library's gRPC API, as conversion uses it.

use std::time::Duration;

use async_trait::async_trait;
use scribevault_core::UserId;
use scribevault_proto::client::{SignedChannel, outgoing, signed};
use scribevault_proto::library::v1 as pb;
use scribevault_proto::library::v1::library_service_client::LibraryServiceClient;
use tonic::transport::Channel;

use super::{PeerError, Vault, VaultItem};

const CALL_TIMEOUT: Duration = Duration::from_secs(30);

/// A client of the library service.
#[derive(Clone)]
pub struct LibraryClient {
    inner: LibraryServiceClient<SignedChannel>,
}

impl LibraryClient {
    /// A client over an existing channel.
    #[must_use]
    pub fn from_channel(channel: Channel) -> Self {
        Self {
            inner: LibraryServiceClient::new(signed(channel))
                .max_decoding_message_size(scribevault_proto::library::MAX_MESSAGE_BYTES)
                .max_encoding_message_size(scribevault_proto::library::MAX_MESSAGE_BYTES),
        }
    }

    /// A client that connects on first use.
    ///
    /// # Errors
    /// `addr` is not a usable address.
    pub fn connect_lazy(addr: &str) -> Result<Self, tonic::transport::Error> {
        Ok(Self::from_channel(scribevault_proto::server::connect_lazy(
            addr,
        )?))
    }
}

#[async_trait]
impl Vault for LibraryClient {
    async fn item(&self, user: &UserId, id: &str) -> Result<VaultItem, PeerError> {
        let request = outgoing(
            user,
            pb::GetTranscriptRequest { id: id.to_owned() },
            CALL_TIMEOUT,
        )?;
        let item = self
            .inner
            .clone()
            .get_transcript(request)
            .await?
            .into_inner();
        Ok(VaultItem {
            id: item.id,
            title: item.title,
            file_name: item.file_name,
        })
    }

    async fn replace_content(
        &self,
        user: &UserId,
        id: &str,
        content: &str,
    ) -> Result<(), PeerError> {
        let request = outgoing(
            user,
            pb::UpdateTranscriptContentRequest {
                id: id.to_owned(),
                content: content.to_owned(),
            },
            CALL_TIMEOUT,
        )?;
        self.inner
            .clone()
            .update_transcript_content(request)
            .await?;
        Ok(())
    }
}
