//! The folder on disk: the lock, the manifest, and every write, replacement and removal, each
//! decided by the rule in `mod.rs`. Blocking file system calls: the service runs them on
//! blocking threads.

use std::collections::{BTreeMap, HashSet};
use std::fs::{self, File};
use std::io::{self, Read as _, Write as _};
use std::path::{Path, PathBuf};

use sha2::{Digest as _, Sha256};

use super::manifest::{ItemFiles, MANIFEST_FILE, Manifest, WrittenFile};
use super::note::{ATTACHMENTS_DIR, SHORT_ID_CHARS, id_part, note_path, slug};
use super::{FolderExportError, FolderExportSummary};

/// The lock file beside the manifest: two runs into one folder (a cron job that overlaps
/// itself) would each take the other's new files for the user's.
const LOCK_FILE: &str = ".scribevault-export.lock";

/// Prefix of the temporary files writes go through: hidden, so Obsidian never shows a
/// half-written note, and recognisable if a killed run leaves one behind.
const TEMP_PREFIX: &str = ".scribevault-";

/// The bytes a file of the export should have.
pub enum PlannedContent {
    /// Made in memory (notes, subtitles, segments).
    Bytes(Vec<u8>),
    /// Already streamed into a temporary file in the folder (an original PDF).
    Staged {
        file: tempfile::NamedTempFile,
        sha256: String,
        size: u64,
    },
    /// Known to be what the folder already has (see [`ExportFolder::is_current`]).
    Current,
}

/// One file an item should have.
pub struct PlannedFile {
    /// Path in the folder (made by `note.rs`, so always an export path).
    pub path: String,
    pub content: PlannedContent,
}

/// SHA-256 of `bytes` in hex.
#[must_use]
pub fn sha256_hex(bytes: &[u8]) -> String {
    hex_of(&Sha256::digest(bytes))
}

/// Lowercase hex of a digest.
#[must_use]
pub fn hex_of(digest: &[u8]) -> String {
    digest.iter().map(|byte| format!("{byte:02x}")).collect()
}

/// What is at a path of the folder.
enum OnDisk {
    Missing,
    /// A regular file of this size.
    File(u64),
    /// A directory, a symlink or anything else: never the export's, never touched.
    Other,
}

fn on_disk(path: &Path) -> io::Result<OnDisk> {
    match fs::symlink_metadata(path) {
        Ok(metadata) if metadata.file_type().is_file() => Ok(OnDisk::File(metadata.len())),
        Ok(_) => Ok(OnDisk::Other),
        Err(error) if error.kind() == io::ErrorKind::NotFound => Ok(OnDisk::Missing),
        Err(error) => Err(error),
    }
}

fn sha256_of_file(path: &Path) -> io::Result<String> {
    let mut file = File::open(path)?;
    let mut hasher = Sha256::new();
    let mut buffer = vec![0_u8; 64 * 1024];
    loop {
        let read = file.read(&mut buffer)?;
        if read == 0 {
            break;
        }
        hasher.update(&buffer[..read]);
    }
    Ok(hex_of(&hasher.finalize()))
}

/// The export folder of one run: locked for the run, with the manifest of the last one.
pub struct ExportFolder {
    dir: PathBuf,
    /// Held (and locked) until the run ends.
    _lock: File,
    user_id: String,
    overwrite_local_edits: bool,
    /// What the last run left, less the items this run has handled so far.
    previous: BTreeMap<String, ItemFiles>,
    /// What this run has written or confirmed.
    current: BTreeMap<String, ItemFiles>,
    /// Every stem taken, lowercased (some file systems ignore case).
    taken_stems: HashSet<String>,
    summary: FolderExportSummary,
}

impl ExportFolder {
    /// Creates `dir` if needed, locks it and reads its manifest.
    ///
    /// # Errors
    /// The folder cannot be made or written, another run holds it, or its manifest is damaged
    /// or belongs to another account.
    pub fn open(
        dir: &Path,
        user_id: &str,
        overwrite_local_edits: bool,
    ) -> Result<Self, FolderExportError> {
        let unwritable = |source: io::Error| FolderExportError::Unwritable {
            dir: dir.to_owned(),
            source,
        };
        match fs::metadata(dir) {
            Ok(metadata) if !metadata.is_dir() => {
                return Err(FolderExportError::NotADirectory(dir.to_owned()));
            }
            Ok(_) => {}
            Err(_) => fs::create_dir_all(dir).map_err(unwritable)?,
        }
        let lock = fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(dir.join(LOCK_FILE))
            .map_err(unwritable)?;
        match lock.try_lock() {
            Ok(()) => {}
            Err(fs::TryLockError::WouldBlock) => {
                return Err(FolderExportError::Busy(dir.to_owned()));
            }
            Err(fs::TryLockError::Error(source)) => return Err(unwritable(source)),
        }
        let manifest_path = dir.join(MANIFEST_FILE);
        let manifest = match fs::read(&manifest_path) {
            Ok(bytes) => {
                Manifest::parse(&bytes).map_err(|reason| FolderExportError::DamagedManifest {
                    path: manifest_path.clone(),
                    reason,
                })?
            }
            Err(error) if error.kind() == io::ErrorKind::NotFound => Manifest::new(user_id),
            Err(source) => {
                return Err(FolderExportError::Io {
                    path: manifest_path,
                    source,
                });
            }
        };
        if manifest.user_id != user_id {
            return Err(FolderExportError::AnotherAccountsFolder(dir.to_owned()));
        }
        let taken_stems = manifest
            .items
            .values()
            .map(|item| item.stem.to_lowercase())
            .collect();
        Ok(Self {
            dir: dir.to_owned(),
            _lock: lock,
            user_id: user_id.to_owned(),
            overwrite_local_edits,
            previous: manifest.items,
            current: BTreeMap::new(),
            taken_stems,
            summary: FolderExportSummary::default(),
        })
    }

    /// The folder.
    #[must_use]
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The stem of `item_id`'s files: the one it was first exported with, so a renamed item
    /// keeps its file and every link to it (its new title goes to `title` and `aliases`). A new
    /// item gets `<slug of title>-<last 8 hex digits of its id>`, or the whole id when that is taken
    /// (by another item or by a file of the user's).
    pub fn stem_for(&mut self, item_id: &str, title: &str) -> String {
        if let Some(item) = self
            .previous
            .get(item_id)
            .or_else(|| self.current.get(item_id))
        {
            return item.stem.clone();
        }
        let slug = slug(title);
        let candidates = [
            format!("{slug}-{}", id_part(item_id, SHORT_ID_CHARS)),
            format!("{slug}-{}", id_part(item_id, usize::MAX)),
        ];
        let mut chosen = None;
        for candidate in &candidates {
            // One stat of a name: far below the time an async task may block.
            let free_on_disk = matches!(
                on_disk(&self.dir.join(note_path(candidate))),
                Ok(OnDisk::Missing)
            );
            if free_on_disk && !self.taken_stems.contains(&candidate.to_lowercase()) {
                chosen = Some(candidate.clone());
                break;
            }
        }
        let stem = chosen.unwrap_or_else(|| {
            let mut counter = 2;
            loop {
                let candidate = format!("{}-{counter}", candidates[1]);
                if !self.taken_stems.contains(&candidate.to_lowercase()) {
                    break candidate;
                }
                counter += 1;
            }
        });
        self.taken_stems.insert(stem.to_lowercase());
        stem
    }

    /// Whether the folder already holds `path` as the last run wrote it with `size` bytes
    /// (for a file too large to fetch on every run, which never changes under one name).
    #[must_use]
    pub fn is_current(&self, item_id: &str, path: &str, size: u64) -> bool {
        let recorded = self
            .previous
            .get(item_id)
            .and_then(|item| item.files.get(path));
        recorded.is_some_and(|written| written.size == size)
            && matches!(on_disk(&self.dir.join(path)), Ok(OnDisk::File(on_disk)) if on_disk == size)
    }

    /// A temporary file in the folder, for content streamed in before it is known whether it
    /// will be kept.
    ///
    /// # Errors
    /// The folder refused the file.
    pub fn staging_file(dir: &Path) -> Result<tempfile::NamedTempFile, FolderExportError> {
        tempfile::Builder::new()
            .prefix(TEMP_PREFIX)
            .tempfile_in(dir)
            .map_err(|source| FolderExportError::Io {
                path: dir.to_owned(),
                source,
            })
    }

    /// Brings `item_id`'s files in line with `files`: each is written, replaced or left as it
    /// is, and files the item had before and no longer has are removed.
    ///
    /// # Errors
    /// A write, rename or removal failed.
    pub fn sync_item(
        &mut self,
        item_id: &str,
        stem: String,
        files: Vec<PlannedFile>,
    ) -> Result<(), FolderExportError> {
        let before = self.previous.remove(item_id).unwrap_or_default();
        let mut now = ItemFiles {
            stem,
            files: BTreeMap::new(),
        };
        for planned in files {
            let recorded = before.files.get(&planned.path);
            if let Some(written) = self.sync_file(&planned.path, planned.content, recorded)? {
                now.files.insert(planned.path, written);
            }
        }
        for (path, written) in &before.files {
            if !now.files.contains_key(path) {
                self.remove_if_ours(path, written)?;
            }
        }
        self.summary.items += 1;
        self.current.insert(item_id.to_owned(), now);
        Ok(())
    }

    /// One file; returns what the manifest records for it (`None`: not the export's).
    fn sync_file(
        &mut self,
        path: &str,
        content: PlannedContent,
        recorded: Option<&WrittenFile>,
    ) -> Result<Option<WrittenFile>, FolderExportError> {
        let target = self.dir.join(path);
        let io_error = |source| FolderExportError::Io {
            path: target.clone(),
            source,
        };
        let disk = on_disk(&target).map_err(io_error)?;
        let (sha256, size) = match &content {
            PlannedContent::Current => {
                self.summary.unchanged += 1;
                return Ok(recorded.cloned());
            }
            PlannedContent::Bytes(bytes) => (sha256_hex(bytes), bytes.len() as u64),
            PlannedContent::Staged { sha256, size, .. } => (sha256.clone(), *size),
        };
        let wanted = WrittenFile { sha256, size };
        let write_it = match disk {
            OnDisk::Other => false,
            OnDisk::Missing => true,
            OnDisk::File(disk_size) => {
                if recorded == Some(&wanted) && disk_size == size {
                    // Same bytes planned as last time and the file untouched in size: the
                    // common case of a rerun, decided without reading the file.
                    self.summary.unchanged += 1;
                    return Ok(Some(wanted));
                }
                let disk_sha256 = sha256_of_file(&target).map_err(io_error)?;
                if disk_sha256 == wanted.sha256 {
                    self.summary.unchanged += 1;
                    return Ok(Some(wanted));
                }
                self.overwrite_local_edits
                    || recorded.is_some_and(|written| written.sha256 == disk_sha256)
            }
        };
        if !write_it {
            self.summary.kept_local_edits.push(path.to_owned());
            return Ok(recorded.cloned());
        }
        self.write_atomically(path, content)?;
        self.summary.written += 1;
        Ok(Some(wanted))
    }

    /// Writes through a temporary file in the same folder and a rename, so a reader (Obsidian,
    /// a sync client) sees the old file or the new one, never half of one.
    fn write_atomically(
        &self,
        path: &str,
        content: PlannedContent,
    ) -> Result<(), FolderExportError> {
        let target = self.dir.join(path);
        let parent = target.parent().unwrap_or(&self.dir).to_owned();
        if parent != self.dir {
            self.attachments_dir()?;
        }
        let io_error = |source| FolderExportError::Io {
            path: target.clone(),
            source,
        };
        let staged = match content {
            PlannedContent::Bytes(bytes) => {
                let mut file = Self::staging_file(&parent)?;
                file.write_all(&bytes).map_err(io_error)?;
                file
            }
            PlannedContent::Staged { file, .. } => file,
            PlannedContent::Current => return Ok(()),
        };
        staged.as_file().sync_all().map_err(io_error)?;
        staged
            .persist(&target)
            .map_err(|error| io_error(error.error))?;
        Ok(())
    }

    /// The attachments folder, made when first needed; a symlink there is refused, since
    /// writing through it would write outside the folder.
    fn attachments_dir(&self) -> Result<PathBuf, FolderExportError> {
        let path = self.dir.join(ATTACHMENTS_DIR);
        match fs::symlink_metadata(&path) {
            Ok(metadata) if metadata.file_type().is_dir() => Ok(path),
            Ok(_) => Err(FolderExportError::Io {
                path,
                source: io::Error::other("is not a directory (a symlink or a file is refused)"),
            }),
            Err(error) if error.kind() == io::ErrorKind::NotFound => {
                fs::create_dir(&path).map_err(|source| FolderExportError::Io {
                    path: path.clone(),
                    source,
                })?;
                Ok(path)
            }
            Err(source) => Err(FolderExportError::Io { path, source }),
        }
    }

    /// Removes a file the export wrote, unless it was changed since (then it is the user's
    /// now and stays, forgotten by the manifest).
    fn remove_if_ours(
        &mut self,
        path: &str,
        written: &WrittenFile,
    ) -> Result<(), FolderExportError> {
        let target = self.dir.join(path);
        let io_error = |source| FolderExportError::Io {
            path: target.clone(),
            source,
        };
        match on_disk(&target).map_err(io_error)? {
            OnDisk::Missing => {}
            OnDisk::Other => self.summary.kept_local_edits.push(path.to_owned()),
            OnDisk::File(size) => {
                if size == written.size
                    && sha256_of_file(&target).map_err(io_error)? == written.sha256
                {
                    fs::remove_file(&target).map_err(io_error)?;
                    self.summary.removed += 1;
                } else {
                    self.summary.kept_local_edits.push(path.to_owned());
                }
            }
        }
        Ok(())
    }

    fn manifest(&self) -> Manifest {
        let mut manifest = Manifest::new(&self.user_id);
        manifest.items = self.previous.clone();
        manifest.items.extend(
            self.current
                .iter()
                .map(|(id, files)| (id.clone(), files.clone())),
        );
        manifest
    }

    /// Saves the manifest as it stands, so a run that dies later still knows what it wrote.
    ///
    /// # Errors
    /// The manifest could not be written.
    pub fn checkpoint(&self) -> Result<(), FolderExportError> {
        self.write_atomically(
            MANIFEST_FILE,
            PlannedContent::Bytes(self.manifest().to_bytes()),
        )
    }

    /// Removes the files of every item this run did not see (deleted from the Vault), saves
    /// the manifest and says what the run did.
    ///
    /// # Errors
    /// A removal or the manifest's write failed.
    pub fn finish(mut self) -> Result<FolderExportSummary, FolderExportError> {
        let gone = std::mem::take(&mut self.previous);
        for item in gone.values() {
            for (path, written) in &item.files {
                self.remove_if_ours(path, written)?;
            }
        }
        self.checkpoint()?;
        if let Ok(entries) = fs::read_dir(self.dir.join(ATTACHMENTS_DIR))
            && entries.count() == 0
        {
            let _ = fs::remove_dir(self.dir.join(ATTACHMENTS_DIR));
        }
        Ok(self.summary)
    }
}
