//! Blobs in S3 or any S3-compatible server (path-style addressing, custom endpoint).
//!
//! Uploads are streamed: the body is cut into parts of `part_size` bytes and sent as a
//! multipart upload, so memory use is bounded by one part whatever the object's size. Bodies
//! smaller than one part go up in a single `PutObject`.

use aws_sdk_s3::primitives::ByteStream as S3Body;
use aws_sdk_s3::types::{CompletedMultipartUpload, CompletedPart};
use bytes::{Bytes, BytesMut};
use futures::StreamExt as _;

use crate::{BlobError, BlobKey, BlobMeta, BlobStore, ByteStream};

/// The smallest part S3 accepts (except the last).
pub const MIN_PART_SIZE: usize = 5 * 1024 * 1024;

/// Deletes a folder's objects this many at a time.
const DELETES_IN_FLIGHT: usize = 16;

/// Where and how to reach the S3 server. Its `Debug` output leaves the secret key out.
#[derive(Clone)]
pub struct S3Settings {
    /// e.g. `http://127.0.0.1:5000`.
    pub endpoint: String,
    /// The bucket holding every object; created at start when missing.
    pub bucket: String,
    /// The region to sign for.
    pub region: String,
    /// Access key id (`SCRIBEVAULT_S3_ACCESS_KEY_ID` or `AWS_ACCESS_KEY_ID`).
    pub access_key_id: String,
    /// Secret access key (`SCRIBEVAULT_S3_SECRET_ACCESS_KEY` or `AWS_SECRET_ACCESS_KEY`).
    pub secret_access_key: String,
    /// Multipart part size; at least [`MIN_PART_SIZE`].
    pub part_size: usize,
}

impl std::fmt::Debug for S3Settings {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter
            .debug_struct("S3Settings")
            .field("endpoint", &self.endpoint)
            .field("bucket", &self.bucket)
            .field("region", &self.region)
            .field("access_key_id", &self.access_key_id)
            .field("secret_access_key", &"[redacted]")
            .field("part_size", &self.part_size)
            .finish()
    }
}

/// The S3 implementation of [`BlobStore`].
#[derive(Debug, Clone)]
pub struct S3BlobStore {
    client: aws_sdk_s3::Client,
    bucket: String,
    part_size: usize,
}

fn backend(error: impl std::fmt::Display) -> BlobError {
    BlobError::Backend(error.to_string())
}

/// The full error chain of an SDK error: its `Display` alone is just "service error".
fn sdk_error<E: std::error::Error + 'static>(error: aws_sdk_s3::error::SdkError<E>) -> BlobError {
    BlobError::Backend(aws_sdk_s3::error::DisplayErrorContext(error).to_string())
}

impl S3BlobStore {
    /// GetObject, whole or the HTTP `range` (`bytes=a-b`), as a stream.
    async fn get_object(
        &self,
        key: &BlobKey,
        range: Option<String>,
    ) -> Result<ByteStream, BlobError> {
        let object = match self
            .client
            .get_object()
            .bucket(&self.bucket)
            .key(key.as_str())
            .set_range(range)
            .send()
            .await
        {
            Ok(object) => object,
            Err(error)
                if error.as_service_error().is_some_and(
                    aws_sdk_s3::operation::get_object::GetObjectError::is_no_such_key,
                ) =>
            {
                return Err(BlobError::NotFound(key.to_string()));
            }
            // A range that starts past the end: S3 answers 416 InvalidRange; the trait answers
            // an empty body, as the local store does.
            Err(error)
                if error
                    .raw_response()
                    .is_some_and(|raw| raw.status().as_u16() == 416) =>
            {
                return Ok(Box::pin(futures::stream::empty()));
            }
            Err(error) => return Err(sdk_error(error)),
        };
        let reader = object.body.into_async_read();
        Ok(Box::pin(tokio_util::io::ReaderStream::with_capacity(
            reader,
            64 * 1024,
        )))
    }

    /// Connects and makes sure the bucket exists.
    ///
    /// # Errors
    /// The server cannot be reached or the bucket cannot be created.
    pub async fn connect(settings: S3Settings) -> Result<Self, BlobError> {
        let credentials = aws_sdk_s3::config::Credentials::new(
            settings.access_key_id,
            settings.secret_access_key,
            None,
            None,
            "scribevault-settings",
        );
        let config = aws_sdk_s3::config::Builder::new()
            .behavior_version(aws_sdk_s3::config::BehaviorVersion::latest())
            .region(aws_sdk_s3::config::Region::new(settings.region))
            .endpoint_url(settings.endpoint)
            .force_path_style(true)
            .credentials_provider(credentials)
            .build();
        let store = Self {
            client: aws_sdk_s3::Client::from_conf(config),
            bucket: settings.bucket,
            part_size: settings.part_size.max(MIN_PART_SIZE),
        };
        store.ensure_bucket().await?;
        Ok(store)
    }

    async fn ensure_bucket(&self) -> Result<(), BlobError> {
        if self
            .client
            .head_bucket()
            .bucket(&self.bucket)
            .send()
            .await
            .is_ok()
        {
            return Ok(());
        }
        match self
            .client
            .create_bucket()
            .bucket(&self.bucket)
            .send()
            .await
        {
            Ok(_) => Ok(()),
            Err(error) => {
                let service = error.as_service_error();
                if service.is_some_and(|e| {
                    e.is_bucket_already_owned_by_you() || e.is_bucket_already_exists()
                }) {
                    Ok(())
                } else {
                    Err(sdk_error(error))
                }
            }
        }
    }

    async fn put_multipart(
        &self,
        key: &BlobKey,
        first_part: Bytes,
        body: &mut ByteStream,
    ) -> Result<u64, BlobError> {
        let upload = self
            .client
            .create_multipart_upload()
            .bucket(&self.bucket)
            .key(key.as_str())
            .send()
            .await
            .map_err(sdk_error)?;
        let upload_id = upload
            .upload_id()
            .ok_or_else(|| backend("no upload id"))?
            .to_owned();
        let result = self.upload_parts(key, &upload_id, first_part, body).await;
        if result.is_err() {
            let _ = self
                .client
                .abort_multipart_upload()
                .bucket(&self.bucket)
                .key(key.as_str())
                .upload_id(&upload_id)
                .send()
                .await;
        }
        result
    }

    async fn upload_parts(
        &self,
        key: &BlobKey,
        upload_id: &str,
        first_part: Bytes,
        body: &mut ByteStream,
    ) -> Result<u64, BlobError> {
        let mut parts = Vec::new();
        let mut total = 0u64;
        let mut next = Some(first_part);
        while let Some(part) = next.take() {
            total += part.len() as u64;
            let number = i32::try_from(parts.len() + 1).map_err(backend)?;
            let uploaded = self
                .client
                .upload_part()
                .bucket(&self.bucket)
                .key(key.as_str())
                .upload_id(upload_id)
                .part_number(number)
                .body(S3Body::from(part))
                .send()
                .await
                .map_err(sdk_error)?;
            parts.push(
                CompletedPart::builder()
                    .set_e_tag(uploaded.e_tag().map(str::to_owned))
                    .part_number(number)
                    .build(),
            );
            let following = read_up_to(body, self.part_size).await?;
            if !following.is_empty() {
                next = Some(following);
            }
        }
        self.client
            .complete_multipart_upload()
            .bucket(&self.bucket)
            .key(key.as_str())
            .upload_id(upload_id)
            .multipart_upload(
                CompletedMultipartUpload::builder()
                    .set_parts(Some(parts))
                    .build(),
            )
            .send()
            .await
            .map_err(sdk_error)?;
        Ok(total)
    }
}

/// Reads from `body` until `limit` bytes are buffered or the body ends.
async fn read_up_to(body: &mut ByteStream, limit: usize) -> Result<Bytes, BlobError> {
    let mut buffer = BytesMut::new();
    while buffer.len() < limit {
        match body.next().await {
            Some(chunk) => buffer.extend_from_slice(&chunk.map_err(BlobError::Body)?),
            None => break,
        }
    }
    Ok(buffer.freeze())
}

#[async_trait::async_trait]
impl BlobStore for S3BlobStore {
    async fn put(&self, key: &BlobKey, mut body: ByteStream) -> Result<u64, BlobError> {
        let first = read_up_to(&mut body, self.part_size).await?;
        if first.len() < self.part_size {
            let size = first.len() as u64;
            self.client
                .put_object()
                .bucket(&self.bucket)
                .key(key.as_str())
                .body(S3Body::from(first))
                .send()
                .await
                .map_err(sdk_error)?;
            return Ok(size);
        }
        self.put_multipart(key, first, &mut body).await
    }

    async fn get(&self, key: &BlobKey) -> Result<ByteStream, BlobError> {
        self.get_object(key, None).await
    }

    async fn get_range(
        &self,
        key: &BlobKey,
        offset: u64,
        length: u64,
    ) -> Result<ByteStream, BlobError> {
        if length == 0 {
            // `bytes=a-(a-1)` is not a range S3 accepts; nothing to read anyway.
            return Ok(Box::pin(futures::stream::empty()));
        }
        let last = offset.saturating_add(length - 1);
        self.get_object(key, Some(format!("bytes={offset}-{last}")))
            .await
    }

    async fn head(&self, key: &BlobKey) -> Result<Option<BlobMeta>, BlobError> {
        match self
            .client
            .head_object()
            .bucket(&self.bucket)
            .key(key.as_str())
            .send()
            .await
        {
            Ok(head) => Ok(Some(BlobMeta {
                key: key.to_string(),
                size: u64::try_from(head.content_length().unwrap_or(0)).unwrap_or(0),
                modified_unix: head
                    .last_modified()
                    .map(aws_sdk_s3::primitives::DateTime::secs),
            })),
            Err(error)
                if error.as_service_error().is_some_and(
                    aws_sdk_s3::operation::head_object::HeadObjectError::is_not_found,
                ) =>
            {
                Ok(None)
            }
            Err(error) => Err(sdk_error(error)),
        }
    }

    async fn delete(&self, key: &BlobKey) -> Result<(), BlobError> {
        self.client
            .delete_object()
            .bucket(&self.bucket)
            .key(key.as_str())
            .send()
            .await
            .map_err(sdk_error)?;
        Ok(())
    }

    async fn list(&self, prefix: &str) -> Result<Vec<BlobMeta>, BlobError> {
        let mut found = Vec::new();
        let mut pages = self
            .client
            .list_objects_v2()
            .bucket(&self.bucket)
            .prefix(prefix)
            .into_paginator()
            .send();
        while let Some(page) = pages.next().await {
            let page = page.map_err(sdk_error)?;
            for object in page.contents() {
                if let Some(key) = object.key() {
                    found.push(BlobMeta {
                        key: key.to_owned(),
                        size: u64::try_from(object.size().unwrap_or(0)).unwrap_or(0),
                        modified_unix: object
                            .last_modified()
                            .map(aws_sdk_s3::primitives::DateTime::secs),
                    });
                }
            }
        }
        found.sort_by(|a, b| a.key.cmp(&b.key));
        Ok(found)
    }

    async fn delete_prefix(&self, folder: &BlobKey) -> Result<u64, BlobError> {
        // One DeleteObject per key, a few at a time: every S3-compatible server has it, while
        // the batch DeleteObjects is missing or checksummed differently on some of them.
        let objects = self.list(&format!("{}/", folder.as_str())).await?;
        let deleted = futures::stream::iter(objects)
            .map(|object| async move {
                self.client
                    .delete_object()
                    .bucket(&self.bucket)
                    .key(object.key)
                    .send()
                    .await
                    .map_err(sdk_error)
            })
            .buffer_unordered(DELETES_IN_FLIGHT)
            .collect::<Vec<_>>()
            .await;
        let mut count = 0;
        for outcome in deleted {
            outcome?;
            count += 1;
        }
        Ok(count)
    }

    async fn check_ready(&self) -> Result<(), BlobError> {
        self.client
            .head_bucket()
            .bucket(&self.bucket)
            .send()
            .await
            .map_err(sdk_error)?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn debug_output_leaves_the_secret_key_out() {
        let settings = S3Settings {
            endpoint: "http://127.0.0.1:5000".into(),
            bucket: "b".into(),
            region: "us-east-1".into(),
            access_key_id: "id".into(),
            secret_access_key: "very-secret-value".into(),
            part_size: MIN_PART_SIZE,
        };
        let printed = format!("{settings:?}");
        assert!(!printed.contains("very-secret-value"), "{printed}");
        assert!(printed.contains("[redacted]"), "{printed}");
    }
}
