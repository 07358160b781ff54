//! Source files and positions: byte spans, and their 1-based line/column.
//!
//! Every value in the model remembers where it came from. For files that is a
//! byte [`Span`] into a [`SourceFile`]; [`SourceFile::position`] turns a byte
//! offset into the 1-based line and column (in characters) that diagnostics
//! print.

use std::path::{Path, PathBuf};
use std::sync::Arc;

/// A half-open byte range `start..end` into a source file.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Span {
    pub start: usize,
    pub end: usize,
}

impl Span {
    pub const fn new(start: usize, end: usize) -> Self {
        Span { start, end }
    }

    pub fn len(&self) -> usize {
        self.end.saturating_sub(self.start)
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// A 1-based line and column (the column counts characters, as editors do).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Position {
    pub line: usize,
    pub column: usize,
}

/// One file's text, shared cheaply between the model, the rules and the
/// reporters.
#[derive(Debug)]
pub struct SourceFile {
    /// The path as the user gave it (or as found under a folder they gave).
    pub path: PathBuf,
    pub text: String,
    line_starts: Vec<usize>,
}

pub type Source = Arc<SourceFile>;

/// A path as printed in findings: forward slashes, as given.
pub fn display_path(path: &Path) -> String {
    path.to_string_lossy().replace('\\', "/")
}

impl SourceFile {
    pub fn new(path: impl Into<PathBuf>, text: String) -> Source {
        let mut line_starts = vec![0];
        line_starts.extend(memchr_newlines(&text));
        Arc::new(SourceFile { path: path.into(), text, line_starts })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The path as printed in findings: forward slashes, as given.
    pub fn display_path(&self) -> String {
        display_path(&self.path)
    }

    /// Byte offset of the start of a 1-based line (clamped to the text).
    pub fn line_start(&self, line: usize) -> usize {
        let idx = line.saturating_sub(1).min(self.line_starts.len() - 1);
        self.line_starts[idx]
    }

    /// Byte offset of the character at a 1-based line and 0-based character
    /// column, as YAML parsers report them.
    pub fn offset_of_char_column(&self, line: usize, char_col: usize) -> usize {
        let start = self.line_start(line);
        let rest = &self.text[start..];
        let end_of_line = rest.find('\n').map_or(rest.len(), |i| i);
        let line_text = &rest[..end_of_line];
        if line_text.is_ascii() {
            return start + char_col.min(line_text.len());
        }
        match line_text.char_indices().nth(char_col) {
            Some((i, _)) => start + i,
            None => start + line_text.len(),
        }
    }

    /// 1-based line and character column of a byte offset.
    pub fn position(&self, offset: usize) -> Position {
        let offset = offset.min(self.text.len());
        let line_idx = match self.line_starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i - 1,
        };
        let start = self.line_starts[line_idx];
        let mut end = offset;
        while !self.text.is_char_boundary(end) {
            end -= 1;
        }
        let column = self.text[start..end].chars().count() + 1;
        Position { line: line_idx + 1, column }
    }

    /// Start and end positions of a span. The end is inclusive of the last
    /// character, as `end_column` in the JSON output (an empty span ends
    /// where it starts).
    pub fn range(&self, span: Span) -> (Position, Position) {
        let start = self.position(span.start);
        if span.is_empty() {
            return (start, start);
        }
        let mut last = span.end.min(self.text.len()).saturating_sub(1).max(span.start);
        while last > span.start && !self.text.is_char_boundary(last) {
            last -= 1;
        }
        (start, self.position(last))
    }
}

fn memchr_newlines(text: &str) -> impl Iterator<Item = usize> + '_ {
    text.bytes().enumerate().filter(|&(_, b)| b == b'\n').map(|(i, _)| i + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_count_characters_not_bytes() {
        let f = SourceFile::new("t.yaml", "a: 1\nné: 2\n".to_string());
        assert_eq!(f.position(0), Position { line: 1, column: 1 });
        // "2" on line 2 is byte 10 (n, é=2 bytes, :, space) and column 5.
        let two = f.text.find('2').unwrap();
        assert_eq!(f.position(two), Position { line: 2, column: 5 });
        assert_eq!(f.offset_of_char_column(2, 4), two);
    }

    #[test]
    fn range_end_is_inclusive() {
        let f = SourceFile::new("t.yaml", "key: value\n".to_string());
        let (s, e) = f.range(Span::new(5, 10));
        assert_eq!((s.line, s.column, e.line, e.column), (1, 6, 1, 10));
    }
}
