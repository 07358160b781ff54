//! `# sqsguard:ignore CODE[,CODE...] reason` comments, in any file that
//! has `#` (YAML, HCL) or `//` (HCL) line comments. What follows the
//! marker (codes or rule names, then a reason) is read by `check`, which
//! knows the rule catalog.

use sqsguard_model::{Origin, Scope, Suppression, Written};
use sqsguard_source::{Source, Span, lines};

pub(crate) const MARKER: &str = "sqsguard:ignore";

/// Every suppression comment of a file. A comment after code applies to
/// its own line; a comment alone on its line applies to the first line of
/// code after it through a run of comment lines (docs/configuration.md,
/// "Suppressing a finding"). A blank line ends the run: the comment then
/// applies to nothing.
pub fn scan(file: &Source) -> Vec<Suppression> {
    let text = &file.text;
    if !text.contains(MARKER) {
        return Vec::new();
    }
    // Each line without its break, and where it starts; lines end where
    // the file's positions say (LF, CRLF or a lone CR).
    let starts: Vec<usize> = std::iter::once(0).chain(lines::break_ends(text)).collect();
    let lines: Vec<&str> = starts.iter().map(|&start| &text[start..lines::content_end(text, start)]).collect();
    let mut out = Vec::new();
    for (i, (line, &start)) in lines.iter().zip(&starts).enumerate() {
        let Some((code_part, at, body)) = comment(line) else { continue };
        let scope = if code_part.trim().is_empty() {
            next_code_line(&lines[i + 1..]).map_or(Scope::Nowhere, |n| Scope::Line(i + 1 + n + 1))
        } else {
            Scope::Line(i + 1)
        };
        let span = Span::new(start + at, start + line.trim_end().len());
        out.push(Suppression {
            written: Written::Comment(body.trim().to_string()),
            origin: Origin::file(file, span),
            scope,
        });
    }
    out
}

/// (the text before the comment, the comment's byte offset, the text after
/// the marker) when the line has a suppression comment.
fn comment(line: &str) -> Option<(&str, usize, &str)> {
    let m = line.find(MARKER)?;
    let before = &line[..m];
    let trimmed = before.trim_end();
    let at = if trimmed.ends_with('#') {
        trimmed.len() - 1
    } else if trimmed.ends_with("//") {
        trimmed.len() - 2
    } else {
        return None;
    };
    let body = &line[m + MARKER.len()..];
    // `sqsguard:ignore: SQS004` (tflint's style) reads the same.
    Some((&line[..at], at, body.strip_prefix(':').unwrap_or(body)))
}

/// The index in `lines` of the first line of code after a run of comment
/// lines; `None` when a blank line or the end comes first.
fn next_code_line(lines: &[&str]) -> Option<usize> {
    for (n, line) in lines.iter().enumerate() {
        let t = line.trim();
        if t.is_empty() {
            return None;
        }
        if !(t.starts_with('#') || t.starts_with("//")) {
            return Some(n);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use sqsguard_source::SourceFile;

    fn scan_text(text: &str) -> Vec<(String, Option<usize>)> {
        let file = SourceFile::new("t.yaml", text.to_string());
        scan(&file)
            .into_iter()
            .map(|s| match (s.written, s.scope) {
                (Written::Comment(body), Scope::Line(l)) => (body, Some(l)),
                (Written::Comment(body), Scope::Nowhere) => (body, None),
                other => panic!("not a comment: {other:?}"),
            })
            .collect()
    }

    #[test]
    fn a_comment_alone_applies_to_the_code_line_after_its_run_of_comments() {
        let got = scan_text("a: 1\n# sqsguard:ignore SQS004 drained by hand\n# other\n  # more\nQ:\n");
        assert_eq!(got, vec![("SQS004 drained by hand".to_string(), Some(5))]);
    }

    #[test]
    fn a_blank_line_or_the_end_leaves_it_applying_to_nothing() {
        let got = scan_text("a: 1\n# sqsguard:ignore SQS004 drained by hand\n\nQ:\n");
        assert_eq!(got, vec![("SQS004 drained by hand".to_string(), None)]);
        let got = scan_text("Q: 1\n# sqsguard:ignore SQS004 at the end of the file\n");
        assert_eq!(got, vec![("SQS004 at the end of the file".to_string(), None)]);
    }

    #[test]
    fn a_trailing_comment_applies_to_its_line() {
        let got = scan_text("x = 1\nresource \"a\" \"b\" { // sqsguard:ignore sqs004, SQS006\n");
        assert_eq!(got, vec![("sqs004, SQS006".to_string(), Some(2))]);
    }

    #[test]
    fn text_that_is_not_a_comment_is_no_suppression() {
        assert!(scan_text("a: \"sqsguard:ignore SQS004\"\n").is_empty());
    }

    /// Lines are counted as positions count them: a lone CR ends one.
    #[test]
    fn every_line_break_counts_in_the_line_a_comment_applies_to() {
        for nl in ["\n", "\r\n", "\r"] {
            let text = format!("a: 1{nl}# sqsguard:ignore SQS004 why{nl}Q:{nl}R: 2 # sqsguard:ignore SQS006 too{nl}");
            let got = scan_text(&text);
            assert_eq!(got, vec![("SQS004 why".to_string(), Some(3)), ("SQS006 too".to_string(), Some(4))], "{nl:?}");
        }
    }

    #[test]
    fn tflint_style_colon_after_the_marker() {
        let got = scan_text("# sqsguard:ignore: SQS004,short-polling: drained by hand\nQ:\n");
        assert_eq!(got, vec![("SQS004,short-polling: drained by hand".to_string(), Some(2))]);
    }
}
