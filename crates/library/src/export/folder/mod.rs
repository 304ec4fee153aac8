//! The Vault as a folder of notes for Obsidian (`scribevault export --user … --to <dir>`),
//! kept up to date by running the export again (a cron job, a Kubernetes CronJob).
//!
//! - **One note per item**, `<slug of the title>-<last 8 hex digits of the id>.md`: YAML front
//!   matter (`note.rs`) and the item's text as the zip export has it. The name is fixed at
//!   the item's first export: Obsidian links name files, so a name that followed the title
//!   would break every `[[link]]` to the note on each rename; the current title is in
//!   `title` and `aliases` instead (so `[[Current title]]` resolves too).
//! - **Attachments beside it**, in `attachments/`: subtitles and timed segments of audio
//!   items, the original PDF of converted ones; the note links to each.
//! - **Only what changed is written.** The manifest (`manifest.rs`) records each file's
//!   SHA-256; a rerun renders every item again, and a file whose bytes are the same is not
//!   touched, so its modification time and a sync client's upload are kept.
//! - **The user's files are never touched.** A file is the export's to replace or remove only
//!   while the manifest names it and it still holds the bytes the export wrote: a note the
//!   user edited in Obsidian is kept (and reported) even when its item changes or is deleted,
//!   unless the run is told to overwrite local edits; a file the manifest does not name is
//!   never written over. Writes go through a temporary file and a rename.

mod disk;
mod manifest;
mod note;

use std::path::PathBuf;

pub use disk::{ExportFolder, PlannedContent, PlannedFile, hex_of};
pub use manifest::MANIFEST_FILE;
pub use note::{
    AttachmentKind, NoteFrontMatter, front_matter, note_path, original_pdf_path, render_note,
    text_attachments,
};

/// Why a folder export failed; each names what to fix.
#[derive(Debug, thiserror::Error)]
pub enum FolderExportError {
    /// The folder cannot be created or written (permissions, a read-only mount).
    #[error("cannot write to {}: {source}", dir.display())]
    Unwritable {
        dir: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// The path names a file, not a folder.
    #[error("{} is not a directory", .0.display())]
    NotADirectory(PathBuf),
    /// Another export into the same folder is running.
    #[error("another export into {} is running (its lock is held)", .0.display())]
    Busy(PathBuf),
    /// The folder holds the export of another account; exporting over it would delete that
    /// account's notes as items that are gone.
    #[error("{} holds the export of another account: export each account to its own folder", .0.display())]
    AnotherAccountsFolder(PathBuf),
    /// The manifest cannot be read; nothing was changed.
    #[error("{} is damaged ({reason}): move it away to export afresh", path.display())]
    DamagedManifest { path: PathBuf, reason: String },
    /// A file of the folder could not be read, written or removed.
    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// A note's front matter could not be written as YAML.
    #[error("front matter of item {id}: {source}")]
    FrontMatter {
        id: String,
        #[source]
        source: serde_norway::Error,
    },
    /// The database failed.
    #[error("database: {0}")]
    Database(#[from] sea_orm::DbErr),
    /// The blob store failed (an original PDF could not be read).
    #[error("blob store: {0}")]
    Blob(#[from] scribevault_blob::BlobError),
}

/// What one run did. Files are counted (a note and each attachment), items once each.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FolderExportSummary {
    /// Items of the Vault exported.
    pub items: u64,
    /// Files written (new or changed).
    pub written: u64,
    /// Files left as they were, their bytes already right.
    pub unchanged: u64,
    /// Files of deleted items (or attachments an item no longer has) removed.
    pub removed: u64,
    /// Files left alone because they were edited in the folder (or are not the export's),
    /// by path in the folder.
    pub kept_local_edits: Vec<String>,
}
