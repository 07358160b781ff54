//! The last word before a fixed file is written: lint its fixed text and
//! refuse the pass's fixes of it when the file stopped parsing, or when a
//! finding the pass did not fix is no longer where the edits would have
//! moved it. Either means an edit landed in bytes it was not meant for
//! (as when a parser and the positions once disagreed on what a line is),
//! and writing it would damage the file. As ruff's `lint_fix` reverts a
//! fix that breaks the file, sqsguard does not write it.

use std::collections::HashSet;

use super::FileFix;
use crate::finding::Finding;
use crate::model::Origin;
use crate::source::Span;

/// Whether the fixes of `fixed` may be written: `before` are the findings
/// the fixes were planned from, `after` the findings of the lint of the
/// fixed texts, `read` whether that lint read the file (a template that no
/// longer looks like one is skipped, not linted). The error says why not.
pub fn check(fixed: &FileFix, before: &[Finding], after: &[Finding], read: bool) -> Result<(), String> {
    let path = &fixed.file.path;
    let here = |f: &&Finding| matches!(&f.origin, Origin::File { file, .. } if file.path == *path);
    if !read {
        return Err("the fixed text is no longer read as a template".into());
    }
    if let Some(broken) = after.iter().filter(here).find(|f| f.code == "SQS000") {
        let at = broken.origin.location().map(|l| format!(" (line {}, column {})", l.line, l.column));
        return Err(format!("the fixed text no longer parses{}: {}", at.unwrap_or_default(), broken.message));
    }
    let fixed_now: HashSet<usize> = fixed.fixed.iter().copied().collect();
    let after_here: Vec<&Finding> = after.iter().filter(here).collect();
    let span_of = |f: &Finding| match &f.origin {
        Origin::File { span, .. } => Some(*span),
        Origin::Live(_) => None,
    };
    // A finding fixed by an edit elsewhere (a key added to its resource, a
    // Parameter's Default) is gone after it, or has moved to what the edit
    // wrote (SQS001 again, for a window another fix added). Still where it
    // was, the edit missed what it was for.
    for finding in fixed.fixed.iter().filter_map(|&n| before.get(n)).filter(here) {
        let Some(span) = span_of(finding) else { continue };
        let Some(moved) = moved(span, &fixed.edits) else { continue };
        if after_here
            .iter()
            .any(|f| f.code == finding.code && f.resource == finding.resource && span_of(f) == Some(moved))
        {
            let was = fixed.file.position(span.start);
            return Err(format!(
                "the fix of {} of {} (line {}, column {}) did not change what it was for: an edit did not land where it was meant to",
                finding.code, finding.resource, was.line, was.column
            ));
        }
    }
    for (_, finding) in before.iter().enumerate().filter(|(n, f)| !fixed_now.contains(n) && here(f)) {
        let Origin::File { span, .. } = &finding.origin else { continue };
        // A finding inside an edited span is not followed: its bytes changed.
        let Some(moved) = moved(*span, &fixed.edits) else { continue };
        let same: Vec<&&Finding> =
            after_here.iter().filter(|f| f.code == finding.code && f.resource == finding.resource).collect();
        // Gone is fine (another fix made it moot); elsewhere is not.
        if !same.is_empty() && !same.iter().any(|f| span_of(f) == Some(moved)) {
            let was = fixed.file.position(span.start);
            return Err(format!(
                "{} of {} (line {}, column {}) would no longer be where the edits put it: an edit did not land where it was meant to",
                finding.code, finding.resource, was.line, was.column
            ));
        }
    }
    Ok(())
}

/// Where `span` of the old text is in the new one, given the edits made
/// (sorted, disjoint: span and replacement length); `None` when an edit
/// overlaps it.
fn moved(span: Span, edits: &[(Span, usize)]) -> Option<Span> {
    let mut shift: isize = 0;
    for &(edit, len) in edits {
        if edit.end <= span.start && !(edit.is_empty() && edit.start == span.start && span.is_empty()) {
            shift += len as isize - edit.len() as isize;
        } else if edit.start >= span.end {
            break;
        } else {
            return None;
        }
    }
    let at = |x: usize| x.checked_add_signed(shift);
    Some(Span::new(at(span.start)?, at(span.end)?))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::finding::Severity;
    use crate::source::{Source, SourceFile};

    fn finding(file: &Source, code: &'static str, resource: &str, at: usize) -> Finding {
        Finding {
            code,
            name: "n",
            severity: Severity::Warning,
            resource: resource.into(),
            related: Vec::new(),
            origin: Origin::file(file, Span::new(at, at + 1)),
            message: "m".into(),
            fix: String::new(),
            remedy: None,
        }
    }

    /// One fix (finding 0) that writes two more bytes at offset 3, and an
    /// unfixed finding (1) at offset 10.
    fn case() -> (FileFix, Vec<Finding>) {
        let file = SourceFile::new("t.yaml", "a: 1\nb: 2\nc: 3\n".to_string());
        let fixed = FileFix {
            file: file.clone(),
            text: "a: 100\nb: 2\nc: 3\n".into(),
            fixed: vec![0],
            edits: vec![(Span::new(3, 4), 3)],
        };
        (fixed, vec![finding(&file, "SQS001", "Q", 3), finding(&file, "SQS006", "Q", 10)])
    }

    #[test]
    fn a_finding_where_the_edits_put_it_or_gone_passes() {
        let (fixed, before) = case();
        let after_file = SourceFile::new("t.yaml", fixed.text.clone());
        assert_eq!(check(&fixed, &before, &[finding(&after_file, "SQS006", "Q", 12)], true), Ok(()));
        assert_eq!(check(&fixed, &before, &[], true), Ok(()));
        // Another resource's finding elsewhere says nothing of this one.
        assert_eq!(check(&fixed, &before, &[finding(&after_file, "SQS006", "R", 0)], true), Ok(()));
    }

    #[test]
    fn a_finding_that_did_not_move_with_the_edits_refuses_the_fix() {
        let (fixed, before) = case();
        let after_file = SourceFile::new("t.yaml", fixed.text.clone());
        let why = check(&fixed, &before, &[finding(&after_file, "SQS006", "Q", 10)], true).unwrap_err();
        assert!(why.contains("SQS006 of Q (line 3, column 1)"), "{why}");
    }

    /// The fix's own finding still where it was: its edit went elsewhere.
    #[test]
    fn a_fixed_finding_left_where_it_was_refuses_the_fix() {
        let (mut fixed, before) = case();
        let after_file = SourceFile::new("t.yaml", fixed.text.clone());
        // The edit at 3..4 did not cover finding 1 at 10; say it fixed it.
        fixed.fixed = vec![1];
        let why = check(&fixed, &before, &[finding(&after_file, "SQS006", "Q", 12)], true).unwrap_err();
        assert!(why.starts_with("the fix of SQS006 of Q (line 3, column 1) did not change"), "{why}");
        assert_eq!(check(&fixed, &before, &[], true), Ok(()), "gone, as it should be");
        // Fixed by the edit over it and found again there (a later value).
        fixed.fixed = vec![0];
        assert_eq!(check(&fixed, &before, &[finding(&after_file, "SQS001", "Q", 3)], true), Ok(()));
    }

    #[test]
    fn a_fixed_text_that_no_longer_parses_or_reads_refuses_the_fix() {
        let (fixed, before) = case();
        let after_file = SourceFile::new("t.yaml", fixed.text.clone());
        let why = check(&fixed, &before, &[finding(&after_file, "SQS000", "", 7)], true).unwrap_err();
        assert!(why.starts_with("the fixed text no longer parses (line 2, column 1)"), "{why}");
        assert!(check(&fixed, &before, &[], false).is_err());
    }

    #[test]
    fn spans_move_with_the_edits_before_them() {
        let edits = [(Span::new(2, 4), 5), (Span::new(10, 10), 3)];
        assert_eq!(moved(Span::new(0, 2), &edits), Some(Span::new(0, 2)));
        assert_eq!(moved(Span::new(5, 7), &edits), Some(Span::new(8, 10)));
        assert_eq!(moved(Span::new(10, 12), &edits), Some(Span::new(16, 18)));
        assert_eq!(moved(Span::new(3, 6), &edits), None, "overlapping");
        assert_eq!(moved(Span::new(6, 10), &edits), Some(Span::new(9, 13)), "an insertion at its end");
    }
}
