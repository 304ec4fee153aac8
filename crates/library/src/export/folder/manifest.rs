//! The manifest: what the last run wrote into the folder, kept in the folder itself.
//!
//! It is the export's memory and its only claim on the folder: a file is the export's to
//! replace or delete only when the manifest names it and the file still has the bytes the
//! export wrote. Everything else (the user's own notes, an exported note the user edited) is
//! left alone.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::note::ATTACHMENTS_DIR;

/// The manifest's file name in the folder (hidden, so Obsidian does not list it).
pub const MANIFEST_FILE: &str = ".scribevault-export.json";

/// The manifest's format; a folder written by a later format is refused, not misread.
const FORMAT: u32 = 1;

/// One file the export wrote.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WrittenFile {
    /// SHA-256 of the bytes written, in hex.
    pub sha256: String,
    pub size: u64,
}

/// The files of one item.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ItemFiles {
    /// The name the item's files share, fixed at its first export.
    pub stem: String,
    /// Path in the folder (`<stem>.md`, `attachments/<stem>.srt`, …) → what was written.
    pub files: BTreeMap<String, WrittenFile>,
}

/// The whole manifest.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Manifest {
    pub format: u32,
    /// The account whose Vault the folder holds: a run for another account is refused, so it
    /// can never delete the first account's notes as "items that are gone".
    pub user_id: String,
    /// Item id → its files.
    pub items: BTreeMap<String, ItemFiles>,
}

impl Manifest {
    /// An empty manifest for `user_id`.
    #[must_use]
    pub fn new(user_id: &str) -> Self {
        Self {
            format: FORMAT,
            user_id: user_id.to_owned(),
            items: BTreeMap::new(),
        }
    }

    /// Reads a manifest and checks every name in it, since the folder is writable by whoever
    /// syncs it: a name that could leave the folder makes the whole manifest unusable.
    ///
    /// # Errors
    /// Not JSON of this shape, a later format, or a name that is not one the export makes.
    pub fn parse(bytes: &[u8]) -> Result<Self, String> {
        let manifest: Self = serde_json::from_slice(bytes).map_err(|error| error.to_string())?;
        if manifest.format != FORMAT {
            return Err(format!(
                "format {} (this version reads format {FORMAT})",
                manifest.format
            ));
        }
        for (id, item) in &manifest.items {
            if !is_safe_name(&item.stem) {
                return Err(format!("item {id:?} has the unsafe name {:?}", item.stem));
            }
            if let Some(path) = item.files.keys().find(|path| !is_export_path(path)) {
                return Err(format!("item {id:?} names the unsafe path {path:?}"));
            }
        }
        Ok(manifest)
    }

    /// The manifest as written to disk.
    #[must_use]
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut bytes = serde_json::to_vec_pretty(self).unwrap_or_default();
        bytes.push(b'\n');
        bytes
    }
}

/// A file name the export could have made: letters, digits, `-`, `_` and `.`, not hidden, no
/// `..`, at most 200 bytes.
#[must_use]
pub fn is_safe_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 200
        && !name.starts_with('.')
        && !name.contains("..")
        && name
            .chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | '.'))
}

/// A path the export could have made: a name at the top, or a name in the attachments folder.
#[must_use]
pub fn is_export_path(path: &str) -> bool {
    match path.split_once('/') {
        None => is_safe_name(path),
        Some((folder, name)) => folder == ATTACHMENTS_DIR && is_safe_name(name),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_names_the_export_makes_are_accepted() {
        assert!(is_export_path("soil-0193a1b2.md"));
        assert!(is_export_path("attachments/soil-0193a1b2.segments.json"));
        assert!(is_export_path("über-brot-0193a1b2.md"));
        for bad in [
            "../notes.md",
            "attachments/../../x",
            "/etc/passwd",
            ".obsidian/app.json",
            "other/x.md",
            "attachments/sub/x.md",
            "",
            "a\\b.md",
        ] {
            assert!(!is_export_path(bad), "{bad}");
        }
    }

    #[test]
    fn a_manifest_naming_a_path_outside_the_folder_is_refused() {
        let mut manifest = Manifest::new("u");
        manifest.items.insert(
            "i".into(),
            ItemFiles {
                stem: "a".into(),
                files: BTreeMap::from([(
                    "../../home/u/.bashrc".to_owned(),
                    WrittenFile {
                        sha256: String::new(),
                        size: 0,
                    },
                )]),
            },
        );
        let error = Manifest::parse(&manifest.to_bytes()).unwrap_err();
        assert!(error.contains("unsafe path"), "{error}");
        let good = Manifest::new("u");
        assert_eq!(Manifest::parse(&good.to_bytes()).unwrap(), good);
    }
}
