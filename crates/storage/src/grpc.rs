//! Thin gRPC adapter over [`Storage`].

use std::pin::Pin;

use futures::{Stream, StreamExt as _};
use scribevault_core::identity::caller;
use scribevault_proto::storage::v1 as pb;
use tonic::{Request, Response, Status, Streaming};

use crate::domain::{Mp3Upload, StoragePolicy, content_type_of};
use crate::error::StorageError;
use crate::service::Storage;

pub struct StorageGrpc {
    storage: Storage,
}

impl StorageGrpc {
    pub fn new(storage: Storage) -> Self {
        Self { storage }
    }
}

type DownloadStream = Pin<Box<dyn Stream<Item = Result<pb::DownloadBlobResponse, Status>> + Send>>;

#[tonic::async_trait]
impl pb::storage_service_server::StorageService for StorageGrpc {
    type DownloadBlobStream = DownloadStream;

    async fn set_storage_policy(
        &self,
        request: Request<pb::SetStoragePolicyRequest>,
    ) -> Result<Response<pb::SetStoragePolicyResponse>, Status> {
        let user = caller(&request)?;
        let request = request.into_inner();
        let used_bytes = self
            .storage
            .set_policy(
                &user,
                StoragePolicy {
                    max_bytes: request.max_bytes,
                    cleanup_after_days: request.cleanup_after_days,
                },
            )
            .await?;
        Ok(Response::new(pb::SetStoragePolicyResponse { used_bytes }))
    }

    async fn get_storage_usage(
        &self,
        request: Request<pb::GetStorageUsageRequest>,
    ) -> Result<Response<pb::GetStorageUsageResponse>, Status> {
        let user = caller(&request)?;
        let used_bytes = self.storage.used_bytes(&user).await?;
        Ok(Response::new(pb::GetStorageUsageResponse { used_bytes }))
    }

    async fn check_storage_room(
        &self,
        request: Request<pb::CheckStorageRoomRequest>,
    ) -> Result<Response<pb::CheckStorageRoomResponse>, Status> {
        let user = caller(&request)?;
        let room_bytes = self
            .storage
            .check_room(&user, request.into_inner().bytes)
            .await?;
        Ok(Response::new(pb::CheckStorageRoomResponse { room_bytes }))
    }

    async fn delete_user_data(
        &self,
        request: Request<pb::DeleteUserDataRequest>,
    ) -> Result<Response<pb::DeleteUserDataResponse>, Status> {
        let user = caller(&request)?;
        let deleted = self.storage.delete_user_data(&user).await?;
        Ok(Response::new(pb::DeleteUserDataResponse {
            rows_deleted: deleted.rows,
            blobs_deleted: deleted.blobs,
        }))
    }

    async fn upload_mp3(
        &self,
        request: Request<Streaming<pb::UploadMp3Request>>,
    ) -> Result<Response<pb::UploadMp3Response>, Status> {
        let user = caller(&request)?;
        let mut parts = request.into_inner();
        let metadata = match parts.message().await? {
            Some(pb::UploadMp3Request {
                part: Some(pb::upload_mp3_request::Part::Metadata(metadata)),
            }) => metadata,
            _ => {
                return Err(
                    StorageError::BadRequest("an upload starts with its metadata".into()).into(),
                );
            }
        };
        let chunks = parts.map(|part| match part {
            Ok(pb::UploadMp3Request {
                part: Some(pb::upload_mp3_request::Part::Chunk(chunk)),
            }) => Ok(chunk),
            Ok(_) => Err(StorageError::BadRequest(
                "metadata may only come first".into(),
            )),
            Err(_) => Err(StorageError::Interrupted),
        });
        let upload = Mp3Upload {
            video_id: metadata.video_id,
            title: metadata.title,
            channel_title: metadata.channel_title,
            duration_seconds: metadata.duration_seconds,
            published_at: metadata.published_at,
        };
        let stored = self.storage.store_mp3(&user, upload, chunks).await?;
        Ok(Response::new(pb::UploadMp3Response {
            mp3_path: stored.path,
            title: stored.title,
            size: stored.size,
            content_sha256: stored.content_sha256,
            video_id: stored.video_id,
            deduplicated: stored.deduplicated,
        }))
    }

    async fn get_mp3_status(
        &self,
        request: Request<pb::GetMp3StatusRequest>,
    ) -> Result<Response<pb::GetMp3StatusResponse>, Status> {
        let user = caller(&request)?;
        let statuses = self
            .storage
            .mp3_status(&user, &request.into_inner().video_ids)
            .await?;
        Ok(Response::new(pb::GetMp3StatusResponse {
            statuses: statuses
                .into_iter()
                .map(|(id, path)| {
                    (
                        id,
                        pb::Mp3Status {
                            has_mp3: path.is_some(),
                            mp3_file_path: path,
                        },
                    )
                })
                .collect(),
        }))
    }

    async fn list_manual_uploads(
        &self,
        request: Request<pb::ListManualUploadsRequest>,
    ) -> Result<Response<pb::ListManualUploadsResponse>, Status> {
        let user = caller(&request)?;
        let uploads = self.storage.manual_uploads(&user).await?;
        Ok(Response::new(pb::ListManualUploadsResponse {
            videos: uploads
                .into_iter()
                .map(|upload| pb::ManualUpload {
                    youtube_video_id: upload.video_id,
                    title: upload.title,
                    mp3_file_path: upload.path,
                    size: upload.size,
                    uploaded_at: upload.created_at.to_rfc3339(),
                })
                .collect(),
        }))
    }

    async fn download_blob(
        &self,
        request: Request<pb::DownloadBlobRequest>,
    ) -> Result<Response<Self::DownloadBlobStream>, Status> {
        let user = caller(&request)?;
        let request = request.into_inner();
        // Old callers send neither field: the whole object, as before.
        let body = if request.offset.is_none() && request.length.is_none() {
            self.storage.open(&user, &request.path).await?
        } else {
            self.storage
                .open_range(
                    &user,
                    &request.path,
                    request.offset.unwrap_or(0),
                    request.length,
                )
                .await?
        };
        let stream = body.map(|chunk| {
            chunk
                .map(|chunk| pb::DownloadBlobResponse { chunk })
                .map_err(|e| Status::unavailable(e.to_string()))
        });
        Ok(Response::new(Box::pin(stream)))
    }

    async fn stat_blob(
        &self,
        request: Request<pb::StatBlobRequest>,
    ) -> Result<Response<pb::StatBlobResponse>, Status> {
        let user = caller(&request)?;
        let path = request.into_inner().path;
        let meta = self.storage.stat(&user, &path).await?;
        Ok(Response::new(pb::StatBlobResponse {
            size: meta.size,
            modified_unix: meta.modified_unix,
            content_type: content_type_of(&path).to_owned(),
        }))
    }
}
