//! Terraform JSON (`*.tf.json`) as HCL the module reader already evaluates.
//!
//! Terraform's JSON syntax maps one to one onto native syntax: top-level
//! keys are block types (`resource`, `variable`, `locals`, ...), the next
//! levels are block labels, and a string is a template (`"${var.x}"`). So
//! the file is written out as native HCL, value by value, and every piece
//! written remembers the bytes of the JSON it came from ([`Remap`]): spans
//! of the HCL translate back, and findings point into the `.tf.json`.
//!
//! What JSON cannot say without the provider's schema, whether a nested
//! object is an attribute or a block, needs no answer here: both evaluate
//! to the same map, except an array of objects in a resource, read as
//! repeated blocks (so one element is a map, as one block is), and the
//! objects of a `provider` or `terraform` block, which are blocks.
//!
//! A `"//"` key is a comment, as in Terraform; in a resource one that holds
//! `sqsguard:ignore SQS004 reason` suppresses like the HCL comment.

use crate::frontend::comment::MARKER;
use crate::model::{Origin, Scope as Applies, Suppression, Written};
use crate::source::{Source, Span};
use crate::syntax::{Entry, Kind, Node, ParseError};

/// Where each piece of the HCL text came from in the JSON text.
#[derive(Debug, Default)]
pub struct Remap {
    /// In HCL order (which is also JSON order).
    pieces: Vec<Piece>,
}

#[derive(Debug)]
struct Piece {
    hcl: usize,
    hcl_len: usize,
    json: usize,
    json_len: usize,
}

impl Remap {
    /// The JSON byte offset of HCL byte offset `at`: inside a piece, the
    /// same place in its JSON (its end when the JSON is shorter); between
    /// pieces, the end of the one before.
    fn offset(&self, at: usize) -> usize {
        let next = self.pieces.partition_point(|p| p.hcl <= at);
        let Some(p) = next.checked_sub(1).and_then(|i| self.pieces.get(i)) else {
            return self.pieces.first().map_or(0, |p| p.json);
        };
        let into = at - p.hcl;
        if into >= p.hcl_len { p.json + p.json_len } else { p.json + into.min(p.json_len) }
    }

    pub fn span(&self, span: Span) -> Span {
        let start = self.offset(span.start);
        Span::new(start, self.offset(span.end).max(start))
    }
}

/// The HCL text of a `.tf.json` file, how to map its spans back, and the
/// suppressions its `"//"` keys hold.
pub struct Converted {
    pub hcl: String,
    pub remap: Remap,
    pub suppressions: Vec<Suppression>,
    /// The JSON as parsed, for the fixes.
    pub root: crate::syntax::Node,
}

pub fn convert(source: &Source) -> Result<Converted, ParseError> {
    let root = crate::syntax::json::parse(source)?;
    let Some(entries) = root.as_map() else {
        return Err(ParseError {
            message: "Terraform JSON must be an object of block types (resource, variable, ...)".to_string(),
            span: root.span,
        });
    };
    let mut out = Writer {
        source,
        hcl: String::new(),
        remap: Remap::default(),
        suppressions: Vec::new(),
        block: "",
        literal: false,
    };
    for entry in entries {
        let (kind, labels) = match entry.key.as_str() {
            "resource" | "data" => (Body::Resource, 2),
            "module" => (Body::Attributes, 1),
            "variable" | "output" => (Body::Attributes, 1),
            "provider" => (Body::Blocks, 1),
            "locals" => (Body::Attributes, 0),
            "terraform" => (Body::Blocks, 0),
            // `moved`, `import`, `check`, `removed` and comments change no
            // resource's settings.
            _ => continue,
        };
        out.blocks(entry, &mut Vec::new(), labels, kind);
    }
    let (hcl, remap, suppressions) = (out.hcl, out.remap, out.suppressions);
    Ok(Converted { hcl, remap, suppressions, root })
}

/// How the objects in a block's body are written.
#[derive(Clone, Copy, PartialEq)]
enum Body {
    /// Objects are attributes (maps); arrays of objects are repeated blocks.
    Resource,
    /// Everything is an attribute (module arguments, locals, variables).
    Attributes,
    /// Objects are blocks (`default_tags`, `required_providers`).
    Blocks,
}

struct Writer<'a> {
    source: &'a Source,
    hcl: String,
    remap: Remap,
    suppressions: Vec<Suppression>,
    /// The type of the top-level block being written (`variable`, ...).
    block: &'static str,
    /// Strings are written as literal text, not templates (see [`LITERAL`]).
    literal: bool,
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
    fn blocks<'n>(&mut self, entry: &'n Entry, path: &mut Vec<&'n Entry>, labels: usize, kind: Body) {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::SourceFile;

    fn converted(json: &str) -> (Source, Converted) {
        let source = SourceFile::new("main.tf.json", json.to_string());
        let c = convert(&source).unwrap();
        (source, c)
    }

    #[test]
    fn blocks_and_values_become_hcl_that_maps_back() {
        let json =
            r#"{"resource": {"aws_sqs_queue": {"q": {"visibility_timeout_seconds": 60, "tags": {"a:b": "c\/d"}}}}}"#;
        let (source, c) = converted(json);
        let body = hcl_edit::parser::parse_body(&c.hcl).unwrap_or_else(|e| panic!("{e}\n{}", c.hcl));
        let block = body.blocks().next().unwrap();
        assert_eq!(block.ident.as_str(), "resource");
        let attr = block.body.get_attribute("visibility_timeout_seconds").unwrap();
        let span = crate::frontend::terraform::parse::span_of(&attr.value, Span::default());
        assert_eq!(source.text.get(c.remap.span(span).start..c.remap.span(span).end), Some("60"));
        let header = crate::frontend::terraform::parse::span_of(&block.labels[1], Span::default());
        assert_eq!(source.text.get(c.remap.span(header).start..c.remap.span(header).end), Some("\"q\""));
        assert!(c.hcl.contains("\"c/d\""), "{}", c.hcl);
    }

    #[test]
    fn arrays_of_objects_in_a_resource_are_blocks() {
        let json = r#"{"resource": [{"aws_lambda_event_source_mapping": {"m": [{"scaling_config": [{"maximum_concurrency": 2}], "dynamic": {"x": {}}}]}}]}"#;
        let (_, c) = converted(json);
        let body = hcl_edit::parser::parse_body(&c.hcl).unwrap_or_else(|e| panic!("{e}\n{}", c.hcl));
        let block = body.blocks().next().unwrap();
        assert!(block.body.blocks().any(|b| b.ident.as_str() == "scaling_config"), "{}", c.hcl);
        assert!(block.body.blocks().any(|b| b.ident.as_str() == "dynamic"), "{}", c.hcl);
    }

    #[test]
    fn a_variables_default_is_text_not_a_template() {
        let json = r#"{"variable": {"user": {"default": "${aws:username} 50%{x}", "description": "a ${b}"}}, "module": {"m": {"source": "./m", "n": "${var.user}"}}}"#;
        let (_, c) = converted(json);
        assert!(c.hcl.contains(r#"default = "$${aws:username} 50%%{x}""#), "{}", c.hcl);
        assert!(c.hcl.contains(r#"description = "a $${b}""#), "{}", c.hcl);
        assert!(c.hcl.contains(r#"n = "${var.user}""#), "module arguments stay templates: {}", c.hcl);
        hcl_edit::parser::parse_body(&c.hcl).unwrap_or_else(|e| panic!("{e}\n{}", c.hcl));
    }

    #[test]
    fn provider_blocks_may_be_arrays_of_objects() {
        let json = r#"{"provider": {"aws": {"default_tags": [{"tags": {"team": "a"}}]}}}"#;
        let (_, c) = converted(json);
        let body = hcl_edit::parser::parse_body(&c.hcl).unwrap_or_else(|e| panic!("{e}\n{}", c.hcl));
        let provider = body.blocks().next().unwrap();
        assert!(provider.body.blocks().any(|b| b.ident.as_str() == "default_tags"), "{}", c.hcl);
    }

    #[test]
    fn a_comment_key_suppresses_its_resource() {
        let json =
            "{\"resource\": {\"aws_sqs_queue\": {\n  \"q\": {\"//\": \"sqsguard:ignore SQS004 drained by hand\"}}}}";
        let (_, c) = converted(json);
        assert_eq!(c.suppressions.len(), 1);
        assert_eq!(c.suppressions[0].written, Written::Comment("SQS004 drained by hand".into()));
        assert_eq!(c.suppressions[0].scope, Applies::Resource("aws_sqs_queue.q".into()));
    }
}
