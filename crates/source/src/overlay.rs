//! Texts that stand in for files on disk: the fixed texts of `--fix`'s
//! passes, an editor's unsaved buffers.

use std::any::Any;
use std::collections::HashMap;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};

use super::{Source, SourceFile, Unreadable, read};

/// Texts that stand in for files on disk, by path: the fixed texts of
/// `lint --fix`'s passes, linted again before anything is written, and
/// the unsaved buffers of `sqsguard server`'s editor. Empty in every other
/// run. It may carry a [`Memo`] of parses that outlives it.
#[derive(Clone, Debug, Default)]
pub struct Overlay {
    texts: Arc<HashMap<PathBuf, String>>,
    memo: Option<Arc<Memo>>,
}

impl Overlay {
    /// The texts by path; a path is looked up as [`lexical`] makes it, so
    /// `src/../app.py` (a handler found from a template's folder) finds
    /// the editor's `app.py`.
    pub fn new(texts: HashMap<PathBuf, String>) -> Self {
        let texts = texts.into_iter().map(|(path, text)| (lexical(&path), text)).collect();
        Overlay { texts: Arc::new(texts), memo: None }
    }

    /// These texts with `texts` over them (the fixed texts of a pass of
    /// `--fix` over the document read from standard input), the memo
    /// kept.
    /// Whether both stand in the same texts (one overlay and its clones):
    /// what a cache of what was read through an overlay is keyed by.
    pub fn same_texts(&self, other: &Overlay) -> bool {
        Arc::ptr_eq(&self.texts, &other.texts)
    }

    pub fn extended(&self, texts: HashMap<PathBuf, String>) -> Self {
        if texts.is_empty() {
            return self.clone();
        }
        let mut all = HashMap::clone(&self.texts);
        all.extend(texts.into_iter().map(|(path, text)| (lexical(&path), text)));
        Overlay { texts: Arc::new(all), memo: self.memo.clone() }
    }

    /// The same texts, with parses kept in `memo` across runs.
    pub fn with_memo(mut self, memo: Arc<Memo>) -> Self {
        self.memo = Some(memo);
        self
    }

    /// Whether parses are kept across runs (the editor server's).
    pub fn memoizes(&self) -> bool {
        self.memo.is_some()
    }

    /// What `parse` makes of each piece of a file's text, through the
    /// memo (each piece parsed once while its text stays); `None` without
    /// a memo, when parsing whole is as quick.
    pub fn pieces<T: Send + Sync + 'static, E>(
        &self,
        path: &Path,
        pieces: &[(&str, u8)],
        parse: impl FnMut(&str, u8) -> Result<T, E>,
    ) -> Option<Result<Vec<Arc<T>>, E>> {
        self.memo.as_ref().map(|memo| memo.pieces(path, pieces, parse))
    }

    /// What `parse` makes of `file`: made once per text of the file while
    /// a memo lasts (an editor's checks read the same unchanged files at
    /// every keystroke), else each time.
    pub fn parsed<T: Clone + Send + Sync + 'static>(&self, file: &SourceFile, parse: impl FnOnce() -> T) -> T {
        match &self.memo {
            Some(memo) => memo.parsed(file, parse),
            None => parse(),
        }
    }

    /// The file's text: the overlay's, else what [`read`] finds on disk.
    pub fn read(&self, path: &Path) -> Result<Source, Unreadable> {
        if self.texts.is_empty() {
            return read(path);
        }
        match self.texts.get(&lexical(path)) {
            Some(text) => Ok(SourceFile::new(path.to_path_buf(), text.clone())),
            None => read(path),
        }
    }

    /// The paths in folder `dir` a text stands in for, that `keep`
    /// keeps, sorted.
    pub fn files_in(&self, dir: &Path, keep: impl Fn(&Path) -> bool) -> Vec<PathBuf> {
        let dir = lexical(if dir.as_os_str().is_empty() { Path::new(".") } else { dir });
        let mut out: Vec<PathBuf> = self
            .texts
            .keys()
            .filter(|p| lexical(p.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."))) == dir)
            .filter(|p| keep(p))
            .cloned()
            .collect();
        out.sort();
        out
    }

    /// Whether a text stands in for `path`.
    pub fn holds(&self, path: &Path) -> bool {
        !self.texts.is_empty() && self.texts.contains_key(&lexical(path))
    }
}

/// Parses of files by path, each of the last text met, for runs that read
/// mostly the same texts again (`sqsguard server`: a Terraform module's
/// forty files, one of them changed). One entry per path and kind of
/// parse, so it holds no more than the files it has seen.
#[derive(Default)]
pub struct Memo {
    /// By path as given and kind: the hash and length of the text parsed,
    /// and what it parsed to.
    kept: Mutex<HashMap<(PathBuf, std::any::TypeId), Parse>>,
    /// By path: the pieces of its last parse, by their text's hash and
    /// length and the caller's tag.
    pieces: Mutex<HashMap<PathBuf, Pieces>>,
}

type Kept = Arc<dyn Any + Send + Sync>;
/// A text's hash and length, and what it parsed to.
type Parse = (u64, usize, Kept);
type Pieces = HashMap<(u64, usize, u8), Kept>;

fn hash_of(text: &str) -> (u64, usize) {
    let mut hasher = DefaultHasher::new();
    text.hash(&mut hasher);
    (hasher.finish(), text.len())
}

impl std::fmt::Debug for Memo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Memo")
    }
}

impl Memo {
    fn pieces<T: Send + Sync + 'static, E>(
        &self,
        path: &Path,
        pieces: &[(&str, u8)],
        mut parse: impl FnMut(&str, u8) -> Result<T, E>,
    ) -> Result<Vec<Arc<T>>, E> {
        let last = self.pieces.lock().unwrap_or_else(PoisonError::into_inner).remove(path).unwrap_or_default();
        let mut now: Pieces = HashMap::with_capacity(pieces.len());
        let mut out = Vec::with_capacity(pieces.len());
        for &(text, tag) in pieces {
            let (hash, len) = hash_of(text);
            let key = (hash, len, tag);
            let kept = last.get(&key).or_else(|| now.get(&key)).cloned().and_then(|v| v.downcast::<T>().ok());
            let value = match kept {
                Some(value) => value,
                None => match parse(text, tag) {
                    Ok(value) => Arc::new(value),
                    Err(e) => {
                        // Kept for the next text, which may mend this one;
                        // never more than about two texts' pieces.
                        if now.len() + last.len() <= 2 * pieces.len() + 16 {
                            now.extend(last);
                        }
                        self.pieces.lock().unwrap_or_else(PoisonError::into_inner).insert(path.to_path_buf(), now);
                        return Err(e);
                    }
                },
            };
            now.insert(key, value.clone());
            out.push(value);
        }
        self.pieces.lock().unwrap_or_else(PoisonError::into_inner).insert(path.to_path_buf(), now);
        Ok(out)
    }

    fn parsed<T: Clone + Send + Sync + 'static>(&self, file: &SourceFile, parse: impl FnOnce() -> T) -> T {
        let (hash, len) = hash_of(&file.text);
        let key = (file.path.clone(), std::any::TypeId::of::<T>());
        let kept = self.kept.lock().unwrap_or_else(PoisonError::into_inner).get(&key).cloned();
        if let Some((h, n, value)) = kept
            && (h, n) == (hash, len)
            && let Some(value) = value.downcast_ref::<T>()
        {
            return value.clone();
        }
        let value = parse();
        let stored: Kept = Arc::new(value.clone());
        self.kept.lock().unwrap_or_else(PoisonError::into_inner).insert(key, (hash, len, stored));
        value
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
