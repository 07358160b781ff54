//! The numbers a worker file takes from the other files of its program: a
//! timeout, an interval or a batch size written in a config module
//! (`from settings import READ_TIMEOUT`, `import * as cfg from
//! "./config.mjs"`, a constant of another file of the same Go package, a
//! `Config.READ_TIMEOUT` of another class of the same Java package). Each
//! is read from that file's top level, as a number (arithmetic included)
//! and as a Go duration, so that the worker's readers follow the name as
//! they follow one of its own file.
//!
//! They are read the first time a reader meets a name its file does not
//! bind, and only then. Only files of the repository are read, one import deep (a constant the
//! config module itself imports is unknown), at most [`MAX_FILES`] a
//! worker, each within the size a code file may have; one that does not
//! parse gives nothing.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use super::*;
use crate::imports::Binding as Bound;
use crate::resolve::{node_candidates, python_candidates};
use sqsguard_source::Overlay;

/// The most files a worker's imported values are read from.
const MAX_FILES: usize = 20;

/// A top-level constant of another file, as the readers can use it.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Constant {
    pub number: Option<f64>,
    /// Go: its value as a duration, in nanoseconds.
    pub go_duration: Option<f64>,
}

/// Imported constants by the name the worker writes (`READ_TIMEOUT`,
/// `cfg.READ_TIMEOUT`, `Config.READ_TIMEOUT`).
pub(crate) type Imported = HashMap<String, Constant>;

/// Where a worker's imported values are read from, read the first time a
/// reader meets a name its own file does not bind (most files never do:
/// a folder of many files is not parsed again for each).
pub(crate) struct Imports<'a> {
    path: &'a Path,
    overlay: &'a Overlay,
    read: std::cell::OnceCell<Imported>,
}

impl<'a> Imports<'a> {
    /// For the file at `path`.
    pub(crate) fn new(path: &'a Path, overlay: &'a Overlay) -> Self {
        Imports { path, overlay, read: std::cell::OnceCell::new() }
    }

    /// What `unit`, the file at `path`, takes from its program.
    pub(super) fn of(&self, unit: &Unit) -> &Imported {
        self.read.get_or_init(|| imported(unit, self.path, self.overlay))
    }
}

/// What `unit`, the file at `path`, takes from the files of its program.
fn imported(unit: &Unit, path: &Path, overlay: &Overlay) -> Imported {
    let mut out = Imported::new();
    let Some(dir) = path.parent() else { return out };
    let mut files: Vec<(PathBuf, Vec<(String, String)>)> = Vec::new();
    let language = unit.language;
    match language {
        Language::Go => {
            for file in siblings(dir, path, "go") {
                files.push((file, vec![(String::new(), String::new())]));
            }
        }
        Language::Java => {
            // Only the classes the worker names (`Config.WAIT`).
            for file in siblings(dir, path, "java") {
                let class = file.file_stem().and_then(|s| s.to_str()).unwrap_or_default().to_string();
                if unit.source.text.contains(&format!("{class}.")) {
                    files.push((file, vec![(String::new(), format!("{class}."))]));
                }
            }
        }
        _ => {
            for import in &unit.imports {
                let candidates = match language {
                    Language::Python => python_candidates(dir, dir, &import.source),
                    _ => node_candidates(dir, &import.source),
                };
                let Some(file) = candidates.into_iter().find(|c| c.is_file()) else { continue };
                // `(name in the module, prefix + name in the worker)`; an
                // empty name stands for every name.
                let names = match &import.binding {
                    Bound::Name { name, local } => (name.clone(), local.clone()),
                    Bound::Module(local) => (String::new(), format!("{local}.")),
                    Bound::Every => (String::new(), String::new()),
                };
                match files.iter_mut().find(|(f, _)| *f == file) {
                    Some((_, wanted)) => wanted.push(names),
                    None => files.push((file, vec![names])),
                }
            }
        }
    }
    for (file, wanted) in files.into_iter().take(MAX_FILES) {
        let Ok(source) = overlay.read(&file) else { continue };
        if source.text.len() > unit::MAX_CODE_BYTES {
            continue;
        }
        let Ok(other) = Unit::parse(&source, language) else { continue };
        // A Go file of another package in the same folder (a test
        // package) shares nothing.
        if language == Language::Go && other.package != unit.package {
            continue;
        }
        for (name, constant) in constants(&other) {
            for (want, as_written) in &wanted {
                if want.is_empty() {
                    out.entry(format!("{as_written}{name}")).or_insert(constant);
                } else if *want == name {
                    out.entry(as_written.clone()).or_insert(constant);
                }
            }
        }
    }
    out
}

/// The other files of `ext` in `dir`, by name.
fn siblings(dir: &Path, path: &Path, ext: &str) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else { return Vec::new() };
    let mut files: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.as_path() != path && p.extension().is_some_and(|e| e == ext) && p.is_file())
        .collect();
    files.sort();
    files
}

/// The numbers bound at the top level of `unit`, by name.
fn constants(unit: &Unit) -> Vec<(String, Constant)> {
    let mut bindings = Vec::new();
    let root = unit.tree.root_node();
    query::each_match(unit.language, &[Pattern::Assignments], root, unit.source.text.as_bytes(), |_, m| {
        bound_by(m, &mut bindings);
    });
    let names = QueueNames::default();
    let scope = Scope { owner: None, env: &[], queues: &names, imported: None };
    let reader = Reader::new(unit, &scope, Vec::new(), Vec::new(), bindings);
    let mut out = Vec::new();
    for b in reader.bindings.iter().filter(|b| b.function.is_none() && !b.destructure) {
        let number = reader.number(b.value, 0);
        let go_duration = (unit.language == Language::Go).then(|| reader.go_duration(b.value, 0)).flatten();
        if number.is_some() || go_duration.is_some() {
            out.push((b.name.clone(), Constant { number, go_duration }));
        }
    }
    out
}
