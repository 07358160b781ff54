//! A large YAML template parsed a piece at a time, for `sqsguard server`:
//! at each keystroke the editor's text is parsed again, and a template of
//! 500 resources (1 MB) spent most of a check in libyaml. Its text is cut
//! where a top-level key starts, and a large top-level mapping
//! (`Resources:`) where each of its keys starts; each piece is parsed on
//! its own, through the overlay's memo, so an edit parses the one piece
//! it touched and the others are copied from the last parse.
//!
//! The tree is the one [`super::parse`] makes, spans included, or the
//! whole text is parsed as usual: the cuts are taken only where YAML's
//! indentation rules put a key's start (a line at the mapping's column
//! that starts with a plain key), and anything a piece cannot say alone
//! sends the text to the whole parse: a piece that does not parse (a cut
//! inside a quoted or flow scalar, an alias of another piece's anchor), a
//! key written twice across pieces, aliases past the file's budget,
//! directives, documents, a byte order mark, tabs, a bare CR. Errors are
//! always the whole parse's. tests/it/yaml_pieces.rs compares the two trees
//! for every prefix of every corpus template.

use std::collections::HashSet;
use std::ops::Range;
use std::sync::Arc;

use super::{BOM, Builder, Entry, Kind, Node, ParseError, alias_budget, parse};
use sqsguard_source::{Overlay, SourceFile, Span};

/// Texts smaller than this are parsed whole, and top-level values smaller
/// than this are not cut further: pieces pay off on large templates only.
const SMALL: usize = 32 * 1024;

/// A parsed piece: its tree (spans from the piece's start) and the alias
/// budget it used.
type Parsed = (Node, usize);

/// Parse `file` as [`super::parse`] does, in pieces through `overlay`'s
/// memo when it has one and the text is large.
pub fn parse_in_pieces(file: &SourceFile, overlay: &Overlay) -> Result<Node, ParseError> {
    // Without a memo nothing is kept for the next run: cutting would be
    // work for nothing.
    if file.text.len() < 2 * SMALL || !overlay.memoizes() {
        return parse(file);
    }
    match try_pieces(file, overlay, SMALL) {
        Some(root) => Ok(root),
        None => parse(file),
    }
}

/// The tree of `file` made from pieces (top-level values of `small`
/// bytes or more cut into their keys), or `None` where the whole text
/// must be parsed (see the module's doc). Public for the tests that hold
/// it to [`super::parse`].
pub fn try_pieces(file: &SourceFile, overlay: &Overlay, small: usize) -> Option<Node> {
    let text = file.text.as_str();
    let plan = plan(text, small)?;
    let pieces: Vec<(&str, u8)> = plan.pieces.iter().map(|(range, nested)| (&text[range.clone()], *nested)).collect();
    let budget = alias_budget(text.len());
    let parsed =
        overlay.pieces(&file.path, &pieces, |piece, nested| parse_piece(&file.path, piece, nested, budget))?.ok()?;
    let used: usize = parsed.iter().map(|p| p.1).sum();
    if used > budget {
        return None;
    }
    assemble(&plan, &parsed)
}

fn parse_piece(path: &std::path::Path, piece: &str, nested: u8, budget: usize) -> Result<Parsed, ParseError> {
    let file = SourceFile::new(path, piece.to_string());
    let mut builder = Builder::new(&file);
    builder.alias_budget = budget;
    builder.depth_base = usize::from(nested);
    builder.run_counted()
}

/// Where the text is cut.
struct Plan {
    /// Each piece's bytes, and 1 where it holds keys of a top-level value
    /// (its tree is one level down in the document), else 0.
    pieces: Vec<(Range<usize>, u8)>,
    /// The top-level keys, in order: each one's pieces (the first holds
    /// the key's line).
    groups: Vec<Range<usize>>,
}

fn plan(text: &str, small: usize) -> Option<Plan> {
    if text.starts_with(BOM) || text.as_bytes().windows(2).any(|w| w[0] == b'\r' && w[1] != b'\n') {
        return None;
    }
    if text.ends_with('\r') {
        return None;
    }
    // Each line: its start, its text without the break, its indentation.
    let mut lines: Vec<(usize, &str, usize)> = Vec::new();
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        let content = line.trim_end_matches(['\n', '\r']);
        let indent = content.len() - content.trim_start_matches(' ').len();
        let rest = &content[indent..];
        if rest.starts_with('\t')
            || (indent == 0 && (rest.starts_with("---") || rest.starts_with("...") || rest.starts_with('%')))
        {
            return None;
        }
        lines.push((at, content, indent));
        at += line.len();
    }
    let is_content = |content: &str, indent: usize| {
        let rest = &content[indent..];
        !rest.is_empty() && !rest.starts_with('#')
    };
    // Top-level keys: every content line at column 0 must start one.
    let mut tops: Vec<usize> = Vec::new();
    for (i, &(_, content, indent)) in lines.iter().enumerate() {
        if !is_content(content, indent) {
            continue;
        }
        if indent == 0 {
            if !starts_key(content) {
                return None;
            }
            tops.push(i);
        } else if tops.is_empty() {
            // An indented first key: a document this does not cut.
            return None;
        }
    }
    if tops.is_empty() {
        return None;
    }
    let start_of = |i: usize| lines.get(i).map_or(text.len(), |l| l.0);
    let mut plan = Plan { pieces: Vec::new(), groups: Vec::new() };
    for (k, &top) in tops.iter().enumerate() {
        // The first piece holds what comes before the first key too.
        let begin = if k == 0 { 0 } else { start_of(top) };
        let next = tops.get(k + 1).copied().unwrap_or(lines.len());
        let end = start_of(next);
        let first = plan.pieces.len();
        let cuts = if end - begin >= small { cuts(&lines[top..next], lines[top].1) } else { Vec::new() };
        let mut from = begin;
        for cut in cuts {
            let at = lines[top + cut].0;
            plan.pieces.push((from..at, u8::from(from != begin)));
            from = at;
        }
        plan.pieces.push((from..end, u8::from(from != begin)));
        plan.groups.push(first..plan.pieces.len());
    }
    Some(plan)
}

/// The lines (indices into `lines`, the top-level key's line first) where
/// the keys of its block mapping value start, but the first: none when
/// the key's line holds more than the key or its value is no mapping.
fn cuts(lines: &[(usize, &str, usize)], key_line: &str) -> Vec<usize> {
    let after = key_line.split_once(':').map_or("", |(_, rest)| rest).trim_start();
    if !(after.is_empty() || after.starts_with('#')) {
        return Vec::new();
    }
    fn content<'a>(&(_, text, indent): &(usize, &'a str, usize)) -> Option<(usize, &'a str)> {
        let rest = &text[indent..];
        (!rest.is_empty() && !rest.starts_with('#')).then_some((indent, rest))
    }
    let Some((column, first)) = lines.iter().skip(1).find_map(content) else { return Vec::new() };
    if column == 0 || !starts_key(first) {
        return Vec::new();
    }
    let mut out = Vec::new();
    let mut seen_first = false;
    for (i, line) in lines.iter().enumerate().skip(1) {
        let Some((indent, rest)) = content(line) else { continue };
        if indent < column {
            // Less indented than the mapping's keys: not a plain mapping.
            return Vec::new();
        }
        if indent == column && starts_key(rest) {
            if seen_first {
                out.push(i);
            }
            seen_first = true;
        }
    }
    out
}

/// Whether a line's text (from its indentation) starts a plain key of a
/// block mapping: `Name:`, then the line's end or a space.
fn starts_key(rest: &str) -> bool {
    let Some((key, after)) = rest.split_once(':') else { return false };
    !key.is_empty()
        && key.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.' | b'/'))
        && (after.is_empty() || after.starts_with(' '))
}

/// The document's tree from its pieces' trees, or `None` where they do
/// not make one mapping of unique keys.
fn assemble(plan: &Plan, parsed: &[Arc<Parsed>]) -> Option<Node> {
    let mut top: Vec<Entry> = Vec::with_capacity(plan.groups.len());
    let mut root_start = None;
    for group in &plan.groups {
        let first = group.start;
        let (range, _) = &plan.pieces[first];
        let (node, _) = &*parsed[first];
        let Kind::Map(entries) = &node.kind else { return None };
        root_start.get_or_insert(node.span.start + range.start);
        if group.len() == 1 {
            top.extend(entries.iter().map(|e| shifted_entry(e, range.start)));
            continue;
        }
        // A cut value: its first piece is `Key:` and the value's first
        // key; each other piece holds more keys of that value.
        let [entry] = entries.as_slice() else { return None };
        let Kind::Map(head) = &entry.value.kind else { return None };
        let mut inner: Vec<Entry> = head.iter().map(|e| shifted_entry(e, range.start)).collect();
        let inner_start = entry.value.span.start + range.start;
        for i in group.clone().skip(1) {
            let (range, _) = &plan.pieces[i];
            let Kind::Map(more) = &parsed[i].0.kind else { return None };
            inner.extend(more.iter().map(|e| shifted_entry(e, range.start)));
        }
        unique(&inner)?;
        let end = inner.last().map_or(inner_start, |e| e.value.span.end.max(inner_start));
        let value = Node::new(Kind::Map(inner), Span::new(inner_start, end));
        let key_span = Span::new(entry.key_span.start + range.start, entry.key_span.end + range.start);
        top.push(Entry { key: entry.key.clone(), key_span, value });
    }
    unique(&top)?;
    let start = root_start?;
    let end = top.last().map_or(start, |e| e.value.span.end.max(start));
    Some(Node::new(Kind::Map(top), Span::new(start, end)))
}

/// `Some` when no key is written twice (the whole parse refuses that,
/// and says where).
fn unique(entries: &[Entry]) -> Option<()> {
    let mut seen = HashSet::with_capacity(entries.len());
    entries.iter().all(|e| seen.insert(e.key.as_str())).then_some(())
}

fn shifted_entry(entry: &Entry, by: usize) -> Entry {
    Entry {
        key: entry.key.clone(),
        key_span: Span::new(entry.key_span.start + by, entry.key_span.end + by),
        value: shifted(&entry.value, by),
    }
}

/// A copy of `node` with its spans (and its children's) `by` bytes later.
fn shifted(node: &Node, by: usize) -> Node {
    let kind = match &node.kind {
        Kind::Seq(items) => Kind::Seq(items.iter().map(|n| shifted(n, by)).collect()),
        Kind::Map(entries) => Kind::Map(entries.iter().map(|e| shifted_entry(e, by)).collect()),
        other => other.clone(),
    };
    Node::new(kind, Span::new(node.span.start + by, node.span.end + by))
}
