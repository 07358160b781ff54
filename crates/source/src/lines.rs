//! Lines as YAML 1.2 and the Language Server Protocol define them: a line
//! ends at LF, at CRLF, or at a CR alone (a classic Mac file, or one CR
//! pasted into a quoted string). Positions, snippets and every edit of a
//! fix count lines through these functions, so none of them can disagree
//! with the parser about which line a byte is on.

/// Whether `b` is a line-break byte (LF or CR).
pub(crate) const fn is_break(b: u8) -> bool {
    b == b'\n' || b == b'\r'
}

/// The offset after each line break of `text`, in order (a CRLF is one
/// break, ending after its LF).
pub fn break_ends(text: &str) -> impl Iterator<Item = usize> + '_ {
    let bytes = text.as_bytes();
    memchr::memchr2_iter(b'\n', b'\r', bytes)
        .filter(move |&i| !(bytes[i] == b'\r' && bytes.get(i + 1) == Some(&b'\n')))
        .map(|i| i + 1)
}

/// Whether `text` holds a CR that is not part of a CRLF.
pub(crate) fn has_lone_cr(text: &str) -> bool {
    let bytes = text.as_bytes();
    memchr::memchr_iter(b'\r', bytes).any(|i| bytes.get(i + 1) != Some(&b'\n'))
}

/// The start of the line that holds `pos`.
pub fn line_start(text: &str, pos: usize) -> usize {
    text.get(..pos).and_then(|t| t.rfind(['\n', '\r'])).map_or(0, |i| i + 1)
}

/// Where the line that holds `pos` ends, before its break (the text's end
/// on the last line).
pub fn content_end(text: &str, pos: usize) -> usize {
    text.get(pos..).and_then(|t| t.find(['\n', '\r'])).map_or(text.len(), |i| pos + i)
}

/// The start of the line after the one that holds `pos`, if there is one.
pub fn next_line(text: &str, pos: usize) -> Option<usize> {
    let at = text.get(pos..)?.find(['\n', '\r'])? + pos;
    Some(if text.as_bytes().get(at..at + 2) == Some(b"\r\n") { at + 2 } else { at + 1 })
}

/// The file's line ending, as its first line ends: `\r\n`, `\r` or `\n`
/// (`\n` for a text of one line). Read from the first line only: a fix is
/// made per finding, and scanning the whole text each time made a big
/// template's fixes quadratic.
pub fn ending(text: &str) -> &'static str {
    let Some(at) = text.find(['\n', '\r']) else { return "\n" };
    match text.as_bytes().get(at..at + 2) {
        Some(b"\r\n") => "\r\n",
        _ if text.as_bytes()[at] == b'\r' => "\r",
        _ => "\n",
    }
}

/// Whether `text` ends with a line break (any of the three).
pub fn ends_with_break(text: &str) -> bool {
    text.as_bytes().last().is_some_and(|&b| is_break(b))
}

/// `text` with every lone CR made an LF, the same length: what readers
/// that know only LF (the code frames' renderer) are given, so that their
/// lines are these lines.
pub(crate) fn with_lf_breaks(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut last = 0;
    for (i, _) in text.match_indices('\r').filter(|&(i, _)| bytes.get(i + 1) != Some(&b'\n')) {
        out.push_str(&text[last..i]);
        out.push('\n');
        last = i + 1;
    }
    out.push_str(&text[last..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_three_breaks_end_lines() {
        let text = "a\nb\r\nc\rd";
        assert_eq!(break_ends(text).collect::<Vec<_>>(), vec![2, 5, 7]);
        assert_eq!(line_start(text, 8), 7);
        assert_eq!(line_start(text, 3), 2);
        assert_eq!(content_end(text, 2), 3);
        assert_eq!(content_end(text, 7), 8);
        assert_eq!(next_line(text, 0), Some(2));
        assert_eq!(next_line(text, 2), Some(5));
        assert_eq!(next_line(text, 5), Some(7));
        assert_eq!(next_line(text, 7), None);
        assert!(has_lone_cr(text) && !has_lone_cr("a\r\nb\n"));
        assert_eq!(with_lf_breaks("a\rb\r\nc\r"), "a\nb\r\nc\n");
    }

    #[test]
    fn the_line_ending_is_the_first_lines() {
        assert_eq!(ending("a: 1\r\nb: 2\r\n"), "\r\n");
        assert_eq!(ending("a: 1\nb: 2\r\n"), "\n");
        assert_eq!(ending("a: 1\rb: 2\r"), "\r");
        assert_eq!(ending("a: 1"), "\n");
        assert_eq!(ending("\r\n"), "\r\n");
        assert_eq!(ending("\r"), "\r");
    }
}
