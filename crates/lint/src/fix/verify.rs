//! The last word before a fixed file is written: lint its fixed text and
//! refuse the pass's fixes of it when the file stopped parsing, or when a
//! finding the pass did not fix is no longer where the edits would have
//! moved it. Either means an edit landed in bytes it was not meant for
//! (as when a parser and the positions once disagreed on what a line is),
//! and writing it would damage the file. As ruff's `lint_fix` reverts a
//! fix that breaks the file, sqsguard does not write it.

use std::collections::{HashMap, HashSet};

use super::plan::FileFix;
use sqsguard_finding::Finding;
use sqsguard_model::Origin;
use sqsguard_source::Span;

/// Whether the fixes of `fixed` may be written: `before` are the findings
/// the fixes were planned from, `after` the findings of the lint of the
/// fixed texts, `read` whether that lint read the file (a template that no
/// longer looks like one is skipped, not linted). The error says why not.
pub(crate) fn check(fixed: &FileFix, before: &[Finding], after: &[Finding], read: bool) -> Result<(), String> {
    let path = &fixed.file.path;
    let here = |f: &&Finding| matches!(&f.origin, Origin::File { file, .. } if file.path == *path);
    if !read {
        return Err("the fixed text is no longer read as a template".into());
    }
    if let Some(broken) = after.iter().filter(here).find(|f| f.is(&sqsguard_rules::UNPARSABLE_FILE.id)) {
        let at = broken.origin.location().map(|l| format!(" (line {}, column {})", l.line, l.column));
        return Err(format!("the fixed text no longer parses{}: {}", at.unwrap_or_default(), broken.full_message()));
    }
    let fixed_now: HashSet<usize> = fixed.fixed.iter().copied().collect();
    let span_of = |f: &Finding| match &f.origin {
        Origin::File { span, .. } => Some(*span),
        Origin::Live(_) => None,
    };
    // The findings here after the fixes, by rule and resource: where each
    // is. Looked up once per finding before, so a file of many findings
    // is checked in time linear in them, not in their square.
    let mut after_here: HashMap<(&str, &str), HashSet<Option<Span>>> = HashMap::new();
    for f in after.iter().filter(here) {
        after_here.entry((f.code(), f.resource.as_str())).or_default().insert(span_of(f));
    }
    let moves = Moves::new(&fixed.edits);
    // A finding fixed by an edit elsewhere (a key added to its resource, a
    // Parameter's Default) is gone after it, or has moved to what the edit
    // wrote (SQS001 again, for a window another fix added). Still where it
    // was, the edit missed what it was for.
    for finding in fixed.fixed.iter().filter_map(|&n| before.get(n)).filter(here) {
        let Some(span) = span_of(finding) else { continue };
        let Some(moved) = moves.moved(span) else { continue };
        if after_here.get(&(finding.code(), finding.resource.as_str())).is_some_and(|at| at.contains(&Some(moved))) {
            let was = fixed.file.position(span.start);
            return Err(format!(
                "the fix of {} of {} (line {}, column {}) did not change what it was for: an edit did not land where it was meant to",
                finding.code(),
                finding.resource,
                was.line,
                was.column
            ));
        }
    }
    for (_, finding) in before.iter().enumerate().filter(|(n, f)| !fixed_now.contains(n) && here(f)) {
        let Origin::File { span, .. } = &finding.origin else { continue };
        // A finding inside an edited span is not followed: its bytes changed.
        let Some(moved) = moves.moved(*span) else { continue };
        let same = after_here.get(&(finding.code(), finding.resource.as_str()));
        // Gone is fine (another fix made it moot); elsewhere is not.
        if same.is_some_and(|at| !at.contains(&Some(moved))) {
            let was = fixed.file.position(span.start);
            return Err(format!(
                "{} of {} (line {}, column {}) would no longer be where the edits put it: an edit did not land where it was meant to",
                finding.code(),
                finding.resource,
                was.line,
                was.column
            ));
        }
    }
    Ok(())
}

/// The edits made (sorted, disjoint: span and replacement length), with
/// how far each one and those before it move the text after them.
struct Moves<'e> {
    edits: &'e [(Span, usize)],
    /// `shifts[i]`: what the first `i` edits add to an offset after them.
    shifts: Vec<isize>,
}

impl<'e> Moves<'e> {
    fn new(edits: &'e [(Span, usize)]) -> Self {
        let mut shifts = Vec::with_capacity(edits.len() + 1);
        let mut shift: isize = 0;
        shifts.push(shift);
        for &(edit, len) in edits {
            shift += len as isize - edit.len() as isize;
            shifts.push(shift);
        }
        Moves { edits, shifts }
    }

    /// Where `span` of the old text is in the new one; `None` when an edit
    /// overlaps it. The edits before it are found by a binary search: they
    /// end by its start (an insertion at the start of an empty span is not
    /// before it), and once one is not, no later one is.
    fn moved(&self, span: Span) -> Option<Span> {
        let before =
            |edit: &Span| edit.end <= span.start && !(edit.is_empty() && edit.start == span.start && span.is_empty());
        let n = self.edits.partition_point(|(edit, _)| before(edit));
        if self.edits.get(n).is_some_and(|(edit, _)| edit.start < span.end) {
            return None;
        }
        let shift = *self.shifts.get(n)?;
        let at = |x: usize| x.checked_add_signed(shift);
        Some(Span::new(at(span.start)?, at(span.end)?))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sqsguard_finding::{FindingData, Severity};
    use sqsguard_source::{Source, SourceFile};

    fn finding(file: &Source, code: &'static str, resource: &str, at: usize) -> Finding {
        Finding::from(FindingData {
            rule: &sqsguard_rules::by_code(code).unwrap().id,
            severity: Severity::Warning,
            resource: resource.into(),
            related: Vec::new(),
            origin: Origin::file(file, Span::new(at, at + 1)),
            message: "m".into(),
            fix: "".into(),
            remedy: None,
            autofix: None,
            context: sqsguard_finding::FindingContext::default(),
        })
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

    fn moved(span: Span, edits: &[(Span, usize)]) -> Option<Span> {
        Moves::new(edits).moved(span)
    }

    /// What the binary search finds, as a walk of every edit in turn does:
    /// the spans of a text of 12 bytes, against edits with insertions at
    /// either end of a span, replacements and an edit at the very start.
    #[test]
    fn moves_agree_with_a_walk_of_every_edit() {
        fn walk(span: Span, edits: &[(Span, usize)]) -> Option<Span> {
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
            Some(Span::new(span.start.checked_add_signed(shift)?, span.end.checked_add_signed(shift)?))
        }
        let cases: [&[(Span, usize)]; 4] = [
            &[],
            &[(Span::new(0, 0), 4), (Span::new(2, 4), 1), (Span::new(4, 4), 2), (Span::new(9, 12), 0)],
            &[(Span::new(0, 3), 0), (Span::new(3, 3), 7), (Span::new(3, 5), 1), (Span::new(12, 12), 3)],
            &[(Span::new(1, 2), 5), (Span::new(6, 6), 1), (Span::new(7, 8), 0), (Span::new(8, 8), 2)],
        ];
        for edits in cases {
            for start in 0..=12 {
                for end in start..=12 {
                    let span = Span::new(start, end);
                    assert_eq!(moved(span, edits), walk(span, edits), "{span:?} in {edits:?}");
                }
            }
        }
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
