//! A handler in an asset folder (`cdk.out/asset.3f1c.../app.py`) is a copy
//! of a file of the app (`Code.fromAsset("lambda")` copies the folder as
//! it is). A finding in the copy moves to the app's file with the same
//! name and the same bytes, with its fix: the spans are the same. A copy
//! with no such file, or several (a bundled `NodejsFunction`, the same
//! handler twice), keeps its place, and no fix edits it.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use sqsguard_finding::Finding;
use sqsguard_model::Origin;
use sqsguard_source::{Source, SourceFile};

/// At most this many of the app's files are considered.
const MAX_FILES: usize = 20_000;

/// The app's files by name, outside its assembly and dependencies.
#[derive(Default)]
pub(crate) struct Originals(HashMap<std::ffi::OsString, Vec<PathBuf>>);

impl Originals {
    pub(crate) fn of(dir: &Path, assembly: &Path) -> Originals {
        let mut by_name: HashMap<std::ffi::OsString, Vec<PathBuf>> = HashMap::new();
        let mut count = 0;
        crate::files::walk(dir, assembly, &mut |path| {
            if count < MAX_FILES
                && let Some(name) = path.file_name()
            {
                count += 1;
                by_name.entry(name.to_os_string()).or_default().push(path.to_path_buf());
            }
        });
        Originals(by_name)
    }

    /// The app's one file that `copy` is a copy of.
    fn original_of(&self, copy: &SourceFile) -> Option<Source> {
        let candidates = self.0.get(copy.path.file_name()?)?;
        let mut same = candidates.iter().filter(|p| {
            std::fs::metadata(p).is_ok_and(|m| m.len() == copy.text.len() as u64)
                && std::fs::read(p).is_ok_and(|bytes| bytes == copy.text.as_bytes())
        });
        let original = same.next()?;
        same.next().is_none().then(|| SourceFile::new(original.clone(), copy.text.clone()))
    }

    /// Move a finding in an asset's copy to the original, with its fix.
    /// Whether it moved.
    pub(crate) fn move_to_original(&self, f: &mut Finding) -> bool {
        let Origin::File { file, span } = &f.origin else { return false };
        let Some(original) = self.original_of(file) else { return false };
        let (copy, span) = (file.path.clone(), *span);
        f.context.synthesized = f.origin.location();
        f.origin = Origin::file(&original, span);
        if let Some(Ok(fix)) = &mut f.autofix {
            for edit in fix.edits.iter_mut().filter(|e| e.file.path == copy) {
                edit.file = original.clone();
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_copy_moves_to_the_one_file_with_its_name_and_bytes_and_never_to_one_of_two() {
        let dir = tempfile::tempdir().unwrap();
        let app = dir.path();
        for (path, text) in
            [("lambda/app.py", "A"), ("other/app.py", "B"), ("twice/a/h.py", "C"), ("twice/b/h.py", "C")]
        {
            std::fs::create_dir_all(app.join(path).parent().unwrap()).unwrap();
            std::fs::write(app.join(path), text).unwrap();
        }
        let originals = Originals::of(app, &app.join("cdk.out"));
        let copy = |name: &str, text: &str| SourceFile::new(app.join("cdk.out/asset.1").join(name), text.into());
        let found = originals.original_of(&copy("app.py", "A")).unwrap();
        assert_eq!(found.path, app.join("lambda/app.py"));
        assert!(originals.original_of(&copy("app.py", "changed since the synth")).is_none());
        assert!(originals.original_of(&copy("h.py", "C")).is_none(), "two originals: no guess");
    }
}
