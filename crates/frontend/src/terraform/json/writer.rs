//! The HCL writer of a `.tf.json` file: blocks, attributes and values
//! written out as native syntax, each piece remembered in the [`Remap`],
//! JSON strings decoded into templates, `"//"` comment keys read as
//! suppressions.

use super::remap::{Piece, Remap};
use crate::comment::MARKER;
use sqsguard_model::{Origin, Scope as Applies, Suppression, Written};
use sqsguard_source::{Source, Span};
use sqsguard_syntax::{Entry, Kind, Node};

/// How the objects in a block's body are written.
#[derive(Clone, Copy, PartialEq)]
pub(super) enum Body {
    /// Objects are attributes (maps); arrays of objects are repeated blocks.
    Resource,
    /// Everything is an attribute (module arguments, locals, variables).
    Attributes,
    /// Objects are blocks (`default_tags`, `required_providers`).
    Blocks,
}

pub(super) struct Writer<'a> {
    pub(super) source: &'a Source,
    pub(super) hcl: String,
    pub(super) remap: Remap,
    pub(super) suppressions: Vec<Suppression>,
    /// The type of the top-level block being written (`variable`, ...).
    pub(super) block: &'static str,
    /// Strings are written as literal text, not templates (see [`LITERAL`]).
    pub(super) literal: bool,
}

/// Arguments Terraform evaluates without a context: their JSON strings are
/// text, `${` included (a variable's default, a module's source).
const LITERAL: &[(&str, &str)] =
    &[("variable", "default"), ("variable", "description"), ("module", "source"), ("module", "version")];

impl Writer<'_> {
    /// Write `text`, which stands for the JSON at `from`.
    fn put(&mut self, text: &str, from: Span) {
        let piece = Piece { hcl: self.hcl.len(), hcl_len: text.len(), json: from.start, json_len: from.len() };
        self.hcl.push_str(text);
        // Runs copied byte for byte make one piece.
        if let Some(last) = self.remap.pieces.last_mut()
            && last.hcl_len == last.json_len
            && piece.hcl_len == piece.json_len
            && last.hcl + last.hcl_len == piece.hcl
            && last.json + last.json_len == piece.json
        {
            last.hcl_len += piece.hcl_len;
            last.json_len += piece.json_len;
            return;
        }
        self.remap.pieces.push(piece);
    }

    /// Write syntax that stands for no JSON.
    fn glue(&mut self, text: &str) {
        self.hcl.push_str(text);
    }

    /// The blocks under `entry`: `labels` more levels of keys (each level an
    /// object, or an array of them), then a body or an array of bodies.
    pub(super) fn blocks<'n>(&mut self, entry: &'n Entry, path: &mut Vec<&'n Entry>, labels: usize, kind: Body) {
        path.push(entry);
        for level in objects(&entry.value) {
            if path.len() <= labels {
                for inner in level.iter().filter(|e| e.key != "//") {
                    self.blocks(inner, path, labels, kind);
                }
            } else {
                self.block(path, level, kind);
            }
        }
        path.pop();
    }

    /// `type "label" "label" {` body `}`; the block type stands for the
    /// last key, so a block's header spans its name in the JSON.
    fn block(&mut self, path: &[&Entry], body: &[Entry], kind: Body) {
        let Some((first, labels)) = path.split_first() else { return };
        self.block = LITERAL.iter().find(|(block, _)| *block == first.key).map_or("", |(block, _)| block);
        let last = path.last().map_or(first.key_span, |e| e.key_span);
        self.put(&first.key, Span::new(last.start, last.start));
        for label in labels {
            self.glue(" ");
            self.put(&serde_json::to_string(&label.key).unwrap_or_default(), label.key_span);
        }
        self.glue(" {\n");
        if kind == Body::Resource && path.len() == 3 {
            let address = match first.key.as_str() {
                "resource" => format!("{}.{}", path[1].key, path[2].key),
                other => format!("{other}.{}.{}", path[1].key, path[2].key),
            };
            self.comments(body, address);
        }
        self.body(body, kind);
        self.glue("}\n");
    }

    fn body(&mut self, entries: &[Entry], kind: Body) {
        for entry in entries.iter().filter(|e| e.key != "//" && is_identifier(&e.key)) {
            match (&entry.value.kind, kind) {
                // Terraform expands these; sqsguard reads them as unknown.
                (_, Body::Resource) if entry.key == "dynamic" => {
                    self.put(&entry.key, entry.key_span);
                    self.glue(" {\n}\n");
                }
                (Kind::Seq(items), Body::Resource)
                    if !items.is_empty() && items.iter().all(|i| matches!(i.kind, Kind::Map(_))) =>
                {
                    for item in items {
                        self.nested(entry, item.as_map().unwrap_or_default(), Body::Resource);
                    }
                }
                (Kind::Map(inner), Body::Blocks) => self.nested(entry, inner, Body::Attributes),
                // Any nested block may be an array of objects (repeated blocks).
                (Kind::Seq(items), Body::Blocks) if items.iter().all(|i| matches!(i.kind, Kind::Map(_))) => {
                    for item in items {
                        self.nested(entry, item.as_map().unwrap_or_default(), Body::Attributes);
                    }
                }
                _ => {
                    self.put(&entry.key, entry.key_span);
                    self.glue(" = ");
                    self.literal = LITERAL.contains(&(self.block, entry.key.as_str()));
                    self.value(&entry.value);
                    self.literal = false;
                    self.glue("\n");
                }
            }
        }
    }

    fn nested(&mut self, entry: &Entry, body: &[Entry], kind: Body) {
        self.put(&entry.key, entry.key_span);
        self.glue(" {\n");
        self.body(body, kind);
        self.glue("}\n");
    }

    fn value(&mut self, node: &Node) {
        match &node.kind {
            Kind::Seq(items) => {
                self.put("[", Span::new(node.span.start, node.span.start));
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        self.glue(", ");
                    }
                    self.value(item);
                }
                self.put("]", Span::new(node.span.end, node.span.end));
            }
            Kind::Map(entries) => {
                self.put("{", Span::new(node.span.start, node.span.start));
                for entry in entries {
                    self.glue("\n");
                    self.string(entry.key_span);
                    self.glue(" = ");
                    self.value(&entry.value);
                }
                self.glue("\n");
                self.put("}", Span::new(node.span.end, node.span.end));
            }
            Kind::String(_) => self.string(node.span),
            Kind::Null | Kind::Bool(_) | Kind::Number(_) => {
                let raw = self.raw(node.span).to_string();
                self.put(&raw, node.span);
            }
        }
    }

    /// A JSON string as an HCL quoted template. Terraform reads the JSON
    /// string's value as template text: its literal parts are escaped for
    /// HCL's quotes, its `${...}` parts are written as they are (their
    /// quotes are expression syntax, `\"` in the JSON).
    fn string(&mut self, span: Span) {
        let decoded = decode(self.raw(span), span.start);
        self.put("\"", Span::new(span.start, span.start + 1));
        let mut stack: Vec<Mode> = vec![Mode::Literal { top: true }];
        let mut i = 0;
        while let Some(&(c, at)) = decoded.get(i) {
            let next = decoded.get(i + 1).map(|d| d.0);
            let mode = stack.last().copied().unwrap_or(Mode::Literal { top: true });
            let put = |w: &mut Self, text: &str| w.put(text, at);
            match mode {
                Mode::Literal { top } => match (c, next) {
                    // Text that is not a template: `${` is written `$${`.
                    ('$' | '%', Some('{')) if self.literal => put(self, &format!("{c}{c}")),
                    // `$${` and `%%{` are literal `${` and `%{`, in both.
                    ('$' | '%', Some(n))
                        if !self.literal && n == c && decoded.get(i + 2).is_some_and(|d| d.0 == '{') =>
                    {
                        let end = decoded.get(i + 2).map_or(at, |d| d.1);
                        self.put(&format!("{c}{c}{{"), Span::new(at.start, end.end));
                        i += 3;
                        continue;
                    }
                    ('$' | '%', Some('{')) => {
                        let end = decoded.get(i + 1).map_or(at, |d| d.1);
                        self.put(&format!("{c}{{"), Span::new(at.start, end.end));
                        stack.push(Mode::Expression { depth: 0 });
                        i += 2;
                        continue;
                    }
                    ('"', _) if !top => {
                        put(self, "\"");
                        stack.pop();
                    }
                    ('\\', Some(n)) if !top => {
                        let end = decoded.get(i + 1).map_or(at, |d| d.1);
                        self.put(&format!("\\{n}"), Span::new(at.start, end.end));
                        i += 2;
                        continue;
                    }
                    ('"', _) => put(self, "\\\""),
                    ('\\', _) => put(self, "\\\\"),
                    ('\n', _) => put(self, "\\n"),
                    ('\r', _) => put(self, "\\r"),
                    ('\t', _) => put(self, "\\t"),
                    (c, _) if c.is_control() => put(self, &format!("\\u{:04X}", u32::from(c))),
                    (c, _) => put(self, c.encode_utf8(&mut [0; 4])),
                },
                Mode::Expression { depth } => {
                    match (c, stack.last_mut()) {
                        ('{', Some(Mode::Expression { depth })) => *depth += 1,
                        ('}', _) if depth == 0 => {
                            stack.pop();
                        }
                        ('}', Some(Mode::Expression { depth })) => *depth -= 1,
                        ('"', _) => stack.push(Mode::Literal { top: false }),
                        _ => {}
                    }
                    put(self, c.encode_utf8(&mut [0; 4]));
                }
            }
            i += 1;
        }
        self.put("\"", Span::new(span.end.saturating_sub(1), span.end));
    }

    fn raw(&self, span: Span) -> &str {
        self.source.text.get(span.start..span.end).unwrap_or_default()
    }

    /// `"//": "sqsguard:ignore SQS004 reason"` in a resource: a suppression
    /// of the resource at `address` (in its module: the scope adds the
    /// module's prefix), wherever its findings are (a minified file has
    /// every resource on one line).
    fn comments(&mut self, body: &[Entry], address: String) {
        for entry in body.iter().filter(|e| e.key == "//") {
            let texts = match &entry.value.kind {
                Kind::Seq(items) => items.iter().collect(),
                _ => vec![&entry.value],
            };
            for text in texts {
                let Some(at) = text.as_str().and_then(|s| s.find(MARKER).map(|at| (s, at))) else { continue };
                let (s, at) = at;
                self.suppressions.push(Suppression {
                    written: Written::Comment(s[at + MARKER.len()..].trim().to_string()),
                    origin: Origin::file(self.source, text.span),
                    scope: Applies::Resource(address.clone()),
                });
            }
        }
    }
}

/// Where the HCL writer is inside a template.
#[derive(Clone, Copy)]
enum Mode {
    /// Template text: the string itself (`top`), or a string inside an
    /// interpolation.
    Literal { top: bool },
    /// Inside `${` ... `}`, `depth` braces deep.
    Expression { depth: usize },
}

/// The characters of a JSON string literal (`raw`, quotes included, at
/// byte `base` of its file), each with the bytes of the file it was
/// written as (`\"` is one character written as two bytes).
fn decode(raw: &str, base: usize) -> Vec<(char, Span)> {
    let inner = raw.get(1..raw.len().saturating_sub(1)).unwrap_or_default();
    let base = base + 1;
    let mut out = Vec::with_capacity(inner.len());
    let mut chars = inner.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        if c != '\\' {
            out.push((c, Span::new(base + i, base + i + c.len_utf8())));
            continue;
        }
        let Some((_, e)) = chars.next() else { break };
        let simple = match e {
            'n' => Some('\n'),
            't' => Some('\t'),
            'r' => Some('\r'),
            'b' => Some('\u{8}'),
            'f' => Some('\u{c}'),
            '"' | '\\' | '/' => Some(e),
            _ => None,
        };
        if let Some(c) = simple {
            out.push((c, Span::new(base + i, base + i + 2)));
            continue;
        }
        // `\uXXXX`, a surrogate pair as two of them.
        let hex = |at: usize| inner.get(at..at + 4).and_then(|h| u32::from_str_radix(h, 16).ok());
        let Some(high) = hex(i + 2) else { break };
        let (code, len) = if (0xD800..0xDC00).contains(&high)
            && inner.get(i + 6..i + 8) == Some("\\u")
            && let Some(low) = hex(i + 8)
        {
            (0x10000 + ((high - 0xD800) << 10) + (low.wrapping_sub(0xDC00) & 0x3FF), 12)
        } else {
            (high, 6)
        };
        out.push((char::from_u32(code).unwrap_or('\u{FFFD}'), Span::new(base + i, base + i + len)));
        for _ in 1..len - 1 {
            chars.next();
        }
    }
    out
}

/// An object's entries, or the entries of each object of an array.
fn objects(node: &Node) -> Vec<&[Entry]> {
    match &node.kind {
        Kind::Map(entries) => vec![entries.as_slice()],
        Kind::Seq(items) => items.iter().filter_map(Node::as_map).collect(),
        _ => Vec::new(),
    }
}

/// What HCL accepts as an attribute name.
fn is_identifier(key: &str) -> bool {
    let mut chars = key.chars();
    chars.next().is_some_and(|c| c.is_alphabetic() || c == '_')
        && chars.all(|c| c.is_alphanumeric() || c == '_' || c == '-')
}
