//! Writing a whole file the user named (`--output`, `--sarif-file`,
//! `--write-baseline`, `generate`'s outputs, `--fix`), so that what the
//! name points at is what gets the bytes, and nothing else is disturbed.
//!
//! What the name points at decides how:
//! - **Standard output or error** (`/dev/stdout`, `/dev/fd/1`,
//!   `/proc/self/fd/2`, or a symlink to one): the bytes go down the stream
//!   this process already holds, after what it printed there, as `>
//!   /dev/stdout` in a shell would.
//! - **A device, FIFO or socket** (`/dev/null`, `mkfifo out`): written
//!   through, opened as it is. Replacing it would turn `/dev/null` into a
//!   regular file for the whole machine, and leave a FIFO's reader with
//!   nothing.
//! - **A symbolic link** is followed to its target, which is then written
//!   by these same rules: the link stays a link.
//! - **A new regular file**: written to a temporary file in the same folder
//!   and renamed into place, so a reader sees all of it or none, with the
//!   mode a plain create would give it (0666 less the umask).
//! - **An existing regular file**: renamed over the same way, atomically,
//!   and the new file gets the old one's mode, owner and group, so that
//!   `--fix` as root in a teammate's checkout does not give their file to
//!   root. Renaming cannot keep two things, and then the bytes are written
//!   in place instead (truncate and write, not atomic): hard links (a
//!   rename would split them, leaving the other names with the old bytes),
//!   and an owner the writer cannot give the new file back (a user who may
//!   write the file but not chown it: a rename would make it theirs). A
//!   folder the writer cannot create a file in is written in place too.
//! - **A folder**, or a chain of links that does not end: an error.

use std::io::Write as _;
use std::path::{Path, PathBuf};

/// What a name given for output points at.
#[derive(Debug, PartialEq, Eq)]
enum Target {
    /// This process's standard output (1) or error (2).
    Stream(u8),
    /// A device, FIFO or socket, or a file descriptor of this process
    /// (`/dev/fd/N`) other than 1 and 2: opened and written through.
    Through(PathBuf),
    /// A regular file, existing or to be created, after any symlinks.
    Regular(PathBuf),
}

/// How many symlinks are followed before the name is called a loop, as
/// Linux's `ELOOP` limit.
const MAX_LINKS: usize = 40;

/// Write `bytes` to what `path` names, as the module doc says: a regular
/// file atomically keeping its mode, owner and hard links, a device or
/// FIFO or standard output written through, a symlink followed.
pub fn write_named(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    match target(path)? {
        Target::Stream(1) => {
            let mut out = std::io::stdout().lock();
            out.write_all(bytes)?;
            out.flush()
        }
        Target::Stream(_) => {
            let mut err = std::io::stderr().lock();
            err.write_all(bytes)?;
            err.flush()
        }
        Target::Through(path) => {
            let mut file = std::fs::OpenOptions::new().write(true).open(path)?;
            file.write_all(bytes)?;
            file.flush()
        }
        Target::Regular(path) => write_regular(&path, bytes),
    }
}

/// What `path` points at, following symlinks one by one so that a link
/// into `/proc/self/fd` is recognised as the stream it is, and a link to a
/// file that does not exist yet names the file to create.
fn target(path: &Path) -> std::io::Result<Target> {
    let mut current = path.to_path_buf();
    for _ in 0..=MAX_LINKS {
        if let Some(fd) = descriptor(&current) {
            return Ok(match fd {
                1 | 2 => Target::Stream(fd as u8),
                _ => Target::Through(current),
            });
        }
        let meta = match std::fs::symlink_metadata(&current) {
            Ok(meta) => meta,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Target::Regular(current)),
            Err(e) => return Err(e),
        };
        let kind = meta.file_type();
        if kind.is_symlink() {
            let to = std::fs::read_link(&current)?;
            current = match current.parent() {
                Some(dir) if to.is_relative() => dir.join(to),
                _ => to,
            };
            continue;
        }
        if kind.is_dir() {
            return Err(std::io::Error::new(std::io::ErrorKind::IsADirectory, "is a directory, not a file"));
        }
        return Ok(if kind.is_file() { Target::Regular(current) } else { Target::Through(current) });
    }
    Err(std::io::Error::other(format!("more than {MAX_LINKS} symbolic links in a chain: a loop?")))
}

/// The file descriptor `path` names, for `/dev/stdout`, `/dev/stderr`,
/// `/dev/fd/N` and `/proc/self/fd/N` (and `/dev/stdin`, which is no place
/// to write, as 0).
fn descriptor(path: &Path) -> Option<u32> {
    let text = path.to_str()?;
    match text {
        "/dev/stdin" => return Some(0),
        "/dev/stdout" => return Some(1),
        "/dev/stderr" => return Some(2),
        _ => {}
    }
    let number = text.strip_prefix("/dev/fd/").or_else(|| text.strip_prefix("/proc/self/fd/"))?;
    number.parse().ok()
}

/// Write a regular file (existing or new) at `path`, whose symlinks are
/// already followed.
fn write_regular(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let existing = match std::fs::metadata(path) {
        Ok(meta) => Some(meta),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => return Err(e),
    };
    if existing.as_ref().is_some_and(in_place_only) {
        return write_in_place(path, bytes);
    }
    let mut tmp = match temporary_in(dir) {
        Ok(tmp) => tmp,
        // A folder closed to new files, holding a file open to writes.
        Err(e) if existing.is_some() && e.kind() == std::io::ErrorKind::PermissionDenied => {
            return write_in_place(path, bytes);
        }
        Err(e) => return Err(e),
    };
    tmp.write_all(bytes)?;
    if let Some(meta) = &existing {
        tmp.as_file().set_permissions(meta.permissions())?;
        if !keep_owner(tmp.as_file(), meta)? {
            drop(tmp);
            return write_in_place(path, bytes);
        }
    }
    tmp.as_file().sync_all()?;
    tmp.persist(path).map_err(|e| e.error)?;
    Ok(())
}

/// Truncate the file and write it, keeping its inode: its hard links,
/// owner, mode and any ACL stay as they are.
fn write_in_place(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let mut file = std::fs::OpenOptions::new().write(true).truncate(true).open(path)?;
    file.write_all(bytes)?;
    file.sync_all()
}

/// Whether a rename would lose something of the existing file: its other
/// hard links.
#[cfg(unix)]
fn in_place_only(meta: &std::fs::Metadata) -> bool {
    use std::os::unix::fs::MetadataExt as _;
    meta.nlink() > 1
}

#[cfg(not(unix))]
fn in_place_only(_: &std::fs::Metadata) -> bool {
    false
}

/// Give the new file the owner and group of the one it replaces; false
/// when that is not allowed (only root may give a file away).
#[cfg(unix)]
fn keep_owner(new: &std::fs::File, old: &std::fs::Metadata) -> std::io::Result<bool> {
    use std::os::unix::fs::MetadataExt as _;
    let made = new.metadata()?;
    if made.uid() == old.uid() && made.gid() == old.gid() {
        return Ok(true);
    }
    match std::os::unix::fs::fchown(new, Some(old.uid()), Some(old.gid())) {
        Ok(()) => Ok(true),
        Err(e) if e.kind() == std::io::ErrorKind::PermissionDenied => Ok(false),
        Err(e) => Err(e),
    }
}

#[cfg(not(unix))]
fn keep_owner(_: &std::fs::File, _: &std::fs::Metadata) -> std::io::Result<bool> {
    Ok(true)
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
    use std::os::unix::fs::{FileTypeExt as _, MetadataExt as _, PermissionsExt as _};

    fn mode(path: &Path) -> u32 {
        std::fs::metadata(path).map(|m| m.permissions().mode() & 0o7777).unwrap_or(0)
    }

    fn must<T>(r: std::io::Result<T>) -> T {
        r.unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn a_new_file_gets_the_umask_mode_and_a_replaced_one_keeps_its_own() {
        let dir = must(tempfile::tempdir());
        let new = dir.path().join("new.yaml");
        must(write_named(&new, b"a: 1\n"));
        assert_eq!(std::fs::read_to_string(&new).unwrap_or_default(), "a: 1\n");
        let plain = dir.path().join("plain.yaml");
        must(std::fs::write(&plain, "a: 1\n"));
        assert_eq!(mode(&new), mode(&plain), "a new file is created as a plain create would");

        let old = dir.path().join("old.yaml");
        must(std::fs::write(&old, "b: 1\n"));
        must(std::fs::set_permissions(&old, std::fs::Permissions::from_mode(0o640)));
        let inode = must(std::fs::metadata(&old)).ino();
        must(write_named(&old, b"b: 2\n"));
        assert_eq!(std::fs::read_to_string(&old).unwrap_or_default(), "b: 2\n");
        assert_eq!(mode(&old), 0o640, "a replaced file keeps its permissions");
        assert_ne!(must(std::fs::metadata(&old)).ino(), inode, "a lone regular file is replaced by a rename");
    }

    #[test]
    fn names_are_followed_to_what_they_point_at() {
        let dir = must(tempfile::tempdir());
        let file = dir.path().join("file");
        must(std::fs::write(&file, "x"));
        let link = dir.path().join("link");
        must(std::os::unix::fs::symlink("file", &link));
        assert_eq!(must(target(&link)), Target::Regular(dir.path().join("file")));
        let dangling = dir.path().join("dangling");
        must(std::os::unix::fs::symlink("new/../made", &dangling));
        assert_eq!(must(target(&dangling)), Target::Regular(dir.path().join("new/../made")));
        assert_eq!(must(target(Path::new("/dev/stdout"))), Target::Stream(1));
        assert_eq!(must(target(Path::new("/proc/self/fd/2"))), Target::Stream(2));
        assert_eq!(must(target(Path::new("/dev/null"))), Target::Through("/dev/null".into()));
        let to_out = dir.path().join("out");
        must(std::os::unix::fs::symlink("/proc/self/fd/1", &to_out));
        assert_eq!(must(target(&to_out)), Target::Stream(1));
        let looped = dir.path().join("loop");
        must(std::os::unix::fs::symlink("loop", &looped));
        assert!(target(&looped).is_err(), "a link to itself is an error, not a hang");
        assert_eq!(
            target(dir.path()).map_err(|e| e.kind()),
            Err(std::io::ErrorKind::IsADirectory),
            "a folder is refused"
        );
    }

    #[test]
    fn a_hard_linked_file_is_written_in_place_and_keeps_its_links() {
        let dir = must(tempfile::tempdir());
        let one = dir.path().join("one");
        let two = dir.path().join("two");
        must(std::fs::write(&one, "old"));
        must(std::fs::hard_link(&one, &two));
        must(write_named(&one, b"new"));
        assert_eq!(std::fs::read_to_string(&two).unwrap_or_default(), "new", "the other name sees the new bytes");
        assert_eq!(must(std::fs::metadata(&one)).nlink(), 2);
    }

    #[test]
    fn a_fifo_is_written_through_to_its_reader() {
        let dir = must(tempfile::tempdir());
        let fifo = dir.path().join("fifo");
        let made = must(std::process::Command::new("mkfifo").arg(&fifo).status());
        assert!(made.success(), "mkfifo failed: {made}");
        let reader = {
            let fifo = fifo.clone();
            std::thread::spawn(move || std::fs::read_to_string(fifo).unwrap_or_default())
        };
        must(write_named(&fifo, b"through"));
        assert_eq!(reader.join().unwrap_or_default(), "through");
        assert!(must(std::fs::symlink_metadata(&fifo)).file_type().is_fifo(), "the FIFO is still a FIFO");
    }
}
