//! Which `.sqsguard.yaml` governs a file: the nearest one in the file's
//! folder or above it, up to the repository's root (the folder holding
//! `.git`, which a worktree or submodule has as a file) or else the
//! filesystem's root. So each project of a monorepo keeps its own
//! settings, whichever folder sqsguard runs from and however its paths
//! are typed.
//!
//! [`Nearest`] resolves each folder once (a walk of ten thousand files in
//! a hundred folders looks at a hundred folders, and at each folder above
//! them once) and reads each config once.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::{Config, FILE_NAME, load};
use sqsguard_finding::error::Error;
use sqsguard_rules::Filter;

/// The config file that governs `folder`: `.sqsguard.yaml` there or in
/// the nearest folder above, not above the repository's root. `is_config`
/// says whether a config file is there (on disk, or an editor's unsaved
/// buffer).
pub fn nearest(folder: &Path, is_config: impl Fn(&Path) -> bool) -> Option<PathBuf> {
    for dir in folder.ancestors() {
        let file = dir.join(FILE_NAME);
        if is_config(&file) {
            return Some(file);
        }
        if is_repository_root(dir) {
            return None;
        }
    }
    None
}

/// A folder with `.git` in it (a folder, or a worktree's or submodule's
/// file): the configs above it belong to something else.
fn is_repository_root(dir: &Path) -> bool {
    dir.join(".git").exists()
}

/// The configs of a run, resolved folder by folder, each read once, with
/// the command line's `--select` and `--ignore` over every one of them.
#[derive(Debug)]
pub struct Nearest {
    overrides: Filter,
    /// Each folder as given, canonical.
    canonical: HashMap<PathBuf, PathBuf>,
    /// Each canonical folder met (or passed on the way up): the config
    /// file that governs it.
    governing: HashMap<PathBuf, Option<PathBuf>>,
    /// Each config file read.
    read: HashMap<PathBuf, Arc<Config>>,
    /// The defaults, for the files no config governs.
    defaults: Arc<Config>,
}

impl Nearest {
    pub(crate) fn new(overrides: &Filter) -> Self {
        Nearest {
            overrides: overrides.clone(),
            canonical: HashMap::new(),
            governing: HashMap::new(),
            read: HashMap::new(),
            defaults: Arc::new(Config::default().overridden(overrides)),
        }
    }

    /// The config governing the file (or module folder's file) at `path`.
    /// A config that cannot be read or is invalid is the error, located.
    pub(crate) fn of(&mut self, path: &Path) -> Result<Arc<Config>, Error> {
        let folder = match path.parent() {
            Some(d) if !d.as_os_str().is_empty() => d,
            _ => Path::new("."),
        };
        let dir = match self.canonical.get(folder) {
            Some(dir) => dir.clone(),
            None => {
                let dir = absolute(folder);
                self.canonical.insert(folder.to_path_buf(), dir.clone());
                dir
            }
        };
        let Some(file) = self.governing_file(&dir) else { return Ok(Arc::clone(&self.defaults)) };
        if let Some(config) = self.read.get(&file) {
            return Ok(Arc::clone(config));
        }
        let config = Arc::new(load(&file)?.overridden(&self.overrides));
        self.read.insert(file, Arc::clone(&config));
        Ok(config)
    }

    /// The config file nearest the canonical folder `dir`, remembered for
    /// it and for every folder passed on the way up.
    fn governing_file(&mut self, dir: &Path) -> Option<PathBuf> {
        let mut passed = Vec::new();
        let mut found = None;
        for d in dir.ancestors() {
            if let Some(known) = self.governing.get(d) {
                found = known.clone();
                break;
            }
            passed.push(d.to_path_buf());
            let file = d.join(FILE_NAME);
            if file.is_file() {
                found = Some(file);
                break;
            }
            if is_repository_root(d) {
                break;
            }
        }
        for d in passed {
            self.governing.insert(d, found.clone());
        }
        found
    }
}

/// The folder canonical, or when it cannot be (it does not exist: a
/// document that is only in an editor) absolute and without `.` or `..`.
fn absolute(folder: &Path) -> PathBuf {
    folder.canonicalize().unwrap_or_else(|_| {
        let cwd = std::env::current_dir().unwrap_or_default();
        sqsguard_source::lexical(&cwd.join(folder))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_folder_is_governed_by_the_nearest_config_not_above_the_repository() {
        let root = tempfile::tempdir().unwrap();
        let outer = root.path().join(FILE_NAME);
        std::fs::write(&outer, "ignore: [SQS006]\n").unwrap();
        let repo = root.path().join("repo");
        std::fs::create_dir_all(repo.join(".git")).unwrap();
        std::fs::create_dir_all(repo.join("a/deep")).unwrap();
        std::fs::create_dir_all(repo.join("b")).unwrap();
        std::fs::write(repo.join("a").join(FILE_NAME), "select: [SQS001]\n").unwrap();
        let is_file = |p: &Path| p.is_file();
        assert_eq!(nearest(&repo.join("a/deep"), is_file), Some(repo.join("a").join(FILE_NAME)));
        assert_eq!(nearest(&repo.join("b"), is_file), None, "not above the repository's root");
        assert_eq!(nearest(root.path(), is_file), Some(outer));

        let mut configs = Nearest::new(&Filter { select: Vec::new(), ignore: vec!["SQS004".into()] });
        let a = configs.of(&repo.join("a/deep/t.yaml")).unwrap();
        assert_eq!(a.filter.select, ["SQS001"]);
        assert_eq!(a.filter.ignore, ["SQS004"], "the command line's --ignore is added");
        let again = configs.of(&repo.join("a/x.yaml")).unwrap();
        assert!(Arc::ptr_eq(&a, &again), "read once");
        let b = configs.of(&repo.join("b/t.yaml")).unwrap();
        assert!(b.path.is_none() && b.filter.ignore == ["SQS004"]);
    }

    #[test]
    fn a_broken_config_is_the_error_of_the_files_it_governs() {
        let repo = tempfile::tempdir().unwrap();
        std::fs::create_dir(repo.path().join(".git")).unwrap();
        std::fs::write(repo.path().join(FILE_NAME), "select: [SQS999]\n").unwrap();
        let err = Nearest::new(&Filter::default()).of(&repo.path().join("t.yaml")).unwrap_err();
        assert!(matches!(err, Error::Invalid { .. }), "{err}");
    }
}
