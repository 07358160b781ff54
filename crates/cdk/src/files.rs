//! Which files of an app are read: its source in its language, and the
//! templates `cdk synth` wrote for the apps of an editor's workspace.

use std::path::{Path, PathBuf};

use crate::app;
use crate::syntax::Syntax;
use sqsguard_model::code::Language;

/// At most this many source files of one app are read.
const MAX_FILES: usize = 5_000;
/// Folders that hold no source of the app's own.
pub(crate) const NOT_SOURCE: &[&str] = &[
    "node_modules",
    "cdk.out",
    ".git",
    ".venv",
    "venv",
    "env",
    "__pycache__",
    "dist",
    "build",
    "target",
    ".cdk.staging",
];

/// The synthesized templates of the CDK apps under `root` (an editor's
/// workspace): each `cdk.json`'s output folder and its stages'. Hidden
/// folders, dependencies and build output are not searched, nor more
/// than a few levels down.
pub fn synthesized_templates(root: &Path) -> Vec<PathBuf> {
    let mut apps = Vec::new();
    let mut folders = vec![(root.to_path_buf(), 0)];
    while let Some((folder, depth)) = folders.pop() {
        let Ok(entries) = std::fs::read_dir(&folder) else { continue };
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            let is_dir = entry.file_type().is_ok_and(|t| t.is_dir());
            if is_dir && depth < 6 && !name.starts_with('.') && !NOT_SOURCE.contains(&name.as_str()) {
                folders.push((entry.path(), depth + 1));
            } else if name == app::CDK_JSON && apps.len() < 100 {
                apps.push(folder.clone());
            }
        }
    }
    let mut out = Vec::new();
    for dir in apps {
        let config = app::read_json(&dir.join(app::CDK_JSON)).ok();
        let output =
            config.and_then(|v| v.get("output")?.as_str().map(String::from)).unwrap_or_else(|| "cdk.out".into());
        let mut folders = vec![dir.join(output)];
        while let Some(folder) = folders.pop() {
            let Ok(entries) = std::fs::read_dir(&folder) else { continue };
            for entry in entries.flatten() {
                let name = entry.file_name().to_string_lossy().into_owned();
                if name.starts_with("assembly-") && entry.file_type().is_ok_and(|t| t.is_dir()) {
                    folders.push(entry.path());
                } else if name.ends_with(".template.json") && out.len() < 10_000 {
                    out.push(entry.path());
                }
            }
        }
    }
    out.sort();
    out
}

/// The app's source files in its language (TypeScript apps: `.ts`, not
/// declarations), outside its assembly, dependencies and build output.
pub(crate) fn source_files(dir: &Path, assembly: &Path, language: Syntax) -> Vec<PathBuf> {
    let wanted = |path: &Path| {
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or_default();
        match language {
            Syntax::Code(Language::TypeScript | Language::Tsx) => {
                (name.ends_with(".ts") || name.ends_with(".tsx")) && !name.ends_with(".d.ts")
            }
            Syntax::Code(Language::JavaScript) => [".js", ".mjs", ".cjs"].iter().any(|e| name.ends_with(e)),
            // Go's tests create stacks of their own.
            Syntax::Code(Language::Go) => name.ends_with(".go") && !name.ends_with("_test.go"),
            other => Syntax::of_path(path) == Some(other),
        }
    };
    let mut out = Vec::new();
    walk(dir, assembly, &mut |path| {
        if wanted(path) && out.len() < MAX_FILES {
            out.push(path.to_path_buf());
        }
    });
    out
}

/// Every file of the app's folder, in a stable order, outside hidden
/// folders, its assembly, dependencies and build output (links are not
/// followed).
pub(crate) fn walk(dir: &Path, assembly: &Path, each: &mut dyn FnMut(&Path)) {
    let mut folders = vec![(dir.to_path_buf(), 0)];
    while let Some((folder, depth)) = folders.pop() {
        let Ok(entries) = std::fs::read_dir(app::listable(&folder)) else { continue };
        let mut entries: Vec<_> = entries.flatten().collect();
        entries.sort_by_key(|e| e.file_name());
        for entry in entries {
            let path = folder.join(entry.file_name());
            let name = entry.file_name().to_string_lossy().into_owned();
            let Ok(kind) = entry.file_type() else { continue };
            if kind.is_dir() {
                if depth < 32 && !name.starts_with('.') && !NOT_SOURCE.contains(&name.as_str()) && path != assembly {
                    folders.push((path, depth + 1));
                }
            } else if kind.is_file() {
                each(&path);
            }
        }
    }
}
