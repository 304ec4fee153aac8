//! Exports: a signed link per request, the file made when the link is followed.

use std::io::Write;

use bytes::Bytes;
use chrono::{DateTime, Utc};
use scribevault_core::UserId;
use tokio::sync::mpsc;

use super::Library;
use crate::error::LibraryError;
use crate::export::{self, ExportFormat, MAX_BULK_ITEMS};
use crate::store::{ExportRecord, NewExport, StoredItem};

/// Bytes per chunk sent to the client.
const CHUNK_BYTES: usize = 64 * 1024;

/// What a followed link streams.
pub struct ExportDownload {
    pub filename: String,
    pub content_type: &'static str,
    /// Who made the link, and when: the gateway refuses the links of a member who has been
    /// disabled or has ended every session since.
    pub owner: String,
    pub issued_at: DateTime<Utc>,
    /// The bytes in chunks; an `Err` ends the download early.
    pub body: mpsc::Receiver<Result<Bytes, LibraryError>>,
}

/// A `Write` that hands its bytes to an async receiver in chunks, from a blocking thread.
struct ChannelWriter {
    sender: mpsc::Sender<Result<Bytes, LibraryError>>,
    buffer: Vec<u8>,
}

impl ChannelWriter {
    fn send_buffer(&mut self) -> std::io::Result<()> {
        if self.buffer.is_empty() {
            return Ok(());
        }
        let chunk = Bytes::from(std::mem::take(&mut self.buffer));
        self.sender
            .blocking_send(Ok(chunk))
            .map_err(|_| std::io::Error::new(std::io::ErrorKind::BrokenPipe, "download closed"))
    }
}

impl Write for ChannelWriter {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.buffer.extend_from_slice(bytes);
        if self.buffer.len() >= CHUNK_BYTES {
            self.send_buffer()?;
        }
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.send_buffer()
    }
}

impl Library {
    async fn record_export(
        &self,
        user: &UserId,
        items: &[StoredItem],
        format: ExportFormat,
        bundle: bool,
        filename: String,
    ) -> Result<(String, String), LibraryError> {
        let now = Utc::now();
        let record = self
            .store
            .create_export(
                user.as_str(),
                NewExport {
                    format: format.as_str().to_owned(),
                    bundle,
                    filename: filename.clone(),
                    expires_at: now + self.link_ttl,
                    seqs: items.iter().map(|stored| stored.seq).collect(),
                },
                now,
            )
            .await?;
        let seqs: Vec<i64> = items.iter().map(|stored| stored.seq).collect();
        self.store.mark_exported(user.as_str(), &seqs, now).await?;
        self.announce_stats(user).await;
        Ok((self.signer.link(&record.id, record.expires_at), filename))
    }

    /// A link to one of the caller's items in `format`; marks it exported.
    ///
    /// # Errors
    /// Unknown format or item, subtitles of an item without segments, database failure.
    #[tracing::instrument(skip_all, fields(user = %user, item = id))]
    pub async fn export_one(
        &self,
        user: &UserId,
        id: &str,
        format: &str,
    ) -> Result<(String, String), LibraryError> {
        let format = ExportFormat::parse(format).map_err(LibraryError::InvalidArgument)?;
        let stored = self
            .store
            .find(user.as_str(), id)
            .await?
            .ok_or(LibraryError::NotFound)?;
        let filename = export::file_name(&stored.item, format);
        if format.needs_segments() {
            // Refuse now, not when the link is followed.
            let text = self
                .store
                .text(stored.clone())
                .await?
                .ok_or(LibraryError::NotFound)?;
            export::render(&text, format).map_err(LibraryError::InvalidArgument)?;
        }
        self.record_export(user, &[stored], format, false, filename)
            .await
    }

    /// A link to one zip of the caller's items `ids` in `format`; marks them exported.
    ///
    /// # Errors
    /// No or too many ids, an id that is not the caller's, unknown format, database failure.
    #[tracing::instrument(skip_all, fields(user = %user, items = ids.len()))]
    pub async fn export_bulk(
        &self,
        user: &UserId,
        ids: &[String],
        format: &str,
    ) -> Result<(String, String), LibraryError> {
        let format = ExportFormat::parse(format).map_err(LibraryError::InvalidArgument)?;
        let mut unique: Vec<String> = Vec::with_capacity(ids.len());
        for id in ids {
            if !unique.contains(id) {
                unique.push(id.clone());
            }
        }
        if unique.is_empty() || unique.len() > MAX_BULK_ITEMS {
            return Err(LibraryError::InvalidArgument(format!(
                "ids must name 1 to {MAX_BULK_ITEMS} transcripts"
            )));
        }
        let items = self.store.find_many(user.as_str(), &unique).await?;
        if items.len() != unique.len() {
            return Err(LibraryError::NotFound);
        }
        if format.needs_segments() {
            for stored in &items {
                let text = self
                    .store
                    .text(stored.clone())
                    .await?
                    .ok_or(LibraryError::NotFound)?;
                export::render(&text, format).map_err(LibraryError::InvalidArgument)?;
            }
        }
        let filename = format!("vault-export-{}.zip", Utc::now().format("%Y%m%d-%H%M%S"));
        self.record_export(user, &items, format, true, filename)
            .await
    }

    /// Follows a signed link: checks it, then streams the export as the items are now.
    ///
    /// # Errors
    /// A changed or expired link, an export whose items are all gone, database failure.
    #[tracing::instrument(skip_all, fields(export = id))]
    pub async fn download_export(
        &self,
        id: &str,
        expires: i64,
        signature: &str,
    ) -> Result<ExportDownload, LibraryError> {
        self.signer.verify(id, expires, signature, Utc::now())?;
        let record = self
            .store
            .export(id)
            .await?
            .ok_or(LibraryError::ExportNotFound)?;
        let items = self.store.export_items(&record).await?;
        if items.is_empty() {
            return Err(LibraryError::ExportNotFound);
        }
        let format = ExportFormat::parse(&record.format).map_err(LibraryError::InvalidArgument)?;
        if !record.bundle {
            let text = self
                .store
                .text(items[0].clone())
                .await?
                .ok_or(LibraryError::ExportNotFound)?;
            let bytes = export::render(&text, format).map_err(LibraryError::InvalidArgument)?;
            let (sender, body) = mpsc::channel(1);
            let _ = sender.send(Ok(Bytes::from(bytes))).await;
            return Ok(ExportDownload {
                issued_at: record.expires_at - self.link_ttl,
                owner: record.user_id,
                filename: record.filename,
                content_type: format.content_type(),
                body,
            });
        }
        Ok(self.stream_zip(record, items, format))
    }

    /// Streams a zip: a task reads one item at a time and hands it to a blocking thread that
    /// deflates it into the zip, whose bytes go out as they are written (zip's docs: "run it
    /// on a dedicated thread and forward its output through a bounded channel").
    fn stream_zip(
        &self,
        record: ExportRecord,
        items: Vec<StoredItem>,
        format: ExportFormat,
    ) -> ExportDownload {
        let (sender, body) = mpsc::channel::<Result<Bytes, LibraryError>>(4);
        let (file_sender, mut file_receiver) = mpsc::channel::<(String, Vec<u8>)>(1);
        let names = export::unique_names(
            items
                .iter()
                .map(|stored| export::file_name(&stored.item, format))
                .collect(),
        );
        let store = self.store.clone();
        let reader_errors = sender.clone();
        tokio::spawn(async move {
            for (stored, name) in items.into_iter().zip(names) {
                let text = match store.text(stored).await {
                    Ok(Some(text)) => text,
                    Ok(None) => continue,
                    Err(error) => {
                        let _ = reader_errors.send(Err(error.into())).await;
                        return;
                    }
                };
                let Ok(bytes) = export::render(&text, format) else {
                    continue;
                };
                if file_sender.send((name, bytes)).await.is_err() {
                    return;
                }
            }
        });
        tokio::task::spawn_blocking(move || {
            let mut writer = ChannelWriter {
                sender: sender.clone(),
                buffer: Vec::new(),
            };
            let files = std::iter::from_fn(|| file_receiver.blocking_recv());
            let result = export::write_zip(&mut writer, files)
                .map_err(|error| error.to_string())
                .and_then(|()| writer.flush().map_err(|error| error.to_string()));
            if let Err(error) = result {
                tracing::warn!(error, "zip export ended early");
            }
        });
        ExportDownload {
            issued_at: record.expires_at - self.link_ttl,
            owner: record.user_id,
            filename: record.filename,
            content_type: "application/zip",
            body,
        }
    }
}
