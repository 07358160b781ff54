//! YAML into the spanned [`Node`] tree, through libyaml's event stream
//! (libyaml-rs: libyaml in Rust, kept by the YAML organization; the few
//! calls into it are wrapped once, in [`events`], below).
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

use events::{Event, Events, Mark, Style, YamlError};

use super::{BOM, Entry, Kind, MAX_DEPTH, Node, ParseError, duplicate_key, intrinsic_for_tag};
use crate::source::{SourceFile, Span};

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
            alias_budget: 100_000 + 2 * file.text.len(),
            root: None,
        }
    }

    fn run(mut self) -> Result<Node, ParseError> {
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
        Ok(self.root.unwrap_or(Node::new(Kind::Null, Span::default())))
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
        if self.stack.len() >= MAX_DEPTH {
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

/// libyaml's parser as an iterator of owned events. libyaml-rs is C in
/// Rust: its functions take raw pointers, and this is the one place that
/// calls them.
mod events {
    use std::ffi::CStr;
    use std::marker::PhantomData;
    use std::mem::MaybeUninit;

    use libyaml_rs as sys;

    /// A position libyaml reports: the byte offset into its input.
    #[derive(Clone, Copy, Debug)]
    pub struct Mark {
        pub index: usize,
    }

    /// How a scalar is written, as far as the tree cares.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum Style {
        Plain,
        Quoted,
        /// `|` or `>`.
        Block,
    }

    pub enum Event {
        Scalar {
            anchor: Option<String>,
            tag: Option<String>,
            value: String,
            style: Style,
        },
        SequenceStart {
            anchor: Option<String>,
            tag: Option<String>,
        },
        SequenceEnd,
        MappingStart {
            anchor: Option<String>,
            tag: Option<String>,
        },
        MappingEnd,
        Alias {
            anchor: String,
        },
        DocumentEnd,
        StreamEnd,
        /// Stream and document starts.
        Other,
    }

    /// What libyaml refused, where, and in the middle of what.
    pub struct YamlError {
        pub problem: String,
        pub at: Mark,
        /// The character that stopped the reader (a control character).
        pub value: Option<u32>,
        pub context: Option<(String, Mark)>,
    }

    pub struct Events<'input> {
        /// Boxed: libyaml keeps a pointer to the parser for its input.
        parser: Box<MaybeUninit<sys::yaml_parser_t>>,
        initialized: bool,
        input: PhantomData<&'input [u8]>,
    }

    impl<'input> Events<'input> {
        pub fn new(input: &'input [u8]) -> Self {
            let mut parser = Box::new(MaybeUninit::<sys::yaml_parser_t>::uninit());
            let p = parser.as_mut_ptr();
            // SAFETY: `p` points to memory for a parser that initialize
            // fills in; the input outlives the parser (`'input`), which
            // reads it through the pointer and length given here.
            let initialized = unsafe {
                let ok = sys::yaml_parser_initialize(p).ok;
                if ok {
                    sys::yaml_parser_set_encoding(p, sys::YAML_UTF8_ENCODING);
                    sys::yaml_parser_set_input_string(p, input.as_ptr(), input.len() as u64);
                }
                ok
            };
            Events { parser, initialized, input: PhantomData }
        }

        /// The next event and its start and end.
        pub fn next(&mut self) -> Result<(Event, Mark, Mark), YamlError> {
            if !self.initialized {
                let at = Mark { index: 0 };
                return Err(YamlError { problem: "out of memory".into(), at, value: None, context: None });
            }
            let p = self.parser.as_mut_ptr();
            let mut event = MaybeUninit::<sys::yaml_event_t>::uninit();
            // SAFETY: the parser was initialized; on success libyaml fills
            // in `event`, read here before yaml_event_delete frees what it
            // points to; on failure it sets the parser's error fields.
            unsafe {
                if !sys::yaml_parser_parse(p, event.as_mut_ptr()).ok {
                    return Err(error(&*p));
                }
                let e = event.as_mut_ptr();
                let owned = convert(&*e);
                let marks = (mark((*e).start_mark), mark((*e).end_mark));
                sys::yaml_event_delete(e);
                Ok((owned, marks.0, marks.1))
            }
        }
    }

    impl Drop for Events<'_> {
        fn drop(&mut self) {
            if self.initialized {
                // SAFETY: initialized, and deleted only here, once.
                unsafe { sys::yaml_parser_delete(self.parser.as_mut_ptr()) }
            }
        }
    }

    fn mark(m: sys::yaml_mark_t) -> Mark {
        Mark { index: usize::try_from(m.index).unwrap_or(usize::MAX) }
    }

    /// A NUL-terminated string of libyaml's, or `None` for a null pointer.
    ///
    /// SAFETY: `s` is null or points to a NUL-terminated string.
    unsafe fn text(s: *const u8) -> Option<String> {
        // SAFETY: as the caller promises.
        (!s.is_null()).then(|| unsafe { CStr::from_ptr(s.cast()) }.to_string_lossy().into_owned())
    }

    /// SAFETY: `e` is an event libyaml produced and has not freed.
    unsafe fn convert(e: &sys::yaml_event_t) -> Event {
        // SAFETY: each arm reads the union field of its event type.
        unsafe {
            match e.type_ {
                sys::YAML_SCALAR_EVENT => {
                    let s = e.data.scalar;
                    let value = if s.value.is_null() {
                        String::new()
                    } else {
                        let len = usize::try_from(s.length).unwrap_or(0);
                        String::from_utf8_lossy(std::slice::from_raw_parts(s.value, len)).into_owned()
                    };
                    let style = match s.style {
                        sys::YAML_PLAIN_SCALAR_STYLE => Style::Plain,
                        sys::YAML_LITERAL_SCALAR_STYLE | sys::YAML_FOLDED_SCALAR_STYLE => Style::Block,
                        _ => Style::Quoted,
                    };
                    Event::Scalar { anchor: text(s.anchor), tag: text(s.tag), value, style }
                }
                sys::YAML_SEQUENCE_START_EVENT => {
                    let s = e.data.sequence_start;
                    Event::SequenceStart { anchor: text(s.anchor), tag: text(s.tag) }
                }
                sys::YAML_MAPPING_START_EVENT => {
                    let m = e.data.mapping_start;
                    Event::MappingStart { anchor: text(m.anchor), tag: text(m.tag) }
                }
                sys::YAML_ALIAS_EVENT => Event::Alias { anchor: text(e.data.alias.anchor).unwrap_or_default() },
                sys::YAML_SEQUENCE_END_EVENT => Event::SequenceEnd,
                sys::YAML_MAPPING_END_EVENT => Event::MappingEnd,
                sys::YAML_DOCUMENT_END_EVENT => Event::DocumentEnd,
                sys::YAML_STREAM_END_EVENT => Event::StreamEnd,
                _ => Event::Other,
            }
        }
    }

    /// SAFETY: `p` is a parser whose last call failed.
    unsafe fn error(p: &sys::yaml_parser_t) -> YamlError {
        // SAFETY: libyaml's problem and context are static strings or null.
        let (problem, context) = unsafe { (text(p.problem.cast()), text(p.context.cast())) };
        let problem = problem.unwrap_or_else(|| "the YAML reader failed".into());
        if p.error == sys::YAML_READER_ERROR {
            // The reader reports a byte offset and the character, not a mark.
            let at = Mark { index: usize::try_from(p.problem_offset).unwrap_or(usize::MAX) };
            let value = u32::try_from(p.problem_value).ok();
            return YamlError { problem, at, value, context: None };
        }
        let context = context.filter(|c| !c.is_empty()).map(|c| (c, mark(p.context_mark)));
        YamlError { problem, at: mark(p.problem_mark), value: None, context }
    }
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
    fn a_flow_or_quoted_value_may_close_at_its_keys_column() {
        // What libyaml (PyYAML, cfn-lint) accepts and strict YAML 1.2
        // parsers refuse: the closing line at the column of the key.
        let quoted = "P:\n  PolicyDocument: !Sub '{\n    \"Version\": \"2012-10-17\"\n  }'\n  Next: 1\n";
        let (f, n) = tree(quoted);
        let doc = n.get("P").unwrap().get("PolicyDocument").unwrap().single_entry().unwrap();
        assert_eq!(doc.key, "Fn::Sub");
        assert_eq!(doc.value.as_str(), Some("{ \"Version\": \"2012-10-17\" }"));
        assert!(text(&f, doc.value.span).starts_with("'{") && text(&f, doc.value.span).ends_with("}'"));
        assert!(n.get("P").unwrap().get("Next").is_some());
        let flow = "P:\n  PolicyDocument: {\n    \"Version\": \"2012-10-17\"\n  }\n  List: [\n    a\n  ]\n";
        let (_, n) = tree(flow);
        let p = n.get("P").unwrap();
        assert_eq!(p.get("PolicyDocument").unwrap().get("Version").unwrap().as_str(), Some("2012-10-17"));
        assert_eq!(p.get("List").unwrap().as_seq().unwrap().len(), 1);
    }

    #[test]
    fn a_key_written_twice_is_refused_at_the_second() {
        let f = SourceFile::new("t.yaml", "Q:\n  A: 1\n  B: {A: 2}\n  A: 3\n".to_string());
        let err = parse(&f).unwrap_err();
        assert_eq!(
            err.message,
            "duplicate key \"A\": it is already set on line 2, and a key may appear only once in a mapping"
        );
        let at = f.position(err.span.start);
        assert_eq!((at.line, at.column), (4, 3));
        assert_eq!(&f.text[err.span.start..err.span.end], "A");
        // Quoted or not, it is the same key; in two mappings it is no repeat.
        assert!(parse(&SourceFile::new("t.yaml", "a: 1\n'a': 2\n".to_string())).is_err());
        assert!(parse(&SourceFile::new("t.yaml", "a: {k: 1}\nb: {k: 1}\nc: [{k: 1}, {k: 2}]\n".to_string())).is_ok());
    }

    #[test]
    fn a_byte_order_mark_is_stepped_over_and_offsets_stay_the_files() {
        let (f, n) = tree("\u{feff}Resources:\n  Q: !Ref X\n");
        let q = n.get("Resources").unwrap().entry("Q").unwrap();
        assert_eq!(text(&f, q.key_span), "Q");
        assert_eq!(text(&f, q.value.single_entry().unwrap().value.span), "X");
        assert_eq!(f.position(q.key_span.start).line, 2);
    }

    #[test]
    fn core_tags_decide_the_kind() {
        let (_, n) = tree("a: !!str 30\nb: !!int '30'\nc: !!null ''\n");
        assert_eq!(n.get("a").unwrap().kind, Kind::String("30".into()));
        assert_eq!(n.get("b").unwrap().kind, Kind::Number("30".into()));
        assert_eq!(n.get("c").unwrap().kind, Kind::Null);
    }

    #[test]
    fn a_control_character_is_refused_where_it_is() {
        let f = SourceFile::new("t.yaml", "a: 1\nb: x\u{7}y\n".to_string());
        let err = parse(&f).unwrap_err();
        assert_eq!(err.message, "YAML syntax error: control characters are not allowed (U+0007)");
        assert_eq!(&f.text[err.span.start..], "\u{7}y\n");
    }

    #[test]
    fn a_block_scalar_starts_at_its_text() {
        let (f, n) = tree("a: |\n  line\nb: !Sub |\n  ${X}\n");
        assert!(text(&f, n.get("a").unwrap().span).starts_with("line"));
        assert_eq!(text(&f, n.get("b").unwrap().single_entry().unwrap().key_span), "!Sub");
    }

    #[test]
    fn syntax_errors_carry_a_position() {
        let f = SourceFile::new("bad.yaml", "a: 1\nb: [1, 2\nc: 3\n".to_string());
        let err = parse(&f).unwrap_err();
        assert!(err.message.starts_with("YAML syntax error"));
        assert!(err.message.contains("that starts on line 2"), "{}", err.message);
        assert!(f.position(err.span.start).line >= 2);
    }
}
