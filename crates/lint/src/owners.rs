//! The templates a code file named on the command line belongs to: a
//! pre-commit hook passes only the changed files, and a changed handler
//! must re-check the template that names it (its mapping's flag is there).
//! They are looked for in the folders above the file, up to its
//! repository, one folder listing each: a SAM `template.yaml` beside
//! `src/`, a `serverless.yml` at the service's root, a Terraform module
//! whose `archive_file` packs the folder.

use std::path::{Component, Path, PathBuf};

use sqsguard_source::has_infra_extension;
use sqsguard_source::repository;

/// The most folders looked at above one file, and the most entries read of
/// one folder: enough for any repository's layout, and a bound on a run
/// given a file deep in a huge tree.
const MAX_LEVELS: usize = 32;
const MAX_ENTRIES: usize = 2000;

/// The infrastructure files (by extension) of every folder from `code`'s
/// own up to its repository's root, nearest first. Which of them read
/// `code` is known only once they are linted. Outside a repository, an
/// editor's `workspace` folder (when it holds `code`) is the top.
pub(crate) fn candidates_above(code: &Path, workspace: Option<&Path>) -> Vec<PathBuf> {
    let dir = match code.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let mut root = repository::repository_of(&dir);
    if !root.join(".git").exists()
        && let Some(top) = workspace.and_then(|w| w.canonicalize().ok()).filter(|w| root.starts_with(w))
    {
        root = top;
    }
    let mut out = Vec::new();
    let mut at = Some(dir);
    for _ in 0..MAX_LEVELS {
        let Some(d) = at.take() else { break };
        let Ok(listing) = d.read_dir() else { break };
        let mut files: Vec<PathBuf> = listing
            .take(MAX_ENTRIES)
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.is_file() && has_infra_extension(p))
            .collect();
        files.sort();
        out.extend(files);
        let real = d.canonicalize().unwrap_or_else(|_| d.clone());
        if real == root || !real.starts_with(&root) {
            break;
        }
        at = Some(up(&d));
    }
    out
}

/// The folder above `d`, written as the user would (`svc` above
/// `svc/src`, `..` above `.`).
fn up(d: &Path) -> PathBuf {
    let dots = d.components().next_back().is_none_or(|c| matches!(c, Component::CurDir | Component::ParentDir));
    match d.parent() {
        _ if dots => d.join(".."),
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn templates_are_looked_for_up_to_the_repository() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::create_dir_all(root.join("repo/.git")).unwrap();
        std::fs::create_dir_all(root.join("repo/svc/src/lib")).unwrap();
        std::fs::write(root.join("outside.yaml"), "x: 1\n").unwrap();
        std::fs::write(root.join("repo/root.yaml"), "x: 1\n").unwrap();
        std::fs::write(root.join("repo/svc/template.yaml"), "x: 1\n").unwrap();
        std::fs::write(root.join("repo/svc/src/lib/app.py"), "\n").unwrap();
        let names = |found: Vec<PathBuf>| -> Vec<String> {
            found.iter().map(|p| p.file_name().unwrap().to_string_lossy().into_owned()).collect()
        };
        let app = root.join("repo/svc/src/lib/app.py");
        assert_eq!(names(candidates_above(&app, None)), ["template.yaml", "root.yaml"]);
        // A workspace does not widen a repository.
        assert_eq!(names(candidates_above(&app, Some(root))), ["template.yaml", "root.yaml"]);
    }

    #[test]
    fn outside_a_repository_an_editor_s_workspace_is_the_top() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::create_dir_all(root.join("ws/src")).unwrap();
        std::fs::write(root.join("outside.yaml"), "x: 1\n").unwrap();
        std::fs::write(root.join("ws/template.yaml"), "x: 1\n").unwrap();
        std::fs::write(root.join("ws/src/app.py"), "\n").unwrap();
        let app = root.join("ws/src/app.py");
        let found = candidates_above(&app, Some(&root.join("ws")));
        assert_eq!(found.iter().map(|p| p.file_name().unwrap().to_owned()).collect::<Vec<_>>(), ["template.yaml"]);
        assert!(candidates_above(&app, None).is_empty());
    }
}
