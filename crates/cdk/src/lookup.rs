//! The app's source files, each parsed and indexed ([`crate::index`])
//! when first needed, and what finds a construct among them without a
//! scan.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use crate::index::{FileIndex, Made, Parsed, index};
use crate::syntax::Syntax;
use sqsguard_source::Overlay;

/// The app's source files, each parsed and indexed when first needed: a
/// creation stack names the one file it needs; a search by ids needs
/// them all, and then each construct is found by its id without a scan.
#[derive(Default)]
pub(crate) struct Lookup {
    paths: Vec<PathBuf>,
    language: Option<Syntax>,
    overlay: Overlay,
    parsed: Vec<OnceLock<Result<FileIndex, String>>>,
    /// Each file by its canonical path.
    by_path: HashMap<PathBuf, usize>,
    /// `(file, construct)` of each id, over every file.
    by_id: OnceLock<HashMap<String, Vec<(usize, usize)>>>,
    /// The app's folder, as given and canonical.
    dir: PathBuf,
    canonical_dir: Option<PathBuf>,
    /// The file each file a creation stack names is, once resolved
    /// (hundreds of frames name a handful of files).
    frames: std::sync::Mutex<HashMap<String, Option<usize>>>,
    /// When the assembly was written.
    synthesized: Option<std::time::SystemTime>,
}

impl Lookup {
    pub(crate) fn new(
        dir: &Path,
        paths: Vec<PathBuf>,
        language: Syntax,
        overlay: Overlay,
        synthesized: Option<std::time::SystemTime>,
    ) -> Lookup {
        let by_path = paths
            .iter()
            .enumerate()
            .filter_map(|(i, p)| Some((crate::app::listable(p).canonicalize().ok()?, i)))
            .collect();
        let parsed = paths.iter().map(|_| OnceLock::new()).collect();
        Lookup {
            paths,
            language: Some(language),
            overlay,
            parsed,
            by_path,
            by_id: OnceLock::new(),
            dir: dir.to_path_buf(),
            canonical_dir: crate::app::listable(dir).canonicalize().ok(),
            frames: std::sync::Mutex::default(),
            synthesized,
        }
    }

    /// The file at `at`, parsed and indexed.
    pub(crate) fn file(&self, at: usize) -> Option<&FileIndex> {
        let cell = self.parsed.get(at)?;
        cell.get_or_init(|| self.parse(at)).as_ref().ok()
    }

    /// The app's file a creation stack's frame names (a path of the
    /// machine that synthesized).
    pub(crate) fn file_of_frame(&self, frame_file: &str) -> Option<&FileIndex> {
        let resolve = || {
            let local = crate::app::local_file(&self.dir, self.canonical_dir.as_deref()?, Path::new(frame_file))?;
            self.by_path.get(&local.canonicalize().ok()?).copied()
        };
        let at = match self.frames.lock() {
            Ok(mut frames) => match frames.get(frame_file) {
                Some(at) => *at,
                None => *frames.entry(frame_file.to_string()).or_insert_with(resolve),
            },
            Err(_) => resolve(),
        };
        self.file(at?)
    }

    fn parse(&self, at: usize) -> Result<FileIndex, String> {
        let path = self.paths.get(at).ok_or_else(String::new)?;
        let source = self.overlay.read(path).map_err(|e| e.message)?;
        let language = Syntax::of_path(path).or(self.language).ok_or_else(String::new)?;
        let tree = language.parse(&source).map_err(|e| e.why)?;
        let mut file = index(&Parsed { source, language, tree })?;
        let modified = std::fs::metadata(path).and_then(|m| m.modified()).ok();
        // A text the overlay stands in for (a fix, an editor's buffer) is newer.
        file.newer = self.overlay.holds(path) || matches!((modified, self.synthesized), (Some(m), Some(s)) if m > s);
        for made in &mut file.made {
            made.at = at;
        }
        for added in &mut file.added {
            added.source.at = at;
        }
        Ok(file)
    }

    /// The constructs created with `id`, in any file.
    pub(crate) fn with_id(&self, id: &str) -> Vec<&Made> {
        let by_id = self.by_id.get_or_init(|| {
            let mut by_id: HashMap<String, Vec<(usize, usize)>> = HashMap::new();
            for at in 0..self.parsed.len() {
                for (i, made) in self.file(at).map(|f| f.made.as_slice()).unwrap_or_default().iter().enumerate() {
                    if let Some(id) = &made.id {
                        by_id.entry(id.clone()).or_default().push((at, i));
                    }
                }
            }
            by_id
        });
        let found = by_id.get(id).map(Vec::as_slice).unwrap_or_default();
        found.iter().filter_map(|(f, m)| self.file(*f)?.made.get(*m)).collect()
    }

    /// The files read so far.
    pub(crate) fn read_files(&self) -> Vec<PathBuf> {
        self.paths.iter().zip(&self.parsed).filter(|(_, cell)| cell.get().is_some()).map(|(p, _)| p.clone()).collect()
    }

    /// The files read that did not parse, and why (once all were read).
    pub(crate) fn unparsed(&self) -> Vec<(&Path, &str)> {
        self.paths
            .iter()
            .zip(&self.parsed)
            .filter_map(|(p, cell)| Some((p.as_path(), cell.get()?.as_ref().err()?.as_str())))
            .collect()
    }
}
