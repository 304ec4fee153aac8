//! Storage's `UploadMp3` over gRPC, streamed from the downloaded file.

use std::path::Path;
use std::time::Duration;

use async_trait::async_trait;
use scribevault_core::UserId;
use scribevault_proto::client::{SignedChannel, outgoing, signed};
use scribevault_proto::storage::v1 as pb;
use scribevault_proto::storage::v1::storage_service_client::StorageServiceClient;
use tokio::io::AsyncReadExt as _;
use tokio_stream::wrappers::ReceiverStream;
use tonic::transport::Channel;

use super::{AudioArchive, PeerError, VideoAudio, refusal};

/// Bytes per gRPC message (as the gateway's uploads).
const MESSAGE_BYTES: usize = 256 * 1024;
/// Longest a store may take: storage reads at disk speed, so this only catches a hung peer.
const CALL_TIMEOUT: Duration = Duration::from_secs(600);

/// A client of the storage service.
#[derive(Clone)]
pub struct StorageClient {
    inner: StorageServiceClient<SignedChannel>,
}

impl StorageClient {
    /// A client over an existing channel.
    #[must_use]
    pub fn from_channel(channel: Channel) -> Self {
        Self {
            inner: StorageServiceClient::new(signed(channel)),
        }
    }

    /// A client that connects on first use.
    ///
    /// # Errors
    /// `addr` is not a usable address.
    pub fn connect_lazy(addr: &str) -> Result<Self, tonic::transport::Error> {
        Ok(Self {
            inner: StorageServiceClient::new(signed(scribevault_proto::server::connect_lazy(
                addr,
            )?)),
        })
    }
}

#[async_trait]
impl AudioArchive for StorageClient {
    async fn store_video_mp3(
        &self,
        user: &UserId,
        video: &VideoAudio,
        file: &Path,
    ) -> Result<String, PeerError> {
        let mut reader = tokio::fs::File::open(file).await.map_err(|error| {
            PeerError::Unavailable(format!("cannot read the download: {error}"))
        })?;
        let (sender, receiver) = tokio::sync::mpsc::channel::<pb::UploadMp3Request>(4);
        let request = outgoing(user, ReceiverStream::new(receiver), CALL_TIMEOUT)?;
        let mut client = self.inner.clone();
        let call = tokio::spawn(async move { client.upload_mp3(request).await });
        let metadata = pb::Mp3Metadata {
            video_id: video.video_id.clone(),
            title: video.title.clone(),
            channel_title: video.channel_title.clone(),
            duration_seconds: video.duration_seconds,
            published_at: video.published_at.clone(),
            file_name: format!("{}.mp3", video.video_id),
        };
        let mut read_error = None;
        if sender
            .send(pb::UploadMp3Request {
                part: Some(pb::upload_mp3_request::Part::Metadata(metadata)),
            })
            .await
            .is_ok()
        {
            loop {
                let mut chunk = vec![0u8; MESSAGE_BYTES];
                let mut filled = 0;
                while filled < MESSAGE_BYTES {
                    match reader.read(&mut chunk[filled..]).await {
                        Ok(0) => break,
                        Ok(read) => filled += read,
                        Err(error) => {
                            read_error = Some(error);
                            break;
                        }
                    }
                }
                if read_error.is_some() || filled == 0 {
                    break;
                }
                chunk.truncate(filled);
                let part = pb::UploadMp3Request {
                    part: Some(pb::upload_mp3_request::Part::Chunk(chunk.into())),
                };
                // Storage stopped reading: it refused the file; its answer says why.
                if sender.send(part).await.is_err() || filled < MESSAGE_BYTES {
                    break;
                }
            }
        }
        if let Some(error) = read_error {
            // Dropping the stream without its end tells storage the upload broke off.
            call.abort();
            return Err(PeerError::Unavailable(format!(
                "cannot read the download: {error}"
            )));
        }
        drop(sender);
        let answer = call
            .await
            .map_err(|error| PeerError::Unavailable(error.to_string()))?
            .map_err(refusal)?;
        Ok(answer.into_inner().mp3_path)
    }
}
