//! Conversion of transcripts and PDFs to markdown, and the users' templates (docs/design.md §3).
//!
//! It reads transcripts from the blob store under the caller's own prefix, writes converted
//! files to `converted/` (transcripts to `converted/transcripts/`, PDFs with their original to
//! `converted/pdfs/`), and owns the templates table. It never writes Vault items itself: the
//! SPA saves converted files through the library, and a premium reprocess hands the new
//! content to the library over gRPC. PDFs are untrusted input and are converted in `pdf/`,
//! which contains panics and runaway files.

mod config;
mod domain;
mod error;
mod grpc;
mod migration;
mod pdf;
mod peers;
mod service;
mod startup;
mod store;

mod entity;

pub use config::ConversionConfig;
pub use domain::template::DEFAULT_TEMPLATE;
pub use error::ConversionError;
pub use pdf::{ExtractedPdf, OcrTools, PdfConverter, PdfError, PdfLimits, pdf_to_markdown};
pub use peers::{LibraryClient, PeerError, Vault, VaultItem};
pub use startup::{ConversionDependencies, ConversionServer};
