//! `# sqsguard:ignore CODE[,CODE...] reason` comments, in any file that
//! has `#` (YAML, HCL) or `//` (HCL) line comments. What follows the
//! marker (codes or rule names, then a reason) is read by `check`, which
//! knows the rule catalog.

use crate::model::{Origin, Scope, Suppression, Written};
use crate::source::{Source, Span};

const MARKER: &str = "sqsguard:ignore";

/// Every suppression comment of a file. A comment after code applies to
/// its own line; a comment alone on its line applies to the next line
/// that is neither blank nor a comment.
pub fn scan(file: &Source) -> Vec<Suppression> {
    let text = &file.text;
    if !text.contains(MARKER) {
        return Vec::new();
    }
    let lines: Vec<&str> = text.split('\n').collect();
    let mut out = Vec::new();
    let mut offset = 0;
    for (i, line) in lines.iter().enumerate() {
        let start = offset;
        offset += line.len() + 1;
        let Some((code_part, at, body)) = comment(line) else { continue };
        let target = if code_part.trim().is_empty() {
            match lines[i + 1..].iter().position(|l| !is_blank_or_comment(l)) {
                Some(n) => i + 1 + n,
                None => continue,
            }
        } else {
            i
        };
        let span = Span::new(start + at, start + line.trim_end().len());
        out.push(Suppression {
            written: Written::Comment(body.trim().to_string()),
            origin: Origin::file(file, span),
            scope: Scope::Line(target + 1),
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

fn is_blank_or_comment(line: &str) -> bool {
    let t = line.trim_start();
    t.is_empty() || t.starts_with('#') || t.starts_with("//")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::SourceFile;

    fn scan_text(text: &str) -> Vec<(String, usize)> {
        let file = SourceFile::new("t.yaml", text.to_string());
        scan(&file)
            .into_iter()
            .map(|s| match (s.written, s.scope) {
                (Written::Comment(body), Scope::Line(l)) => (body, l),
                other => unreachable!("{other:?}"),
            })
            .collect()
    }

    #[test]
    fn a_comment_alone_applies_to_the_next_code_line() {
        let got = scan_text("a: 1\n# sqsguard:ignore SQS004 drained by hand\n\n# other\nQ:\n");
        assert_eq!(got, vec![("SQS004 drained by hand".to_string(), 5)]);
    }

    #[test]
    fn a_trailing_comment_applies_to_its_line() {
        let got = scan_text("x = 1\nresource \"a\" \"b\" { // sqsguard:ignore sqs004, SQS006\n");
        assert_eq!(got, vec![("sqs004, SQS006".to_string(), 2)]);
    }

    #[test]
    fn text_that_is_not_a_comment_is_no_suppression() {
        assert!(scan_text("a: \"sqsguard:ignore SQS004\"\n").is_empty());
        assert!(scan_text("# sqsguard:ignore SQS004 at the end of the file\n").is_empty());
    }

    #[test]
    fn tflint_style_colon_after_the_marker() {
        let got = scan_text("# sqsguard:ignore: SQS004,short-polling: drained by hand\nQ:\n");
        assert_eq!(got, vec![("SQS004,short-polling: drained by hand".to_string(), 2)]);
    }
}
