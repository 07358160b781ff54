//! Source files and positions: byte spans, and their 1-based line/column.
//!
//! The lowest layer. Every value in the model remembers where it came from.
//! For files that is a byte [`Span`] into a [`SourceFile`];
//! [`SourceFile::position`] turns a byte offset into the 1-based line and
//! column (in characters) that diagnostics print, and [`read`] reads
//! templates, modules and plans from disk with their size limits (payload
//! schemas and config files have their own small readers); [`write_named`]
//! writes a whole file the user named: a regular file atomically, keeping
//! its mode, owner and hard links; a device, FIFO or standard output
//! written through; a symlink followed.

mod included;
pub mod lines;
mod overlay;
mod read;
pub mod repository;
mod write;

use std::path::{Path, PathBuf};
use std::sync::Arc;

pub use overlay::{Memo, Overlay, lexical};
pub use read::{
    MAX_PLAN_BYTES, MAX_TEMPLATE_BYTES, NotOpened, NotUtf8, Unreadable, has_infra_extension, has_template_extension,
    is_serverless_code, limit_for, looks_like_infrastructure, mentions_cloudformation, open_regular, plain_io_error,
    read, read_named, special_kind, text_of, too_large,
};
pub use write::write_named;

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
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct Position {
    pub line: usize,
    pub column: usize,
}

/// Where something is in a file, 1-based, the end inclusive: what every
/// output format prints.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Location {
    pub file: String,
    pub line: usize,
    pub column: usize,
    pub end_line: usize,
    pub end_column: usize,
}

/// One file's text, shared cheaply between the model, the rules and the
/// reporters.
pub struct SourceFile {
    /// The path as the user gave it (or as found under a folder they gave).
    pub path: PathBuf,
    pub text: String,
    line_starts: Vec<usize>,
    /// Each character of more than one byte: (its byte offset, the extra
    /// bytes of it and every such character before it). Empty for ASCII
    /// text. Columns count characters, and a plan JSON is one line of
    /// megabytes: with this, a column costs a binary search, not a scan.
    wide: Vec<(usize, usize)>,
    /// The text's length; the text itself may be gone (see [`SourceFile::detached`]).
    len: usize,
    /// The text with its lone CRs made LFs, made when first asked for, and
    /// only for a text that has one (see [`SourceFile::text_with_lf_breaks`]).
    lf_text: std::sync::OnceLock<String>,
    has_lone_cr: bool,
    /// The files whose trees this file's tree holds (a Serverless
    /// `${file(...)}`), each at the offset its spans were moved to (see
    /// [`SourceFile::with_included`]).
    included: Vec<(usize, Source)>,
}

pub type Source = Arc<SourceFile>;

/// The path and size: a model's debug print names its files without
/// repeating their text at every value.
impl std::fmt::Debug for SourceFile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SourceFile").field("path", &self.path).field("len", &self.len).finish()
    }
}

/// A path as printed in findings: forward slashes, as given.
pub fn display_path(path: &Path) -> String {
    path.to_string_lossy().replace('\\', "/")
}

impl SourceFile {
    pub fn new(path: impl Into<PathBuf>, text: String) -> Source {
        let mut line_starts = vec![0];
        line_starts.extend(lines::break_ends(&text));
        let has_lone_cr = lines::has_lone_cr(&text);
        let mut wide = Vec::new();
        if !text.is_ascii() {
            let mut extra = 0;
            for (i, c) in text.char_indices().filter(|(_, c)| !c.is_ascii()) {
                extra += c.len_utf8() - 1;
                wide.push((i, extra));
            }
        }
        let len = text.len();
        Arc::new(SourceFile {
            path: path.into(),
            text,
            line_starts,
            wide,
            len,
            lf_text: std::sync::OnceLock::new(),
            has_lone_cr,
            included: Vec::new(),
        })
    }

    /// The same file's positions without its text: what findings about a
    /// plan of hundreds of megabytes keep, so the text can be freed once it
    /// is read. Locations still work; the text is empty.
    pub fn detached(file: &SourceFile) -> Source {
        Arc::new(SourceFile {
            path: file.path.clone(),
            text: String::new(),
            line_starts: file.line_starts.clone(),
            wide: file.wide.clone(),
            len: file.len,
            lf_text: std::sync::OnceLock::new(),
            has_lone_cr: false,
            included: Vec::new(),
        })
    }

    /// A file of `len` bytes not read into memory (a plan, which its
    /// front-end reads itself), with the `head` that was read to tell what
    /// it is. It locates nothing until read.
    pub(crate) fn unread(path: impl Into<PathBuf>, head: String, len: usize) -> Source {
        Arc::new(SourceFile {
            path: path.into(),
            text: head,
            line_starts: vec![0],
            wide: Vec::new(),
            len,
            lf_text: std::sync::OnceLock::new(),
            has_lone_cr: false,
            included: Vec::new(),
        })
    }

    /// The text as a reader that knows only LF line breaks must be given it
    /// to count the lines this file counts (CR, LF and CRLF): every lone CR
    /// an LF, byte for byte the same length, so offsets still hold. The
    /// text itself when it has no lone CR.
    pub fn text_with_lf_breaks(&self) -> &str {
        if !self.has_lone_cr {
            return &self.text;
        }
        self.lf_text.get_or_init(|| lines::with_lf_breaks(&self.text))
    }

    /// The file's size in bytes, whether or not its text is held.
    pub fn size(&self) -> usize {
        self.len
    }

    /// True when the text is gone (see [`SourceFile::detached`]).
    pub fn is_detached(&self) -> bool {
        self.text.len() != self.len
    }

    /// Whether a byte offset starts a character (what the text would say).
    fn is_char_boundary(&self, at: usize) -> bool {
        if at >= self.len {
            return true;
        }
        if !self.is_detached() {
            return self.text.is_char_boundary(at);
        }
        // A wide character covers start+1 ..= start+extra.
        let n = self.wide.partition_point(|&(i, _)| i < at);
        let Some(&(start, through)) = n.checked_sub(1).and_then(|k| self.wide.get(k)) else { return true };
        let before = n.checked_sub(2).and_then(|k| self.wide.get(k)).map_or(0, |&(_, e)| e);
        at > start + (through - before)
    }

    /// The path as printed in findings: forward slashes, as given.
    pub fn display_path(&self) -> String {
        display_path(&self.path)
    }

    /// Byte offset of the start of a 1-based line (clamped to the text).
    #[cfg(test)]
    fn line_start(&self, line: usize) -> usize {
        let idx = line.saturating_sub(1).min(self.line_starts.len() - 1);
        self.line_starts[idx]
    }

    /// The 0-based index of the line holding a byte offset.
    pub fn line_index(&self, offset: usize) -> usize {
        match self.line_starts.binary_search(&offset.min(self.len)) {
            Ok(i) => i,
            Err(i) => i - 1,
        }
    }

    /// The byte offset where the line of 0-based `index` starts, if there is one.
    pub fn line_offset(&self, index: usize) -> Option<usize> {
        self.line_starts.get(index).copied()
    }

    /// Byte offset of the character at a 1-based line and 0-based character
    /// column, as YAML parsers report them: the inverse of `position`,
    /// which the tests check it against.
    #[cfg(test)]
    fn offset_of_char_column(&self, line: usize, char_col: usize) -> usize {
        let start = self.line_start(line);
        let line_idx = line.saturating_sub(1).min(self.line_starts.len() - 1);
        // The line's last character: before its break (LF, CRLF or CR).
        let end = match self.line_starts.get(line_idx + 1) {
            Some(&next) if next >= 2 && self.text.as_bytes().get(next - 2..next) == Some(b"\r\n") => next - 2,
            Some(&next) => next - 1,
            None => self.len,
        };
        // The first byte offset at or after `start` whose characters since
        // `start` reach `char_col`: chars(start..x) grows with x.
        let (mut lo, mut hi) = (start, end.max(start));
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            if self.chars_between(start, mid) < char_col { lo = mid + 1 } else { hi = mid }
        }
        let mut at = lo.min(self.len);
        while !self.is_char_boundary(at) {
            at += 1;
        }
        at
    }

    /// Characters that start in `from..to` (`from <= to`).
    fn chars_between(&self, from: usize, to: usize) -> usize {
        (to - from) - (self.continuation_bytes_before(to) - self.continuation_bytes_before(from))
    }

    /// The bytes before offset `x` that continue a multi-byte character.
    fn continuation_bytes_before(&self, x: usize) -> usize {
        let n = self.wide.partition_point(|&(i, _)| i < x);
        let Some(&(start, through)) = n.checked_sub(1).and_then(|k| self.wide.get(k)) else { return 0 };
        let before = n.checked_sub(2).and_then(|k| self.wide.get(k)).map_or(0, |&(_, e)| e);
        // A character that `x` cuts in two counts only its bytes before `x`.
        let end = start + (through - before) + 1;
        through - end.saturating_sub(x)
    }

    /// 1-based line and character column of a byte offset.
    pub fn position(&self, offset: usize) -> Position {
        let mut offset = offset.min(self.len);
        // Inside a CRLF, between its two bytes (where a parser that takes
        // the CR into a line comment stops): the line ends at the CR, and
        // a column past it is past the line's end in an editor.
        if offset > 0 && self.text.as_bytes().get(offset - 1..=offset) == Some(b"\r\n") {
            offset -= 1;
        }
        let line_idx = self.line_index(offset);
        let start = self.line_starts[line_idx];
        let mut end = offset;
        while !self.is_char_boundary(end) {
            end -= 1;
        }
        Position { line: line_idx + 1, column: self.chars_between(start, end) + 1 }
    }

    /// Start and end positions of a span. The end is inclusive of the last
    /// character, as `end_column` in the JSON output (an empty span ends
    /// where it starts).
    pub(crate) fn range(&self, span: Span) -> (Position, Position) {
        let start = self.position(span.start);
        if span.is_empty() {
            return (start, start);
        }
        let mut last = span.end.min(self.len).saturating_sub(1).max(span.start);
        while last > span.start && !self.is_char_boundary(last) {
            last -= 1;
        }
        (start, self.position(last))
    }
}

impl SourceFile {
    /// The printed location of a span.
    pub fn location(&self, span: Span) -> Location {
        let (start, end) = self.range(span);
        Location {
            file: self.display_path(),
            line: start.line,
            column: start.column,
            end_line: end.line,
            end_column: end.column,
        }
    }
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
    fn columns_on_long_lines_with_wide_characters() {
        let text = format!("{}é{}ü\nx", "a".repeat(5000), "b".repeat(3000));
        let f = SourceFile::new("t.json", text.clone());
        for (i, _) in text.char_indices() {
            let line_start = text[..i].rfind('\n').map_or(0, |n| n + 1);
            let column = text[line_start..i].chars().count() + 1;
            let line = text[..i].matches('\n').count() + 1;
            assert_eq!(f.position(i), Position { line, column }, "offset {i}");
            assert_eq!(f.offset_of_char_column(line, column - 1), i, "line {line} column {column}");
        }
        assert_eq!(f.offset_of_char_column(1, 1_000_000), 5000 + 2 + 3000 + 2);
        // Inside a character, counting never goes backwards.
        let g = SourceFile::new("t.yaml", "€€a".to_string());
        let counts: Vec<usize> = (0..=g.text.len()).map(|x| g.chars_between(0, x)).collect();
        assert_eq!(counts, vec![0, 1, 1, 1, 2, 2, 2, 3]);
        assert_eq!(g.offset_of_char_column(1, 1), 3);
    }

    #[test]
    fn a_detached_file_locates_as_the_text_did() {
        let text = "a: 1\nné: [é, x]\n€€\n";
        let f = SourceFile::new("t.yaml", text.to_string());
        let d = SourceFile::detached(&f);
        assert!(d.is_detached() && !f.is_detached());
        for start in 0..=text.len() {
            for end in start..=text.len() {
                let span = Span::new(start, end);
                assert_eq!(d.location(span), f.location(span), "{span:?}");
            }
        }
    }

    /// A lone CR ends a line as LF and CRLF do (YAML 1.2, LSP): the
    /// parser's line and column meet the same byte.
    #[test]
    fn every_line_break_ends_a_line() {
        let text = "a: 1\rb: 'x\ry'\r\nc: 3\nd: 4";
        let f = SourceFile::new("t.yaml", text.to_string());
        for (needle, line, column) in [("b:", 2, 1), ("y'", 3, 1), ("c:", 4, 1), ("d:", 5, 1), ("3", 4, 4)] {
            let at = text.find(needle).unwrap();
            assert_eq!(f.position(at), Position { line, column }, "{needle}");
            assert_eq!(f.offset_of_char_column(line, column - 1), at, "{needle}");
        }
        // A column past a line's end stops before its break.
        assert_eq!(f.offset_of_char_column(3, 99), text.find("\r\n").unwrap());
        assert_eq!(f.offset_of_char_column(1, 99), 4);
        assert_eq!(f.text_with_lf_breaks(), "a: 1\nb: 'x\ny'\r\nc: 3\nd: 4");
        // An offset between a CRLF's two bytes is its line's end, as the CR's is.
        let crlf = SourceFile::new("W.java", "ab\r\ncd".to_string());
        assert_eq!((crlf.position(3), crlf.position(4).line), (crlf.position(2), 2));
        let plain = SourceFile::new("t.yaml", "a\r\nb\n".to_string());
        assert!(std::ptr::eq(plain.text_with_lf_breaks(), plain.text.as_str()));
    }

    #[test]
    fn range_end_is_inclusive() {
        let f = SourceFile::new("t.yaml", "key: value\n".to_string());
        let (s, e) = f.range(Span::new(5, 10));
        assert_eq!((s.line, s.column, e.line, e.column), (1, 6, 1, 10));
    }
}
