//! The part of a long line a code frame shows. A finding in a one-line
//! document (a plan from `terraform show -json`, minified JSON) would
//! otherwise print the whole line: megabytes of log for one finding. A
//! line longer than [`WIDEST`] bytes is cut to at most that much around
//! the finding, with `…` where it was cut, and without context lines.

use sqsguard_source::SourceFile;

/// The most of one line a code frame shows, in bytes.
pub(crate) const WIDEST: usize = 200;

/// How much of the finding's own span is underlined, at most.
const UNDERLINED: usize = 100;

/// A cut line: its text (with `…` marks), the file offset its first byte
/// stands for, its line and the finding's column (0-based), and the span
/// to underline.
pub(crate) struct Excerpt {
    pub text: String,
    pub start: usize,
    pub line: usize,
    pub column: usize,
    pub label: (usize, usize),
}

const MARK: &str = "… ";
const END_MARK: &str = " …";

/// The excerpt of the span `start..start + len` of `file`, when the line
/// it starts on is longer than [`WIDEST`]; `None` when the whole line is
/// shown.
pub(crate) fn of(file: &SourceFile, start: usize, len: usize) -> Option<Excerpt> {
    let text = file.text_with_lf_breaks();
    let start = start.min(text.len());
    let line = file.line_index(start);
    let line_start = file.line_offset(line).unwrap_or(0);
    let line_end = match file.line_offset(line + 1) {
        Some(next) => next.saturating_sub(1).max(line_start),
        None => text.len(),
    };
    if line_end - line_start <= WIDEST {
        return None;
    }
    let underlined = len.min(UNDERLINED).min(line_end - start);
    // As much before the span as after it, in WIDEST bytes.
    let room = WIDEST.saturating_sub(underlined) / 2;
    let mut from = floor(text, start.saturating_sub(room).max(line_start));
    let mut to = ceil(text, (start + underlined + room).min(line_end));
    // The mark before stands on bytes of the line before the cut.
    if from < line_start + MARK.len() {
        from = line_start;
    }
    if to > line_end {
        to = line_end;
    }
    let before = if from > line_start { MARK } else { "" };
    let after = if to < line_end { END_MARK } else { "" };
    // The source's index of wide characters: no count along the line.
    let column = file.position(start).column - 1;
    Some(Excerpt {
        text: format!("{before}{}{after}", &text[from..to]),
        start: from - before.len(),
        line,
        column,
        label: (start, underlined.max(usize::from(start < line_end))),
    })
}

/// The nearest character boundary at or before `at`.
fn floor(text: &str, mut at: usize) -> usize {
    while at > 0 && !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// The nearest character boundary at or after `at`.
fn ceil(text: &str, mut at: usize) -> usize {
    while at < text.len() && !text.is_char_boundary(at) {
        at += 1;
    }
    at
}
