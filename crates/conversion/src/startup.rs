//! Building and running the conversion target.

use std::sync::Arc;

use scribevault_blob::BlobStore;
use scribevault_proto::conversion::v1::conversion_service_server::ConversionServiceServer;
use sea_orm::DatabaseConnection;

use crate::config::ConversionConfig;
use crate::error::ConversionError;
use crate::grpc::ConversionGrpc;
use crate::pdf::PdfConverter;
use crate::peers::Vault;
use crate::service::Conversion;
use crate::store::ConversionStore;

/// Largest gRPC message: a PDF arrives in 256 KiB chunks, but a converted document's markdown
/// is answered whole.
const MAX_MESSAGE_BYTES: usize = 32 * 1024 * 1024;

/// What conversion talks to besides its database.
pub struct ConversionDependencies {
    /// Transcripts are read from here; converted files and kept PDFs are written here.
    pub blobs: Arc<dyn BlobStore>,
    /// The Vault, whose PDF items a premium reprocess converts again.
    pub vault: Arc<dyn Vault>,
}

/// The conversion target.
pub struct ConversionServer {
    conversion: Conversion,
}

impl ConversionServer {
    /// Migrates conversion's tables.
    ///
    /// # Errors
    /// Migration failure.
    pub async fn build(
        db: DatabaseConnection,
        dependencies: ConversionDependencies,
        config: ConversionConfig,
    ) -> Result<Self, ConversionError> {
        let store = ConversionStore::open(db).await?;
        let pdf = PdfConverter::new(config.pdf, config.ocr, config.pdf_parallel);
        Ok(Self {
            conversion: Conversion::new(store, dependencies.blobs, pdf, dependencies.vault),
        })
    }

    /// Serves gRPC on `listener` until `shutdown` resolves.
    ///
    /// # Errors
    /// The gRPC transport fails.
    pub async fn run(
        self,
        listener: tokio::net::TcpListener,
        shutdown: impl std::future::Future<Output = ()> + Send,
    ) -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
        let grpc = ConversionServiceServer::new(ConversionGrpc::new(self.conversion))
            .max_decoding_message_size(MAX_MESSAGE_BYTES)
            .max_encoding_message_size(MAX_MESSAGE_BYTES);
        scribevault_proto::server::serve(listener, grpc, shutdown).await
    }
}
