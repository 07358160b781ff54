//! Which files to look at: the paths given, folders walked with .gitignore
//! respected (the `ignore` crate, as ripgrep does).

use std::path::PathBuf;

use ignore::WalkBuilder;

use crate::source::has_infra_extension;

/// A file to consider.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Candidate {
    pub path: PathBuf,
    /// Named on the command line (linted whatever its extension), rather
    /// than found in a folder (only infrastructure-looking extensions).
    pub explicit: bool,
}

/// Every candidate under `paths`, in a stable order.
pub fn candidates(paths: &[PathBuf]) -> Vec<Candidate> {
    let mut out = Vec::new();
    for path in paths {
        if !path.is_dir() {
            out.push(Candidate { path: path.clone(), explicit: true });
            continue;
        }
        if has_infra_extension(path) && path.read_dir().is_ok_and(|mut d| d.next().is_none()) {
            // An empty folder named like a template (`x.yaml/`): say so
            // rather than lint nothing in silence.
            out.push(Candidate { path: path.clone(), explicit: true });
            continue;
        }
        let walker = WalkBuilder::new(path).sort_by_file_name(|a, b| a.cmp(b)).build();
        for entry in walker.flatten() {
            if entry.file_type().is_some_and(|t| t.is_file()) && has_infra_extension(entry.path()) {
                out.push(Candidate { path: entry.into_path(), explicit: false });
            }
        }
    }
    out
}
