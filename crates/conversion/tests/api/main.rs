//! Integration tests of the conversion service: the real gRPC server in this process, with
//! the real library beside it (the premium reprocess talks to it) and real PDFs made by
//! reportlab and Chromium (`scripts/make-pdf-fixtures.py`).

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly on purpose

mod helpers;
mod pdfs;
mod reprocess;
mod server;
mod templates;
mod transcripts;
mod user_data;
