//! Signing keys kept in the data dir (ADR 0003): made once from the OS's random source, written
//! with mode 0600, and read back on every start, so a self-hosted instance needs no secret
//! configured and its tokens and links survive restarts.

use std::io::Write as _;
use std::os::unix::fs::OpenOptionsExt as _;
use std::path::Path;

/// Bytes of a key this module makes.
pub const KEY_BYTES: usize = 64;
/// Shortest key accepted from a file.
pub const MIN_KEY_BYTES: usize = 32;

/// The key in `path`, made first when the file does not exist.
///
/// # Errors
/// The file cannot be read or written, or holds fewer than [`MIN_KEY_BYTES`] bytes; the message
/// names the file.
pub fn load_or_create(path: &Path) -> Result<Vec<u8>, String> {
    match std::fs::read(path) {
        Ok(key) if key.len() >= MIN_KEY_BYTES => return Ok(key),
        Ok(_) => return Err(format!("signing key {} is too short", path.display())),
        Err(error) if error.kind() != std::io::ErrorKind::NotFound => {
            return Err(format!(
                "cannot read signing key {}: {error}",
                path.display()
            ));
        }
        Err(_) => {}
    }
    let failed =
        |error: std::io::Error| format!("cannot write signing key {}: {error}", path.display());
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).map_err(failed)?;
    }
    let mut key = vec![0u8; KEY_BYTES];
    rand::RngCore::fill_bytes(&mut rand::rngs::OsRng, &mut key);
    match std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(path)
    {
        Ok(mut file) => {
            file.write_all(&key).map_err(failed)?;
            Ok(key)
        }
        // Another process made it first: use theirs.
        Err(error) if error.kind() == std::io::ErrorKind::AlreadyExists => load_or_create(path),
        Err(error) => Err(failed(error)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_is_made_once_private_and_read_back() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("keys").join("k.key");
        let first = load_or_create(&path).unwrap();
        assert_eq!(first.len(), KEY_BYTES);
        assert_eq!(load_or_create(&path).unwrap(), first);
        use std::os::unix::fs::PermissionsExt as _;
        let mode = std::fs::metadata(&path).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
        std::fs::write(&path, b"short").unwrap();
        assert!(load_or_create(&path).unwrap_err().contains("too short"));
    }
}
