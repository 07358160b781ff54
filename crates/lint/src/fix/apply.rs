//! Applying edits to a text, showing them as a diff, and writing a fixed
//! file so that it is either all there or not changed at all.

use std::path::Path;

use std::collections::BTreeMap;

use sqsguard_finding::Edit;
use sqsguard_finding::error::Error;
use sqsguard_source::Span;

/// What applying a file's fixes came to.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Applied {
    /// The text with the fixes applied.
    pub text: String,
    /// The fixes applied, as indices into the list given.
    pub fixes: Vec<usize>,
    /// The edits made, in order: each one's span in the old text and the
    /// length of what replaced it (what moves the text after it).
    pub edits: Vec<(Span, usize)>,
}

/// `text` with `fixes` applied (each fix a list of edits). A fix is
/// applied whole or not at all: one whose edit overlaps an edit already
/// taken (or inserts at the same place) waits for the next pass, so a new
/// dead-letter queue is never added without the RedrivePolicy that points
/// at it. Two one-edit fixes of one span keep the larger number (SQS001
/// for two consumers of a queue), and both count as applied.
pub(crate) fn apply(text: &str, fixes: Vec<Vec<Edit>>) -> Applied {
    // Taken edits by (start, end): disjoint, so a few neighbours are all
    // an edit can overlap, and a file of many fixes costs n log n.
    let mut kept: BTreeMap<(usize, usize), Edit> = BTreeMap::new();
    let mut applied = Vec::new();
    for (n, fix) in fixes.into_iter().enumerate() {
        if let [edit] = fix.as_slice()
            && !edit.span.is_empty()
            && let Some(same) = kept.get_mut(&(edit.span.start, edit.span.end))
        {
            if number(&edit.replacement) > number(&same.replacement) {
                same.replacement.clone_from(&edit.replacement);
            }
            applied.push(n);
            continue;
        }
        if !disjoint(&fix) || fix.iter().any(|e| conflicts(&kept, e.span)) {
            continue;
        }
        kept.extend(fix.into_iter().map(|e| ((e.span.start, e.span.end), e)));
        applied.push(n);
    }
    let mut out = String::with_capacity(text.len() + 64);
    let mut at = 0;
    for edit in kept.values() {
        out.push_str(&text[at..edit.span.start]);
        out.push_str(&edit.replacement);
        at = edit.span.end;
    }
    out.push_str(&text[at..]);
    let edits = kept.values().map(|e| (e.span, e.replacement.len())).collect();
    Applied { text: out, fixes: applied, edits }
}

/// Whether `span` overlaps a taken edit, or inserts where one inserts.
fn conflicts(kept: &BTreeMap<(usize, usize), Edit>, span: Span) -> bool {
    // Taken edits are disjoint and sorted, so their ends rise too: walk
    // back from the last that starts by `span.end` while they reach it.
    for (&(start, end), _) in kept.range(..=(span.end, usize::MAX)).rev() {
        if end < span.start {
            break;
        }
        let overlap = start < span.end && span.start < end;
        let same_point = start == span.start && start == end && span.is_empty();
        if overlap || same_point {
            return true;
        }
    }
    false
}

/// A fix's own edits must not overlap each other either.
fn disjoint(fix: &[Edit]) -> bool {
    let mut spans: Vec<Span> = fix.iter().map(|e| e.span).collect();
    spans.sort_by_key(|s| (s.start, s.end));
    spans.windows(2).all(|w| w[0].end <= w[1].start && !(w[0] == w[1] && w[0].is_empty()))
}

/// The number a replacement writes (`180`, `"180"`), to keep the larger.
fn number(replacement: &str) -> Option<i64> {
    replacement.trim_matches(['"', '\'']).parse().ok()
}

/// A unified diff of `path` from `old` to `new`, as `git diff` prints it:
/// an absolute path loses its leading `/` after `a/` and `b/` (git refuses
/// `a//tmp/t.yaml`), so `git apply` or `patch -p1` from `/` applies it.
pub fn unified_diff(path: &Path, old: &str, new: &str) -> String {
    let shown = sqsguard_source::display_path(path);
    let name = shown.trim_start_matches('/');
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

/// Write `new` over `path` ([`sqsguard_source::write_named`]: atomically,
/// keeping the file's mode, owner and hard links), unless the file no
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
    if sqsguard_source::read_named(path).map_err(io)? != old {
        return Ok(Written::ChangedMeanwhile);
    }
    sqsguard_source::write_named(path, new.as_bytes()).map_err(io)?;
    Ok(Written::Fixed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use sqsguard_source::SourceFile;

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
        let fixes = vec![
            vec![edit(text, 3, 5, "180")],
            vec![edit(text, 3, 5, "185")],
            vec![edit(text, 4, 5, "x")],
            vec![edit(text, 9, 10, "3")],
        ];
        let applied = apply(text, fixes);
        assert_eq!((applied.text.as_str(), applied.fixes), ("a: 185\nb: 3\n", vec![0, 1, 3]));
        assert_eq!(applied.edits, vec![(Span::new(3, 5), 3), (Span::new(9, 10), 1)]);
    }

    /// A fix of two edits whose second collides with a taken edit waits
    /// whole: its first edit is not applied alone.
    #[test]
    fn a_fix_is_applied_whole_or_not_at_all() {
        let text = "a: 1\nb: 2\n";
        let fixes = vec![
            vec![edit(text, 10, 10, "c: 3\n")],
            vec![edit(text, 0, 0, "z: 0\n"), edit(text, 10, 10, "d: 4\n")],
            vec![edit(text, 3, 4, "9")],
        ];
        let applied = apply(text, fixes);
        assert_eq!((applied.text.as_str(), applied.fixes), ("a: 9\nb: 2\nc: 3\n", vec![0, 2]));
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
