//! YAML into the spanned [`Node`] tree, through libyaml's event stream
//! (libyaml-rs: libyaml in Rust, kept by the YAML organization; the few
//! calls into it are wrapped once, in [`events`]; the tests are in `tests.rs`).
//!
//! libyaml is what PyYAML, cfn-lint and the SAM CLI read templates with, so
//! a template they accept is accepted here: a flow collection or a quoted
//! scalar may close on a line at its key's column (stricter YAML 1.2
//! parsers refuse that). Scalars are still resolved by the YAML 1.2 core
//! schema below, not by libyaml: `yes` stays a string.
//!
//! Building the tree ourselves (rather than through a DOM crate) gives what
//! templates need: CloudFormation tags rewritten to long form with the
//! tag's own span, duplicate keys refused, a nesting limit, and a budget on
//! alias expansion so a "billion laughs" file is refused instead of eating
//! the machine.

use std::collections::HashMap;

mod events;
mod pieces;

pub use pieces::{parse_in_pieces, try_pieces};

use events::{Event, Events, Mark, Style, YamlError};

use super::{BOM, Entry, Kind, MAX_DEPTH, Node, ParseError, duplicate_key, intrinsic_for_tag};
use sqsguard_source::{SourceFile, Span};

/// What libyaml writes for the core schema's `!!` handle: `!!str` is
/// `tag:yaml.org,2002:str`.
const CORE_TAG: &str = "tag:yaml.org,2002:";

/// Parse the first YAML document of `file` into a tree.
pub fn parse(file: &SourceFile) -> Result<Node, ParseError> {
    Builder::new(file).run()
}

struct Builder<'a> {
    file: &'a SourceFile,
    /// Bytes of the file before what libyaml reads: a byte order mark,
    /// which libyaml would skip without counting it in its offsets.
    base: usize,
    stack: Vec<Frame>,
    anchors: HashMap<String, (Node, usize)>,
    /// Nodes that alias expansion may still create.
    alias_budget: usize,
    /// How deep in the whole document the text read starts (a piece of a
    /// template: [`pieces`]).
    depth_base: usize,
    root: Option<Node>,
}

struct Frame {
    kind: FrameKind,
    start: usize,
    anchor: Option<String>,
    tag: Option<(String, Span)>,
}

enum FrameKind {
    Seq(Vec<Node>),
    Map {
        entries: Vec<Entry>,
        key: Option<Node>,
        /// Where each key was first written, to refuse a second one.
        seen: HashMap<String, Span>,
    },
}

impl<'a> Builder<'a> {
    fn new(file: &'a SourceFile) -> Self {
        Builder {
            file,
            base: if file.text.starts_with(BOM) { BOM.len() } else { 0 },
            stack: Vec::new(),
            anchors: HashMap::new(),
            alias_budget: alias_budget(file.text.len()),
            depth_base: 0,
            root: None,
        }
    }

    fn run(self) -> Result<Node, ParseError> {
        self.run_counted().map(|(root, _)| root)
    }

    /// The tree, and how much of the alias budget its aliases used.
    fn run_counted(mut self) -> Result<(Node, usize), ParseError> {
        let budget = self.alias_budget;
        let file = self.file;
        let mut events = Events::new(file.text.as_bytes().get(self.base..).unwrap_or_default());
        loop {
            let (event, start, end) = events.next().map_err(|e| self.syntax_error(&e))?;
            let span = self.span(start, end);
            match event {
                // Only the first document is read: a template is one.
                Event::DocumentEnd | Event::StreamEnd => break,
                Event::Other => {}
                Event::Scalar { anchor, tag, value, style } => {
                    let span = if value.is_empty() && tag.is_none() && anchor.is_none() {
                        self.empty_span(span, style)
                    } else {
                        self.scalar_span(span, style)
                    };
                    let node = self.scalar(&value, style, tag.as_deref(), span);
                    self.remember(anchor, &node);
                    self.finish(node)?;
                }
                Event::SequenceStart { anchor, tag } => {
                    self.open(FrameKind::Seq(Vec::new()), anchor, tag.as_deref(), span)?;
                }
                Event::MappingStart { anchor, tag } => {
                    let map = FrameKind::Map { entries: Vec::new(), key: None, seen: HashMap::new() };
                    self.open(map, anchor, tag.as_deref(), span)?;
                }
                Event::SequenceEnd | Event::MappingEnd => {
                    let Some(frame) = self.stack.pop() else { continue };
                    let node = self.close(frame, span.start);
                    self.finish(node)?;
                }
                Event::Alias { anchor } => {
                    let Some((node, count)) = self.anchors.get(&anchor) else {
                        return Err(ParseError { message: "alias to an unknown anchor".into(), span });
                    };
                    if *count > self.alias_budget {
                        return Err(ParseError {
                            message: "YAML aliases expand to too many nodes (an alias bomb?); refusing to expand them"
                                .into(),
                            span,
                        });
                    }
                    self.alias_budget -= count;
                    let mut node = node.clone();
                    node.span = span;
                    self.finish(node)?;
                }
            }
        }
        let used = budget - self.alias_budget;
        Ok((self.root.unwrap_or(Node::new(Kind::Null, Span::default())), used))
    }

    /// The byte offset in the file of a libyaml mark (itself a byte offset
    /// into what it read).
    fn offset(&self, mark: Mark) -> usize {
        let at = mark.index.saturating_add(self.base);
        let mut at = at.min(self.file.text.len());
        while !self.file.text.is_char_boundary(at) {
            at -= 1;
        }
        at
    }

    fn span(&self, start: Mark, end: Mark) -> Span {
        let start = self.offset(start);
        Span::new(start, self.offset(end).max(start))
    }

    /// A block scalar (`|`, `>`) starts where its text does, below the
    /// indicator line; a tagged one at its tag.
    fn scalar_span(&self, span: Span, style: Style) -> Span {
        let text = &self.file.text[span.start..span.end];
        if style != Style::Block || !text.starts_with(['|', '>']) {
            return span;
        }
        let Some(header) = text.find(['\n', '\r']) else { return span };
        let body = &text[header..];
        let content = header + (body.len() - body.trim_start().len());
        Span::new((span.start + content).min(span.end), span.end)
    }

    /// A value left empty (`Key:`) is where its colon is.
    fn empty_span(&self, span: Span, style: Style) -> Span {
        if style == Style::Plain && span.is_empty() && self.file.text[..span.start].ends_with(':') {
            Span::new(span.start - 1, span.start - 1)
        } else {
            span
        }
    }

    /// A located sentence for what libyaml refused.
    fn syntax_error(&self, e: &YamlError) -> ParseError {
        let mut message = format!("YAML syntax error: {}", e.problem);
        if let Some(c) = e.value {
            message.push_str(&format!(" (U+{c:04X})"));
        }
        if let Some((context, mark)) = &e.context {
            let line = self.file.position(self.offset(*mark)).line;
            message.push_str(&format!(" ({context} that starts on line {line})"));
        }
        let at = self.offset(e.at);
        ParseError { message, span: Span::new(at, at) }
    }

    fn open(
        &mut self,
        kind: FrameKind,
        anchor: Option<String>,
        tag: Option<&str>,
        span: Span,
    ) -> Result<(), ParseError> {
        if self.depth_base + self.stack.len() >= MAX_DEPTH {
            return Err(ParseError { message: format!("nesting deeper than {MAX_DEPTH} levels"), span });
        }
        let tag = tag.and_then(|t| self.collection_tag(t, span));
        self.stack.push(Frame { kind, start: span.start, anchor, tag });
        Ok(())
    }

    fn remember(&mut self, anchor: Option<String>, node: &Node) {
        if let Some(anchor) = anchor {
            self.anchors.insert(anchor, (node.clone(), node.count()));
        }
    }

    /// The span of a tag written at the start of `span`, and the span of what
    /// follows it.
    fn split_tag(&self, span: Span) -> (Span, Span) {
        let text = &self.file.text[span.start..span.end];
        if !text.starts_with('!') {
            return (Span::new(span.start, span.start), span);
        }
        let tag_len = text.find(|c: char| c.is_whitespace() || c == '[' || c == '{').unwrap_or(text.len());
        let rest = &text[tag_len..];
        let value_start = span.start + tag_len + (rest.len() - rest.trim_start().len());
        (Span::new(span.start, span.start + tag_len), Span::new(value_start.min(span.end), span.end))
    }

    fn collection_tag(&self, tag: &str, span: Span) -> Option<(String, Span)> {
        let long = intrinsic_for_tag(tag.strip_prefix('!')?)?;
        Some((long.to_string(), self.split_tag(span).0))
    }

    fn scalar(&self, value: &str, style: Style, tag: Option<&str>, span: Span) -> Node {
        let Some(tag) = tag else {
            return Node::new(plain_or_string(value, style), span);
        };
        if let Some(core) = tag.strip_prefix(CORE_TAG) {
            let kind = match core {
                "str" => Kind::String(value.to_string()),
                "int" | "float" => Kind::Number(value.to_string()),
                "null" => Kind::Null,
                _ => plain_or_string(value, style),
            };
            return Node::new(kind, span);
        }
        let Some(long) = tag.strip_prefix('!').and_then(intrinsic_for_tag) else {
            // An unknown local tag: keep the value, drop the tag.
            return Node::new(plain_or_string(value, style), span);
        };
        let (tag_span, value_span) = self.split_tag(span);
        let inner = if long == "Fn::GetAtt" {
            // `!GetAtt Res.Attr.Sub` is `["Res", "Attr.Sub"]`.
            let (res, attr) = value.split_once('.').unwrap_or((value, ""));
            let res_span = Span::new(value_span.start, (value_span.start + res.len()).min(value_span.end));
            let attr_span = Span::new((res_span.end + 1).min(value_span.end), value_span.end);
            Node::new(
                Kind::Seq(vec![
                    Node::new(Kind::String(res.to_string()), res_span),
                    Node::new(Kind::String(attr.to_string()), attr_span),
                ]),
                value_span,
            )
        } else {
            Node::new(Kind::String(value.to_string()), value_span)
        };
        wrap(long, tag_span, inner, span)
    }

    fn close(&mut self, frame: Frame, end: usize) -> Node {
        let (kind, last_end) = match frame.kind {
            FrameKind::Seq(items) => {
                let last = items.last().map(|n| n.span.end);
                (Kind::Seq(items), last)
            }
            FrameKind::Map { entries, .. } => {
                let last = entries.last().map(|e| e.value.span.end);
                (Kind::Map(entries), last)
            }
        };
        // Block collections "end" where the next token starts; stop at the
        // last child instead so a span never swallows trailing lines.
        let end = last_end.map_or(end, |l| l.max(frame.start)).max(frame.start);
        let span = Span::new(frame.start, end);
        let node = match frame.tag {
            Some((long, tag_span)) => {
                let inner_start = self.split_tag(span).1.start;
                wrap(&long, tag_span, Node::new(kind, Span::new(inner_start, end)), span)
            }
            None => Node::new(kind, span),
        };
        self.remember(frame.anchor, &node);
        node
    }

    fn finish(&mut self, node: Node) -> Result<(), ParseError> {
        let file = self.file;
        let Some(top) = self.stack.last_mut() else {
            if self.root.is_none() {
                self.root = Some(node);
            }
            return Ok(());
        };
        match &mut top.kind {
            FrameKind::Seq(items) => items.push(node),
            FrameKind::Map { entries, key, seen } => match key.take() {
                None => {
                    // A complex key (a map or list) has no text to repeat.
                    if !matches!(node.kind, Kind::Seq(_) | Kind::Map(_)) {
                        let text = key_text(&node);
                        if let Some(&first) = seen.get(&text) {
                            return Err(duplicate_key(&text, file.position(first.start).line, node.span));
                        }
                        seen.insert(text, node.span);
                    }
                    *key = Some(node);
                }
                Some(k) => entries.push(Entry { key: key_text(&k), key_span: k.span, value: node }),
            },
        }
        Ok(())
    }
}

/// The nodes aliases may create in a text of `len` bytes.
fn alias_budget(len: usize) -> usize {
    100_000 + 2 * len
}

fn wrap(long: &str, tag_span: Span, inner: Node, span: Span) -> Node {
    Node::new(Kind::Map(vec![Entry { key: long.to_string(), key_span: tag_span, value: inner }]), span)
}

fn key_text(key: &Node) -> String {
    match &key.kind {
        Kind::String(s) | Kind::Number(s) => s.clone(),
        Kind::Bool(b) => b.to_string(),
        Kind::Null => String::new(),
        Kind::Seq(_) | Kind::Map(_) => "<complex key>".to_string(),
    }
}
/// YAML 1.2 core schema resolution of an untagged scalar.
fn plain_or_string(value: &str, style: Style) -> Kind {
    if style != Style::Plain {
        return Kind::String(value.to_string());
    }
    match value {
        "" | "~" | "null" | "Null" | "NULL" => Kind::Null,
        "true" | "True" | "TRUE" => Kind::Bool(true),
        "false" | "False" | "FALSE" => Kind::Bool(false),
        _ if looks_numeric(value) => Kind::Number(value.to_string()),
        _ => Kind::String(value.to_string()),
    }
}

fn looks_numeric(s: &str) -> bool {
    let body = s.strip_prefix(['-', '+']).unwrap_or(s);
    if body.is_empty() {
        return false;
    }
    if let Some(hex) = body.strip_prefix("0x") {
        return !hex.is_empty() && hex.chars().all(|c| c.is_ascii_hexdigit());
    }
    if let Some(oct) = body.strip_prefix("0o") {
        return !oct.is_empty() && oct.chars().all(|c| c.is_digit(8));
    }
    if matches!(body, ".inf" | ".Inf" | ".INF") || matches!(s, ".nan" | ".NaN" | ".NAN") {
        return true;
    }
    body.parse::<f64>().is_ok() && body.chars().all(|c| c.is_ascii_digit() || matches!(c, '.' | 'e' | 'E' | '-' | '+'))
}

#[cfg(test)]
mod tests;
