//! Writing a whole file atomically: the bytes go to a temporary file in
//! the same folder, which is then renamed over the path, so a reader sees
//! the old file or the new one, never half of either.
//!
//! A temporary file is created private (mode 0600), which is right for a
//! secret but wrong for a template, a baseline or a fixed file: a teammate
//! or a CI user could no longer read it. So the file written gets the mode
//! a plain create would give it (0666 less the umask) when it is new, and
//! keeps the permissions it had when it replaces one.

use std::io::Write as _;
use std::path::Path;

/// Write `bytes` to `path` atomically, with the permissions a plain write
/// would leave: a new file's from the umask, an existing file's its own.
/// A symbolic link at `path` is replaced by the file (the caller that must
/// not do so checks first), and keeps its target's permissions.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    // The permissions of the file replaced, if there is one.
    let existing = std::fs::metadata(path).ok().filter(|m| m.is_file()).map(|m| m.permissions());
    let mut tmp = temporary_in(dir)?;
    tmp.write_all(bytes)?;
    if let Some(permissions) = existing {
        tmp.as_file().set_permissions(permissions)?;
    }
    tmp.as_file().sync_all()?;
    tmp.persist(path).map_err(|e| e.error)?;
    Ok(())
}

/// A new temporary file in `dir`, created as a plain create would be:
/// 0666 less the umask (open(2) applies it) on Unix.
#[cfg(unix)]
fn temporary_in(dir: &Path) -> std::io::Result<tempfile::NamedTempFile> {
    use std::os::unix::fs::PermissionsExt as _;
    tempfile::Builder::new().permissions(std::fs::Permissions::from_mode(0o666)).tempfile_in(dir)
}

#[cfg(not(unix))]
fn temporary_in(dir: &Path) -> std::io::Result<tempfile::NamedTempFile> {
    tempfile::Builder::new().tempfile_in(dir)
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt as _;

    fn mode(path: &Path) -> u32 {
        std::fs::metadata(path).map(|m| m.permissions().mode() & 0o7777).unwrap_or(0)
    }

    #[test]
    fn a_new_file_gets_the_umask_mode_and_a_replaced_one_keeps_its_own() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let new = dir.path().join("new.yaml");
        write_atomic(&new, b"a: 1\n").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(std::fs::read_to_string(&new).unwrap_or_default(), "a: 1\n");
        let plain = dir.path().join("plain.yaml");
        std::fs::write(&plain, "a: 1\n").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(mode(&new), mode(&plain), "a new file is created as a plain create would");

        let old = dir.path().join("old.yaml");
        std::fs::write(&old, "b: 1\n").unwrap_or_else(|e| panic!("{e}"));
        std::fs::set_permissions(&old, std::fs::Permissions::from_mode(0o640)).unwrap_or_else(|e| panic!("{e}"));
        write_atomic(&old, b"b: 2\n").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(std::fs::read_to_string(&old).unwrap_or_default(), "b: 2\n");
        assert_eq!(mode(&old), 0o640, "a replaced file keeps its permissions");
    }
}
