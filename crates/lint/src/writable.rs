//! Which files `--fix` would write: a fix whose file it would refuse (a
//! module followed out of the paths, a symbolic link, a read-only file) is
//! not offered, so the `[*]` marks and the fixable count are what `--fix`
//! applies.

use std::path::{Path, PathBuf};

use crate::session::Session;
use sqsguard_finding::Finding;

/// Why `--fix` does not write a file: the words it says, after the path.
const OUTSIDE: &str = "outside the paths being linted (a module followed from them?); not fixed";
const SYMLINK: &str = "is a symbolic link: not fixed in place (fix the file it points to)";
const READ_ONLY: &str = "is read-only: not fixed";

/// The files that `findings`' fixes edit and `--fix` would refuse to
/// write, each with why; those fixes become unfixable for that reason, so
/// the `[*]` marks and the fixable count are what `--fix` applies. A file
/// is refused when it is outside the paths the run was given (a module
/// followed out of them, a file reached through a symlinked folder), or,
/// unless its text came from standard input or an editor (then the fixed
/// text is printed, not written), when it is a symbolic link or read-only
/// (a read-only file says "do not change me").
pub(super) fn unwritable(
    findings: &mut [Finding],
    session: &Session,
) -> std::collections::BTreeMap<PathBuf, &'static str> {
    let overlay = &session.inputs.overlay;
    let roots: Vec<PathBuf> = session.inputs.paths.iter().filter_map(|p| real(p, overlay)).collect();
    let mut seen: std::collections::HashMap<PathBuf, Option<&'static str>> = std::collections::HashMap::new();
    let mut refused = std::collections::BTreeMap::new();
    for finding in findings {
        let Some(fix) = finding.fix_edits() else { continue };
        // A CDK finding moved from a template under the paths is fixed in
        // its app's source, which `--fix` writes and never the assembly.
        let app = finding
            .context
            .synthesized
            .as_ref()
            .map(|at| Path::new(&at.file))
            .filter(|template| within(&roots, template, overlay))
            .and_then(sqsguard_cdk::app_dir)
            .and_then(|dir| real(&dir, overlay));
        let why = fix.edits.iter().find_map(|edit| {
            let path = &edit.file.path;
            match &app {
                Some(app) if real(path, overlay).is_some_and(|p| p.starts_with(app)) => {
                    refusal(path, std::slice::from_ref(app), session)
                }
                _ => *seen.entry(path.clone()).or_insert_with(|| refusal(path, &roots, session)),
            }
        });
        if let Some(why) = why {
            for edit in &fix.edits {
                if let Some(Some(why)) = seen.get(&edit.file.path) {
                    refused.insert(edit.file.path.clone(), *why);
                }
            }
            finding.autofix = Some(Err(sqsguard_finding::Unfixable(why)));
        }
    }
    refused
}

/// Why `--fix` would not write `path`, if it would not.
fn refusal(path: &Path, roots: &[PathBuf], session: &Session) -> Option<&'static str> {
    let overlay = &session.inputs.overlay;
    if !within(roots, path, overlay) {
        return Some(OUTSIDE);
    }
    if overlay.holds(path) {
        return None;
    }
    let meta = std::fs::symlink_metadata(path).ok()?;
    if meta.file_type().is_symlink() {
        Some(SYMLINK)
    } else if meta.permissions().readonly() {
        Some(READ_ONLY)
    } else {
        None
    }
}

/// Whether `path` is really under one of `roots` (canonical paths).
fn within(roots: &[PathBuf], path: &Path, overlay: &sqsguard_source::Overlay) -> bool {
    let Some(real) = real(path, overlay) else { return false };
    roots.iter().any(|root| real.starts_with(root))
}

/// Where `path` really is: canonical on disk, or for a text that stands
/// in for a file not on disk (a document read from standard input), its
/// absolute path as written.
fn real(path: &Path, overlay: &sqsguard_source::Overlay) -> Option<PathBuf> {
    std::fs::canonicalize(path).ok().or_else(|| {
        let absolute = std::env::current_dir().ok()?.join(path);
        overlay.holds(path).then(|| sqsguard_source::lexical(&absolute))
    })
}
