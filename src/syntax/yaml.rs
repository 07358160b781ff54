//! YAML into the spanned [`Node`] tree, through saphyr-parser's event stream.
//!
//! Building the tree ourselves (rather than through a DOM crate) gives three
//! things templates need: CloudFormation tags rewritten to long form with the
//! tag's own span, a nesting limit, and a budget on alias expansion so a
//! "billion laughs" file is refused instead of eating the machine.

use std::collections::HashMap;

use saphyr_parser::{Event, Parser, ScalarStyle, Span as YSpan, Tag};

use super::{Entry, Kind, MAX_DEPTH, Node, ParseError, intrinsic_for_tag};
use crate::source::{SourceFile, Span};

/// Parse the first YAML document of `file` into a tree.
pub fn parse(file: &SourceFile) -> Result<Node, ParseError> {
    Builder::new(file).run()
}

struct Builder<'a> {
    file: &'a SourceFile,
    stack: Vec<Frame>,
    anchors: HashMap<usize, (Node, usize)>,
    /// Nodes that alias expansion may still create.
    alias_budget: usize,
    root: Option<Node>,
}

struct Frame {
    kind: FrameKind,
    start: usize,
    anchor: usize,
    tag: Option<(String, Span)>,
}

enum FrameKind {
    Seq(Vec<Node>),
    Map { entries: Vec<Entry>, key: Option<Node> },
}

impl<'a> Builder<'a> {
    fn new(file: &'a SourceFile) -> Self {
        Builder {
            file,
            stack: Vec::new(),
            anchors: HashMap::new(),
            alias_budget: 100_000 + 2 * file.text.len(),
            root: None,
        }
    }

    fn run(mut self) -> Result<Node, ParseError> {
        let mut parser = Parser::new_from_str(&self.file.text);
        loop {
            let (event, span) = match parser.next_event() {
                None => break,
                Some(Ok(pair)) => pair,
                Some(Err(e)) => {
                    let at = self.offset(e.marker().line(), e.marker().col());
                    let message = match e.info() {
                        "recursion limit exceeded" => format!("nesting deeper than {MAX_DEPTH} levels"),
                        info => format!("YAML syntax error: {info}"),
                    };
                    return Err(ParseError { message, span: Span::new(at, at) });
                }
            };
            match event {
                Event::DocumentEnd | Event::StreamEnd => {
                    if self.root.is_some() || self.stack.is_empty() {
                        break;
                    }
                }
                Event::Scalar(value, style, anchor, tag) => {
                    let span = self.span(&span);
                    let node = self.scalar(&value, style, tag.as_deref(), span)?;
                    self.remember(anchor, &node);
                    self.finish(node);
                }
                Event::SequenceStart(anchor, ref tag) | Event::MappingStart(anchor, ref tag) => {
                    let span = self.span(&span);
                    if self.stack.len() >= MAX_DEPTH {
                        return Err(ParseError { message: format!("nesting deeper than {MAX_DEPTH} levels"), span });
                    }
                    let tag = tag.as_deref().and_then(|t| self.collection_tag(t, span));
                    let kind = if matches!(&event, Event::SequenceStart(..)) {
                        FrameKind::Seq(Vec::new())
                    } else {
                        FrameKind::Map { entries: Vec::new(), key: None }
                    };
                    self.stack.push(Frame { kind, start: span.start, anchor, tag });
                }
                Event::SequenceEnd | Event::MappingEnd => {
                    let Some(frame) = self.stack.pop() else { continue };
                    let node = self.close(frame, self.span(&span).start);
                    self.finish(node);
                }
                Event::Alias(id) => {
                    let span = self.span(&span);
                    let Some((node, count)) = self.anchors.get(&id) else {
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
                    self.finish(node);
                }
                Event::StreamStart | Event::DocumentStart(_) | Event::Nothing => {}
            }
        }
        Ok(self.root.unwrap_or(Node::new(Kind::Null, Span::default())))
    }

    fn offset(&self, line: usize, col: usize) -> usize {
        self.file.offset_of_char_column(line, col)
    }

    fn span(&self, span: &YSpan) -> Span {
        let start = self.offset(span.start.line(), span.start.col());
        let end = self.offset(span.end.line(), span.end.col()).max(start);
        Span::new(start, end)
    }

    fn remember(&mut self, anchor: usize, node: &Node) {
        if anchor != 0 {
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

    fn collection_tag(&self, tag: &Tag, span: Span) -> Option<(String, Span)> {
        if tag.handle != "!" {
            return None;
        }
        let long = intrinsic_for_tag(&tag.suffix)?;
        Some((long.to_string(), self.split_tag(span).0))
    }

    fn scalar(&self, value: &str, style: ScalarStyle, tag: Option<&Tag>, span: Span) -> Result<Node, ParseError> {
        let Some(tag) = tag else {
            return Ok(Node::new(plain_or_string(value, style), span));
        };
        if tag.handle == "!!" {
            let kind = match tag.suffix.as_str() {
                "str" => Kind::String(value.to_string()),
                "int" | "float" => Kind::Number(value.to_string()),
                "null" => Kind::Null,
                _ => plain_or_string(value, style),
            };
            return Ok(Node::new(kind, span));
        }
        let Some(long) = (if tag.handle == "!" { intrinsic_for_tag(&tag.suffix) } else { None }) else {
            // An unknown local tag: keep the value, drop the tag.
            return Ok(Node::new(plain_or_string(value, style), span));
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
        Ok(wrap(long, tag_span, inner, span))
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

    fn finish(&mut self, node: Node) {
        let Some(top) = self.stack.last_mut() else {
            if self.root.is_none() {
                self.root = Some(node);
            }
            return;
        };
        match &mut top.kind {
            FrameKind::Seq(items) => items.push(node),
            FrameKind::Map { entries, key } => match key.take() {
                None => *key = Some(node),
                Some(k) => entries.push(Entry { key: key_text(&k), key_span: k.span, value: node }),
            },
        }
    }
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
fn plain_or_string(value: &str, style: ScalarStyle) -> Kind {
    if style != ScalarStyle::Plain {
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
mod tests {
    use super::*;
    use crate::source::SourceFile;

    fn tree(text: &str) -> (std::sync::Arc<SourceFile>, Node) {
        let f = SourceFile::new("t.yaml", text.to_string());
        let n = parse(&f).unwrap();
        (f, n)
    }

    fn text(f: &SourceFile, s: Span) -> &str {
        &f.text[s.start..s.end]
    }

    #[test]
    fn short_tags_become_long_form_with_tag_span() {
        let (f, n) = tree("A: !Ref Param\nB: !GetAtt Queue.Arn\nC: !Sub\n  - '${x}'\n  - x: 1\n");
        let a = n.get("A").unwrap().single_entry().unwrap();
        assert_eq!(a.key, "Ref");
        assert_eq!(text(&f, a.key_span), "!Ref");
        assert_eq!(a.value.as_str(), Some("Param"));
        assert_eq!(text(&f, a.value.span), "Param");
        let b = n.get("B").unwrap().get("Fn::GetAtt").unwrap().as_seq().unwrap();
        assert_eq!((b[0].as_str(), b[1].as_str()), (Some("Queue"), Some("Arn")));
        assert_eq!(text(&f, b[1].span), "Arn");
        let c = n.get("C").unwrap().get("Fn::Sub").unwrap().as_seq().unwrap();
        assert_eq!(c.len(), 2);
    }

    #[test]
    fn scalars_follow_the_core_schema() {
        let (_, n) = tree("a: 30\nb: '30'\nc: true\nd: yes\ne: ~\n");
        assert_eq!(n.get("a").unwrap().kind, Kind::Number("30".into()));
        assert_eq!(n.get("b").unwrap().kind, Kind::String("30".into()));
        assert_eq!(n.get("c").unwrap().kind, Kind::Bool(true));
        assert_eq!(n.get("d").unwrap().kind, Kind::String("yes".into()));
        assert_eq!(n.get("e").unwrap().kind, Kind::Null);
    }

    #[test]
    fn aliases_expand_within_budget_and_bombs_are_refused() {
        let (_, n) = tree("a: &x {k: 1}\nb: *x\n");
        assert_eq!(n.get("b").unwrap().get("k").unwrap().kind, Kind::Number("1".into()));

        let mut bomb =
            String::from("a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n");
        for i in 1..12 {
            let prev = (b'a' + i - 1) as char;
            let cur = (b'a' + i) as char;
            bomb.push_str(&format!(
                "{cur}: &{cur} [*{prev},*{prev},*{prev},*{prev},*{prev},*{prev},*{prev},*{prev},*{prev}]\n"
            ));
        }
        let f = SourceFile::new("bomb.yaml", bomb);
        let err = parse(&f).unwrap_err();
        assert!(err.message.contains("alias bomb"), "{}", err.message);
        assert!(f.position(err.span.start).line > 1);
    }

    #[test]
    fn deep_nesting_is_refused_not_overflowed() {
        let deep = "[".repeat(10_000) + &"]".repeat(10_000);
        let f = SourceFile::new("deep.yaml", deep);
        let err = parse(&f).unwrap_err();
        assert!(err.message.contains("nesting deeper"), "{}", err.message);
    }

    #[test]
    fn syntax_errors_carry_a_position() {
        let f = SourceFile::new("bad.yaml", "a: 1\nb: [1, 2\nc: 3\n".to_string());
        let err = parse(&f).unwrap_err();
        assert!(err.message.starts_with("YAML syntax error"));
        assert!(f.position(err.span.start).line >= 2);
    }
}
