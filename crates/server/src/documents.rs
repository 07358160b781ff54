//! The editor's open documents: their unsaved texts, kept in step with
//! its changes, and positions in them in the units the client counts
//! (UTF-16 code units unless it asked for UTF-8 bytes).

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use lsp_types::{Position, TextDocumentContentChangeEvent, Url};

use sqsguard_source::{Overlay, Source, lexical, lines};

/// How the client counts a position's `character`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Encoding {
    Utf8,
    Utf16,
}

impl Encoding {
    /// The units of `text` (a piece of one line).
    fn units(self, text: &str) -> u32 {
        let n = match self {
            Encoding::Utf8 => text.len(),
            Encoding::Utf16 => text.encode_utf16().count(),
        };
        u32::try_from(n).unwrap_or(u32::MAX)
    }

    /// The byte offset in `line` (a line's text) of `units` units, clamped
    /// to the line and to a character boundary.
    fn offset_in(self, line: &str, units: u32) -> usize {
        let units = units as usize;
        match self {
            Encoding::Utf8 => {
                let mut at = units.min(line.len());
                while !line.is_char_boundary(at) {
                    at -= 1;
                }
                at
            }
            Encoding::Utf16 => {
                let mut counted = 0;
                for (i, c) in line.char_indices() {
                    if counted >= units {
                        return i;
                    }
                    counted += c.len_utf16();
                }
                line.len()
            }
        }
    }
}

/// One open document.
pub(super) struct Document {
    pub(super) uri: Url,
    pub(super) version: i32,
    pub(super) text: String,
    /// The byte offset where each line starts.
    starts: Vec<usize>,
}

impl Document {
    pub(super) fn new(uri: Url, version: i32, text: String) -> Self {
        let starts = line_starts(&text);
        Document { uri, version, text, starts }
    }

    /// Apply the client's changes, in order: a range replaced, or the
    /// whole text.
    pub(super) fn apply(&mut self, version: i32, changes: Vec<TextDocumentContentChangeEvent>, encoding: Encoding) {
        for change in changes {
            match change.range {
                Some(range) => {
                    let start = self.offset(range.start, encoding);
                    let end = self.offset(range.end, encoding).max(start);
                    self.text.replace_range(start..end, &change.text);
                }
                None => self.text = change.text,
            }
            self.starts = line_starts(&self.text);
        }
        self.version = version;
    }

    /// The byte offset of an LSP position (clamped to the text).
    pub(super) fn offset(&self, at: Position, encoding: Encoding) -> usize {
        let Some(&start) = self.starts.get(at.line as usize) else { return self.text.len() };
        let end = self.starts.get(at.line as usize + 1).copied().unwrap_or(self.text.len());
        let line = &self.text[start..end];
        let content = line.trim_end_matches(['\n', '\r']);
        start + encoding.offset_in(content, at.character)
    }

    /// The line (0-based) and its text around a byte offset.
    pub(super) fn line_of(&self, offset: usize) -> (usize, &str) {
        let index = self.starts.partition_point(|&s| s <= offset).saturating_sub(1);
        let start = self.starts[index];
        let end = self.starts.get(index + 1).copied().unwrap_or(self.text.len());
        (index, &self.text[start..end])
    }

    /// The LSP position of a byte offset of the text.
    pub(super) fn position(&self, offset: usize, encoding: Encoding) -> Position {
        let (line, text) = self.line_of(offset);
        let start = self.starts[line];
        let upto = (offset - start).min(text.len());
        Position::new(u32::try_from(line).unwrap_or(u32::MAX), encoding.units(&text[..floor(text, upto)]))
    }
}

/// The LSP position of a byte offset of a linted file (which may be an
/// open document's text, or a file read from disk).
pub(super) fn position_in(file: &Source, offset: usize, encoding: Encoding) -> Position {
    let line = file.line_index(offset);
    let start = file.line_offset(line).unwrap_or(0);
    let line = u32::try_from(line).unwrap_or(u32::MAX);
    if file.is_detached() {
        // The text is gone (a plan of hundreds of megabytes): characters,
        // which are what any ASCII text counts in every encoding.
        let column = file.position(offset).column.saturating_sub(1);
        return Position::new(line, u32::try_from(column).unwrap_or(u32::MAX));
    }
    let text = &file.text;
    let offset = floor(text, offset.min(text.len()));
    // An offset between a CRLF's two bytes is the line's end: the CR is
    // no character of the line an editor shows.
    let upto = &text[start.min(offset)..offset];
    Position::new(line, encoding.units(upto.strip_suffix('\r').unwrap_or(upto)))
}

/// The largest character boundary of `text` at or before `at`.
fn floor(text: &str, mut at: usize) -> usize {
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

fn line_starts(text: &str) -> Vec<usize> {
    std::iter::once(0).chain(lines::break_ends(text)).collect()
}

/// Every open document, by its path.
#[derive(Default)]
pub(super) struct Documents {
    open: HashMap<PathBuf, Document>,
    /// The path each `untitled:` document opened is checked as (kept
    /// once closed: its last diagnostics are cleared under its URI).
    untitled: HashMap<Url, PathBuf>,
}

impl Documents {
    pub(super) fn open(&mut self, path: PathBuf, document: Document) {
        if document.uri.scheme() == UNTITLED {
            self.untitled.insert(document.uri.clone(), path.clone());
        }
        self.open.insert(path, document);
    }

    pub(super) fn close(&mut self, path: &Path) -> Option<Document> {
        self.open.remove(path)
    }

    /// The path of a document's URI: a `file:` URI's, or the one an open
    /// `untitled:` document is checked as.
    pub(super) fn path_of(&self, uri: &Url) -> Option<PathBuf> {
        self.untitled.get(uri).cloned().or_else(|| path_of(uri))
    }

    pub(super) fn get(&self, path: &Path) -> Option<&Document> {
        self.open.get(path)
    }

    pub(super) fn get_mut(&mut self, path: &Path) -> Option<&mut Document> {
        self.open.get_mut(path)
    }

    pub(super) fn paths(&self) -> impl Iterator<Item = &PathBuf> {
        self.open.keys()
    }

    /// The URI of a file: an open document's as the editor spelled it
    /// (a client may key documents by the very string it sent), else one
    /// made from the path.
    pub(super) fn uri_of(&self, path: &Path) -> Option<Url> {
        let path = lexical(path);
        let untitled = || self.untitled.iter().find(|(_, p)| **p == path).map(|(uri, _)| uri.clone());
        self.open.get(&path).map(|d| d.uri.clone()).or_else(untitled).or_else(|| uri_of(&path))
    }

    /// The open texts, standing in for the files on disk.
    pub(super) fn overlay(&self) -> Overlay {
        Overlay::new(self.open.iter().map(|(path, d)| (path.clone(), d.text.clone())).collect())
    }

    /// Each open document's version.
    pub(super) fn versions(&self) -> HashMap<PathBuf, i32> {
        self.open.iter().map(|(path, d)| (path.clone(), d.version)).collect()
    }
}

/// The file path of a `file:` URI, as the linter names it.
pub(super) fn path_of(uri: &Url) -> Option<PathBuf> {
    (uri.scheme() == "file").then(|| uri.to_file_path().ok()).flatten().map(|p| lexical(&p))
}

/// The scheme of a buffer the editor has not saved yet (VS Code's and
/// others' "Untitled-1").
pub(super) const UNTITLED: &str = "untitled";

/// The folder `untitled:` documents are checked in, under the workspace's
/// folder: one that is not on disk, so that a buffer is never taken for a
/// file there (an untitled `.tf` joining the folder's module, say).
pub(super) const UNTITLED_FOLDER: &str = ".sqsguard-untitled";

/// The path an `untitled:` document is checked as: its name (the URI's
/// last segment, other characters than letters, digits, `.`, `-` and `_`
/// made `_`) with its language's extension when the name has none that
/// sqsguard reads, so that the format is told as a file of that name's
/// would be; in a folder of its own (named by a hash of the URI) in
/// [`UNTITLED_FOLDER`] of `root`, so that two buffers never share a path
/// or a Terraform module.
pub(super) fn untitled_path(uri: &Url, language: &str, root: &Path) -> PathBuf {
    let last = uri.path().rsplit(['/', '\\']).next().unwrap_or_default();
    let mut name: String =
        last.chars().map(|c| if c.is_ascii_alphanumeric() || "._-".contains(c) { c } else { '_' }).collect();
    if name.trim_matches('.').is_empty() {
        name = "untitled".to_string();
    }
    let own = {
        use std::hash::{Hash, Hasher};
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        uri.as_str().hash(&mut hasher);
        format!("{:016x}", hasher.finish())
    };
    let path = root.join(UNTITLED_FOLDER).join(own).join(&name);
    let known = sqsguard_source::has_infra_extension(&path)
        || sqsguard_code::is_code_file(&path)
        || sqsguard_lint::is_terraform(&path);
    match extension_of(language) {
        Some(ext) if !known => path.with_file_name(format!("{name}.{ext}")),
        _ => path,
    }
}

/// The extension of an LSP language id's files.
fn extension_of(language: &str) -> Option<&'static str> {
    Some(match language {
        "yaml" | "cloudformation" | "cfn" => "yaml",
        "json" | "jsonc" => "json",
        "terraform" | "hcl" | "tf" => "tf",
        "terraform-vars" | "tfvars" => "tfvars",
        "python" => "py",
        "javascript" | "javascriptreact" => "js",
        "typescript" | "typescriptreact" => "ts",
        "go" => "go",
        "java" => "java",
        _ => return None,
    })
}

/// The `file:` URI of a path.
pub(super) fn uri_of(path: &Path) -> Option<Url> {
    let path = if path.is_absolute() { lexical(path) } else { lexical(&std::env::current_dir().ok()?.join(path)) };
    Url::from_file_path(path).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use lsp_types::Range;

    fn doc(text: &str) -> Document {
        Document::new(Url::parse("file:///t.yaml").unwrap(), 1, text.to_string())
    }

    #[test]
    fn an_untitled_buffer_is_named_for_its_language_in_a_folder_of_its_own() {
        let root = Path::new("/w");
        let at = |uri: &str, language: &str| untitled_path(&Url::parse(uri).unwrap(), language, root);
        let name = |uri: &str, language: &str| at(uri, language).file_name().unwrap().to_str().unwrap().to_string();
        assert_eq!(name("untitled:Untitled-1", "yaml"), "Untitled-1.yaml");
        assert_eq!(name("untitled:Untitled-2", "terraform"), "Untitled-2.tf");
        assert_eq!(name("untitled:/a/serverless.yml", "yaml"), "serverless.yml");
        assert_eq!(name("untitled:app.py", "plaintext"), "app.py");
        assert_eq!(name("untitled:My%20File", "markdown"), "My_20File");
        assert_eq!(name("untitled:..", "json"), "untitled.json");
        let (one, two) = (at("untitled:Untitled-1", "terraform"), at("untitled:Untitled-2", "terraform"));
        assert!(one.starts_with("/w/.sqsguard-untitled") && one.components().count() == 5, "{one:?}");
        assert_ne!(one.parent(), two.parent());
        assert_eq!(one, at("untitled:Untitled-1", "terraform"));
        assert_ne!(at("untitled:/a/serverless.yml", "yaml"), at("untitled:/b/serverless.yml", "yaml"));
    }

    #[test]
    fn utf16_counts_surrogate_pairs_and_utf8_counts_bytes() {
        let d = doc("a: \"😀\" x\nb: 1\n");
        let x = d.text.find('x').unwrap();
        assert_eq!(d.position(x, Encoding::Utf16), Position::new(0, 8));
        assert_eq!(d.position(x, Encoding::Utf8), Position::new(0, 10));
        assert_eq!(d.offset(Position::new(0, 8), Encoding::Utf16), x);
        assert_eq!(d.offset(Position::new(0, 10), Encoding::Utf8), x);
        // Inside the emoji's pair (or its bytes): the next character; past
        // the line's end: its end.
        assert_eq!(d.offset(Position::new(0, 5), Encoding::Utf16), 8);
        assert_eq!(d.offset(Position::new(0, 6), Encoding::Utf8), 4);
        assert_eq!(d.offset(Position::new(0, 99), Encoding::Utf16), 11);
        assert_eq!(d.offset(Position::new(7, 0), Encoding::Utf16), d.text.len());
    }

    #[test]
    fn incremental_changes_apply_in_order_across_cr_lf_and_crlf() {
        let mut d = doc("one\rtwo\r\nthree\n");
        let at = |l, c| Position::new(l, c);
        let change = |start, end, text: &str| TextDocumentContentChangeEvent {
            range: Some(Range::new(start, end)),
            range_length: None,
            text: text.to_string(),
        };
        d.apply(2, vec![change(at(1, 0), at(1, 3), "2"), change(at(2, 0), at(2, 0), ">")], Encoding::Utf16);
        assert_eq!(d.text, "one\r2\r\n>three\n");
        assert_eq!(d.version, 2);
        d.apply(
            3,
            vec![TextDocumentContentChangeEvent { range: None, range_length: None, text: "x".into() }],
            Encoding::Utf16,
        );
        assert_eq!(d.text, "x");
    }
}
