//! Texts that stand in for files on disk: the fixed texts of `--fix`'s
//! passes, an editor's unsaved buffers.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::{Source, SourceFile, Unreadable, read};

/// Texts that stand in for files on disk, by path: the fixed texts of
/// `lint --fix`'s passes, linted again before anything is written, and
/// the unsaved buffers of `sqsguard server`'s editor. Empty in every other
/// run.
#[derive(Clone, Debug, Default)]
pub struct Overlay(Arc<std::collections::HashMap<PathBuf, String>>);

impl Overlay {
    /// The texts by path; a path is looked up as [`lexical`] makes it, so
    /// `src/../app.py` (a handler found from a template's folder) finds
    /// the editor's `app.py`.
    pub fn new(texts: std::collections::HashMap<PathBuf, String>) -> Self {
        Overlay(Arc::new(texts.into_iter().map(|(path, text)| (lexical(&path), text)).collect()))
    }

    /// The file's text: the overlay's, else what [`read`] finds on disk.
    pub fn read(&self, path: &Path) -> Result<Source, Unreadable> {
        if self.0.is_empty() {
            return read(path);
        }
        match self.0.get(&lexical(path)) {
            Some(text) => Ok(SourceFile::new(path.to_path_buf(), text.clone())),
            None => read(path),
        }
    }

    /// Whether a text stands in for `path`.
    pub fn holds(&self, path: &Path) -> bool {
        !self.0.is_empty() && self.0.contains_key(&lexical(path))
    }
}

/// `path` with its `.` components dropped and each `..` taking away the
/// component before it (when there is one that is not itself `..`),
/// without asking the file system: the same file's names made equal.
pub fn lexical(path: &Path) -> PathBuf {
    use std::path::Component;
    let mut out: Vec<Component<'_>> = Vec::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => match out.last() {
                Some(Component::Normal(_)) => {
                    out.pop();
                }
                Some(Component::RootDir | Component::Prefix(_)) => {}
                _ => out.push(c),
            },
            other => out.push(other),
        }
    }
    if out.is_empty() {
        return PathBuf::from(".");
    }
    out.iter().collect()
}
