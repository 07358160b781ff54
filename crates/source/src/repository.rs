//! Where code may be read from: the repository a template sits in, and
//! whether a path stays inside it. Code outside the repository is never
//! read (a handler path of `../../` is a note, not a file opened).

use std::path::{Component, Path, PathBuf};

/// A path as notes print it: the current folder (a service linted from
/// inside it) as `.`, never an empty word.
pub fn shown(path: &Path) -> String {
    if path.as_os_str().is_empty() { ".".to_string() } else { crate::display_path(path) }
}

/// `path`, when it stays inside `root` (after following symlinks, when
/// it exists); a reason when it leaves it.
pub fn inside(path: &Path, root: &Path) -> Result<PathBuf, String> {
    let leaves = || format!("{} is outside the repository ({}): it is not read", shown(path), shown(root));
    match path.canonicalize() {
        Ok(real) => {
            if real.starts_with(root) {
                Ok(path.to_path_buf())
            } else {
                Err(leaves())
            }
        }
        Err(e) if e.raw_os_error() == Some(40) => Err(format!("{} is a symlink loop", shown(path))),
        // Not there (yet): judge the path as written.
        Err(_) => {
            let absolute = if path.is_absolute() { path.to_path_buf() } else { cwd().join(path) };
            if normalize(&absolute).starts_with(root) { Ok(path.to_path_buf()) } else { Err(leaves()) }
        }
    }
}

fn cwd() -> PathBuf {
    std::env::current_dir().unwrap_or_default()
}

/// `a/b/../c` as `a/c`, without touching the disk.
pub fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

/// The repository `dir` is in: the nearest folder above it with a `.git`;
/// outside a repository, `dir` itself. Code outside it is never read.
pub fn repository_of(dir: &Path) -> PathBuf {
    let start = dir.canonicalize().unwrap_or_else(|_| cwd().join(dir));
    let mut at = Some(start.as_path());
    while let Some(d) = at {
        if d.join(".git").exists() {
            return d.to_path_buf();
        }
        at = d.parent();
    }
    start
}
