//! Which files to look at: the paths given, folders walked with .gitignore
//! respected (the `ignore` crate, as ripgrep does) and symlinks followed.
//! A folder that cannot be walked, a symlink loop or a link to nothing is a
//! note, never a silent gap.

use std::path::{Path, PathBuf};

use ignore::WalkBuilder;

use sqsguard_source::{has_infra_extension, is_serverless_code};

/// A file to consider.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Candidate {
    pub path: PathBuf,
    /// Named on the command line (linted whatever its extension), rather
    /// than found in a folder (only infrastructure-looking extensions).
    pub explicit: bool,
}

/// What a walk could not enter or follow.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Unwalked {
    pub path: PathBuf,
    /// The note's words: "not linted: the folder cannot be read: permission denied".
    pub message: String,
    /// The folder was named on the command line: not linting it fails the
    /// run, as a named file that cannot be read does.
    pub named: bool,
}

/// The files under `paths`, and what could not be walked.
#[derive(Debug, Default)]
pub(crate) struct Found {
    pub candidates: Vec<Candidate>,
    pub unwalked: Vec<Unwalked>,
    /// The code files found in folders (`.py`, `.js`, `.ts`, `.go`,
    /// `.java`, ...), outside dependency and build folders and inside the
    /// repository (a symlink out of it is not followed for code): the code
    /// front-end reads the SQS API calls of those that mention it.
    pub code: Vec<PathBuf>,
}

/// Folders whose code is not the project's own: dependencies, build
/// output, CDK assets. Their files are never read as code.
const NOT_OWN_CODE: &[&str] = &[
    "node_modules",
    "site-packages",
    "vendor",
    "cdk.out",
    "dist",
    "build",
    "target",
    "__pycache__",
    "bower_components",
];

/// Whether a walked file is code of the project's own.
fn is_own_code(path: &Path, under: &Path) -> bool {
    if sqsguard_model::code::Language::of_path(path).is_none() || is_serverless_code(path) {
        return false;
    }
    let inside = path.strip_prefix(under).unwrap_or(path);
    !inside.components().any(|c| NOT_OWN_CODE.iter().any(|n| c.as_os_str() == *n))
}

/// Every candidate under `paths`, in a stable order. A FIFO, socket or
/// device found with a template's name is a candidate too: reading it
/// (which refuses it unopened) says what it is.
pub(crate) fn candidates(paths: &[PathBuf]) -> Found {
    let mut out = Found::default();
    for path in paths {
        if !path.is_dir() {
            out.candidates.push(Candidate { path: path.clone(), explicit: true });
            continue;
        }
        let mut listing = match path.read_dir() {
            Ok(listing) => listing,
            Err(e) => {
                let message = format!("not linted: the folder cannot be read: {}", sqsguard_source::plain_io_error(&e));
                out.unwalked.push(Unwalked { path: tidy(path.clone()), message, named: true });
                continue;
            }
        };
        if has_infra_extension(path) && listing.next().is_none() {
            // An empty folder named like a template (`x.yaml/`): say so
            // rather than lint nothing in silence.
            out.candidates.push(Candidate { path: path.clone(), explicit: true });
            continue;
        }
        // Symlinked templates and folders are followed (a loop is told
        // apart from a folder and noted); the same file reached twice is
        // linted once, by lint.
        // `node_modules` is never walked (as checkov does not), ignored or
        // not: its templates and code are its packages', and an app
        // outside git (or a linked `node_modules`) held thousands of files.
        let walker = WalkBuilder::new(path)
            .follow_links(true)
            .sort_by_file_name(|a, b| a.cmp(b))
            .filter_entry(|e| !(e.depth() > 0 && e.file_name() == "node_modules"))
            .build();
        let mut apps = Vec::new();
        let mut assemblies = Assemblies::default();
        // Code is read only inside the repository: a linked folder that
        // leads out of it is not searched for SQS API calls.
        let repository = sqsguard_source::repository::repository_of(path);
        for entry in walker {
            match entry {
                Ok(entry) => {
                    let is_file = entry.file_type().is_some_and(|t| !t.is_dir());
                    if is_file && is_own_code(entry.path(), path) {
                        if entry.path().canonicalize().is_ok_and(|real| real.starts_with(&repository)) {
                            out.code.push(tidy(entry.into_path()));
                        }
                        continue;
                    }
                    if is_file && assemblies.holds_other_than_a_template(entry.path()) {
                        continue;
                    }
                    if is_file && (has_infra_extension(entry.path()) || is_serverless_code(entry.path())) {
                        if entry.file_name() == CDK_APP {
                            apps.push(entry.path().to_path_buf());
                        }
                        out.candidates.push(Candidate { path: tidy(entry.into_path()), explicit: false });
                    }
                }
                Err(e) => out.unwalked.push(unwalked(&e, path)),
            }
        }
        for app in apps {
            cdk_output(&app, &mut out);
        }
    }
    out
}

/// The folders found to be cloud assemblies (they hold the `cdk.out`
/// version file `cdk synth` writes), each asked about once.
#[derive(Default)]
struct Assemblies(std::collections::HashMap<PathBuf, bool>);

impl Assemblies {
    /// A file of a cloud assembly other than a stack's template (its
    /// manifest, tree, asset and metadata files): CDK's own bookkeeping,
    /// neither linted nor noted. Found when the assembly is not ignored
    /// (a folder outside git, say); the templates come from [`cdk_output`].
    fn holds_other_than_a_template(&mut self, file: &Path) -> bool {
        let Some(folder) = file.parent() else { return false };
        if file.to_string_lossy().ends_with(".template.json") {
            return false;
        }
        *self.0.entry(folder.to_path_buf()).or_insert_with(|| folder.join("cdk.out").is_file())
    }
}

/// What marks a CDK app's folder.
const CDK_APP: &str = "cdk.json";

/// The templates a CDK app synthesized: its output folder (`output` in
/// `cdk.json`, else `cdk.out`), which CDK's project template gitignores, so
/// the walk above never sees it. Its `*.template.json` files and those of
/// its stage assemblies (`assembly-*/`) are candidates; the `asset.*`
/// folders hold the app's code and files, not templates. Already found
/// (not ignored), they are not added twice.
fn cdk_output(app: &Path, out: &mut Found) {
    let Some(dir) = app.parent() else { return };
    let output = sqsguard_source::read_named(app)
        .ok()
        .and_then(|text| serde_json::from_str::<serde_json::Value>(&text).ok())
        .and_then(|v| v.get("output").and_then(|o| o.as_str()).map(str::to_string))
        .unwrap_or_else(|| "cdk.out".to_string());
    let root = dir.join(output);
    if !root.is_dir() {
        return;
    }
    let known: std::collections::HashSet<PathBuf> = out.candidates.iter().map(|c| c.path.clone()).collect();
    let walker = WalkBuilder::new(&root)
        .standard_filters(false)
        .follow_links(true)
        .sort_by_file_name(|a, b| a.cmp(b))
        .filter_entry(|e| !(e.depth() > 0 && e.file_type().is_some_and(|t| t.is_dir()) && is_asset(e.file_name())))
        .build();
    for entry in walker {
        match entry {
            Ok(entry) if entry.file_name().to_string_lossy().ends_with(".template.json") => {
                let path = tidy(entry.into_path());
                if !known.contains(&path) {
                    out.candidates.push(Candidate { path, explicit: false });
                }
            }
            Ok(_) => {}
            Err(e) => out.unwalked.push(unwalked(&e, &root)),
        }
    }
}

/// `asset.<hash>` (and `asset.<hash>.<ext>`): an app's bundled code.
fn is_asset(name: &std::ffi::OsStr) -> bool {
    name.to_string_lossy().starts_with("asset.")
}

/// A walk error as a note: a loop, a link to nothing, or a folder that
/// cannot be read.
fn unwalked(e: &ignore::Error, root: &Path) -> Unwalked {
    let mut at = root.to_path_buf();
    let mut inner = e;
    loop {
        match inner {
            ignore::Error::WithPath { path, err } => {
                at = path.clone();
                inner = err;
            }
            ignore::Error::WithDepth { err, .. } | ignore::Error::WithLineNumber { err, .. } => inner = err,
            _ => break,
        }
    }
    let message = match inner {
        ignore::Error::Loop { ancestor, child } => {
            at = child.clone();
            format!(
                "not followed: a symlink loop (it leads back to {}, a folder this walk is in)",
                sqsguard_source::display_path(&tidy(ancestor.clone()))
            )
        }
        ignore::Error::Io(_) if is_symlink(&at) => match std::fs::metadata(&at) {
            Err(e) if is_loop(&e) => "not followed: a symlink loop (it leads to itself)".to_string(),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                "not followed: a symlink to nothing (its target does not exist)".to_string()
            }
            // A linked folder that cannot be read.
            _ => format!("not linted: the folder cannot be read: {}", plain(e)),
        },
        _ => format!("not linted: the folder cannot be read: {}", plain(e)),
    };
    Unwalked { path: tidy(at), message, named: false }
}

/// ELOOP: a link that leads to itself, or a chain too long to follow.
fn is_loop(e: &std::io::Error) -> bool {
    #[cfg(unix)]
    {
        e.raw_os_error() == Some(libc::ELOOP)
    }
    #[cfg(not(unix))]
    {
        let _ = e;
        false
    }
}

fn is_symlink(path: &Path) -> bool {
    path.symlink_metadata().is_ok_and(|m| m.file_type().is_symlink())
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

/// A `.tf` or `.tf.json` file, or a variables file (`.tfvars`,
/// `.tfvars.json`): either makes its folder's module load, so a pre-commit
/// hook that passes only a changed tfvars file still checks the values it
/// sets.
pub fn is_terraform(path: &Path) -> bool {
    let name = path.file_name().map(|n| n.to_string_lossy().to_ascii_lowercase()).unwrap_or_default();
    [".tf", ".tf.json", ".tfvars", ".tfvars.json"].iter().any(|ext| name.ends_with(ext))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variables_files_are_terraform() {
        assert!(is_terraform(Path::new("x/terraform.tfvars")));
        assert!(is_terraform(Path::new("x/prod.tfvars.json")));
        assert!(is_terraform(Path::new("main.TF")));
        assert!(!is_terraform(Path::new("plan.json")));
    }
}
