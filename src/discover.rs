//! Which files to look at: the paths given, folders walked with .gitignore
//! respected (the `ignore` crate, as ripgrep does). A folder that cannot
//! be walked is a note, never a silent gap.

use std::path::PathBuf;

use ignore::WalkBuilder;

use crate::source::{has_infra_extension, is_serverless_code};

/// A file to consider.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Candidate {
    pub path: PathBuf,
    /// Named on the command line (linted whatever its extension), rather
    /// than found in a folder (only infrastructure-looking extensions).
    pub explicit: bool,
}

/// The files under `paths`, and what could not be walked (path, why).
#[derive(Debug, Default)]
pub struct Found {
    pub candidates: Vec<Candidate>,
    pub unwalkable: Vec<(PathBuf, String)>,
}

/// Every candidate under `paths`, in a stable order.
pub fn candidates(paths: &[PathBuf]) -> Found {
    let mut out = Found::default();
    for path in paths {
        if !path.is_dir() {
            out.candidates.push(Candidate { path: path.clone(), explicit: true });
            continue;
        }
        if has_infra_extension(path) && path.read_dir().is_ok_and(|mut d| d.next().is_none()) {
            // An empty folder named like a template (`x.yaml/`): say so
            // rather than lint nothing in silence.
            out.candidates.push(Candidate { path: path.clone(), explicit: true });
            continue;
        }
        let walker = WalkBuilder::new(path).sort_by_file_name(|a, b| a.cmp(b)).build();
        for entry in walker {
            match entry {
                Ok(entry) => {
                    if entry.file_type().is_some_and(|t| t.is_file())
                        && (has_infra_extension(entry.path()) || is_serverless_code(entry.path()))
                    {
                        out.candidates.push(Candidate { path: tidy(entry.into_path()), explicit: false });
                    }
                }
                Err(e) => {
                    let at = match &e {
                        ignore::Error::WithPath { path, .. } => path.clone(),
                        _ => path.clone(),
                    };
                    out.unwalkable.push((tidy(at), plain(&e)));
                }
            }
        }
    }
    out
}

/// A walked path as the user would write it: `locked`, not `./locked`.
fn tidy(path: PathBuf) -> PathBuf {
    match path.strip_prefix("./") {
        Ok(rest) if !rest.as_os_str().is_empty() => rest.to_path_buf(),
        _ => path,
    }
}

/// The innermost reason of a walk error, in words.
fn plain(e: &ignore::Error) -> String {
    match e {
        ignore::Error::WithPath { err, .. } | ignore::Error::WithDepth { err, .. } => plain(err),
        ignore::Error::Io(io) if io.kind() == std::io::ErrorKind::PermissionDenied => "permission denied".into(),
        other => other.to_string(),
    }
}
