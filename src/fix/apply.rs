//! Applying edits to a text, showing them as a diff, and writing a fixed
//! file so that it is either all there or not changed at all.

use std::io::Write;
use std::path::Path;

use super::Edit;
use crate::error::Error;

/// `text` with `edits` applied. Edits of one span keep the larger number
/// (or the first); edits that overlap an earlier one are left for the
/// next pass.
pub fn apply(text: &str, mut edits: Vec<Edit>) -> String {
    edits.sort_by_key(|e| (e.span.start, e.span.end));
    let mut kept: Vec<Edit> = Vec::with_capacity(edits.len());
    for edit in edits {
        match kept.last_mut() {
            Some(last) if last.span == edit.span => {
                if number(&edit.replacement) > number(&last.replacement) {
                    *last = edit;
                }
            }
            Some(last)
                if edit.span.start < last.span.end
                    || (edit.span.start == last.span.end && edit.span.is_empty() && last.span.is_empty()) => {}
            _ => kept.push(edit),
        }
    }
    let mut out = String::with_capacity(text.len() + 64);
    let mut at = 0;
    for edit in &kept {
        out.push_str(&text[at..edit.span.start]);
        out.push_str(&edit.replacement);
        at = edit.span.end;
    }
    out.push_str(&text[at..]);
    out
}

/// The number a replacement writes (`180`, `"180"`), to keep the larger.
fn number(replacement: &str) -> Option<i64> {
    replacement.trim_matches(['"', '\'']).parse().ok()
}

/// A unified diff of `path` from `old` to `new`, as `git diff` prints it.
pub fn unified_diff(path: &Path, old: &str, new: &str) -> String {
    let name = crate::source::display_path(path);
    similar::TextDiff::from_lines(old, new)
        .unified_diff()
        .context_radius(3)
        .header(&format!("a/{name}"), &format!("b/{name}"))
        .to_string()
}

/// What writing a fixed file came to.
#[derive(Debug, PartialEq, Eq)]
pub enum Written {
    Fixed,
    /// The file changed on disk since it was linted: not written.
    ChangedMeanwhile,
}

/// Write `new` over `path` atomically (a temporary file in the same folder,
/// renamed over it, with the file's permissions), unless the file no
/// longer holds `old`. A symlink is not followed out: its target is not
/// written. A read-only file is not replaced (root could, by renaming).
pub fn write_fixed(path: &Path, old: &str, new: &str) -> Result<Written, Error> {
    let io = |e| Error::io(path, e);
    let meta = std::fs::symlink_metadata(path).map_err(io)?;
    if meta.file_type().is_symlink() {
        return Err(Error::Unusable {
            path: path.to_path_buf(),
            message: "is a symbolic link: not fixed in place (fix the file it points to)".into(),
        });
    }
    // A read-only file says "do not change me"; renaming over it would.
    if meta.permissions().readonly() {
        return Err(Error::Unusable { path: path.to_path_buf(), message: "is read-only: not fixed".into() });
    }
    if std::fs::read_to_string(path).map_err(io)? != old {
        return Ok(Written::ChangedMeanwhile);
    }
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let mut tmp = tempfile::NamedTempFile::new_in(dir).map_err(io)?;
    tmp.write_all(new.as_bytes()).map_err(io)?;
    tmp.as_file().set_permissions(meta.permissions()).map_err(io)?;
    tmp.as_file().sync_all().map_err(io)?;
    tmp.persist(path).map_err(|e| io(e.error))?;
    Ok(Written::Fixed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::{SourceFile, Span};

    fn edit(text: &str, start: usize, end: usize, replacement: &str) -> Edit {
        Edit {
            file: SourceFile::new("t.yaml", text.to_string()),
            span: Span::new(start, end),
            replacement: replacement.into(),
        }
    }

    #[test]
    fn edits_of_one_place_keep_the_larger_number_and_overlaps_wait() {
        let text = "a: 60\nb: 1\n";
        let edits =
            vec![edit(text, 3, 5, "180"), edit(text, 3, 5, "185"), edit(text, 4, 5, "x"), edit(text, 9, 10, "3")];
        assert_eq!(apply(text, edits), "a: 185\nb: 3\n");
    }

    #[test]
    fn a_file_changed_since_it_was_read_is_not_written() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let path = dir.path().join("t.yaml");
        std::fs::write(&path, "edited meanwhile\n").unwrap_or_else(|e| panic!("{e}"));
        let written = write_fixed(&path, "as linted\n", "fixed\n").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(written, Written::ChangedMeanwhile);
        assert_eq!(std::fs::read_to_string(&path).unwrap_or_default(), "edited meanwhile\n");
        assert_eq!(write_fixed(&path, "edited meanwhile\n", "fixed\n").ok(), Some(Written::Fixed));
        assert_eq!(std::fs::read_to_string(&path).unwrap_or_default(), "fixed\n");
    }
}
