//! One code file parsed, and what the patterns find in it: definitions,
//! calls, response keys, batch utilities and returned calls, each with its
//! byte span. Parsing is capped (size, time, nesting) and so is the work
//! after it (syntax nodes, which every pattern visits), so that no file
//! can stop a run: what is over a cap is a reason, said in a note.

use std::ops::ControlFlow;
use std::time::{Duration, Instant};

use tree_sitter::{Node, Parser, Tree};

use super::fields;
use super::host::Host;
use super::imports;
use super::lang::{self, Language, Pattern};
use super::query::each_match;
use sqsguard_model::Origin;
use sqsguard_source::{Overlay, Source, Span};

/// The most sqsguard parses of one code file: handlers and workers are
/// far smaller; past it is a bundle or generated code.
pub(crate) const MAX_CODE_BYTES: usize = 1024 * 1024;

/// Why a code file of `len` bytes is not parsed.
pub(crate) fn too_large(len: u64) -> String {
    format!(
        "it is {:.1} MiB, more than the {} MiB sqsguard reads of a code file (a bundle or generated code?)",
        len as f64 / 1048576.0,
        MAX_CODE_BYTES / 1048576
    )
}

/// The most time one file may take to parse.
const PARSE_BUDGET: Duration = Duration::from_secs(2);

/// The deepest tree a file may have: tree-sitter itself does not recurse,
/// but the query matcher's work grows with depth (and a recursive walk's
/// stack).
pub const MAX_DEPTH: usize = 400;

/// The most syntax nodes of one file that are analysed: each pattern
/// visits every node, so the work after parsing grows with them (a
/// handler or worker of thousands of lines has tens of thousands; a file
/// of 262,000 lines `x = 1` has over a million). Past it is generated
/// code, said in a note.
pub(crate) const MAX_NODES: usize = 150_000;

/// A function, method or bound name the code defines.
#[derive(Clone, Debug)]
pub struct Def {
    pub name: String,
    /// The whole definition (its decorators included).
    pub span: Span,
    pub name_span: Span,
    /// It is a function (not a name bound to what a call returns).
    pub is_function: bool,
}

/// A key the code writes into a map or an object.
#[derive(Clone, Debug)]
pub struct KeyWrite {
    pub text: String,
    pub span: Span,
    /// What it is set to, as written.
    pub value: Option<(Span, String)>,
}

pub use super::imports::{Binding, Import};

/// A parsed file and its facts.
#[derive(Clone)]
pub struct Unit {
    pub source: Source,
    /// For code written inside another file: where it is there.
    pub host: Option<Host>,
    pub language: Language,
    pub tree: Tree,
    pub defs: Vec<Def>,
    /// `(call, name called)`.
    pub calls: Vec<(Span, String)>,
    pub keys: Vec<KeyWrite>,
    /// `(where, what)`: a batch utility or response type.
    pub utilities: Vec<(Span, String)>,
    /// `(where, name called)`: a return of what a call returns.
    pub returns: Vec<(Span, String)>,
    /// Where names of other files come from.
    pub imports: Vec<Import>,
    /// Go: the package the file is in.
    pub package: Option<String>,
    /// Where it raises, throws or (Go) returns an error.
    pub raises: Vec<Span>,
    /// Whether an SQS API call's pattern matched: the call reader walks
    /// the tree for the rest of what it needs only then (most handlers
    /// call no SQS API).
    pub calls_sqs: bool,
}

/// Why a file was not read.
#[derive(Clone, Debug)]
pub struct Unparsed {
    pub span: Span,
    pub why: String,
}

/// Parse `source` as `language` within the bounds every code file is read
/// in (its size, a NUL byte, the parse time, a syntax error, its nodes and
/// depth), without the patterns: for a reader with a walk of its own (the
/// CDK app's constructs).
pub fn parse_tree(source: &Source, language: Language) -> Result<Tree, Unparsed> {
    parse_tree_in(source, &lang::grammar(language), language.name(), language == Language::Java, true)
}

/// [`parse_tree`] for a caller whose own walk of the tree stops at
/// [`MAX_DEPTH`] and says so: the tree is not walked here for its depth
/// (a walk of every node, as long as tree-sitter's parse of a short file).
pub fn parse_tree_unmeasured(source: &Source, language: Language) -> Result<Tree, Unparsed> {
    parse_tree_in(source, &lang::grammar(language), language.name(), language == Language::Java, false)
}

/// [`parse_tree`] with a grammar the code reader does not read itself (a
/// CDK app's C#), named `name` in what is said of a file that is not
/// valid; `java` reads `\u` escapes as javac does; `measure_depth` false
/// as for [`parse_tree_unmeasured`].
pub fn parse_tree_in(
    source: &Source,
    grammar: &tree_sitter::Language,
    name: &str,
    java: bool,
    measure_depth: bool,
) -> Result<Tree, Unparsed> {
    let text = source.text.as_str();
    let at_start = Span::new(0, 0);
    if text.len() > MAX_CODE_BYTES {
        return Err(Unparsed { span: at_start, why: too_large(text.len() as u64) });
    }
    if let Some(at) = text.find('\0') {
        return Err(Unparsed { span: Span::new(at, at), why: "it holds a NUL byte: it is no source file".into() });
    }
    let mut parser = Parser::new();
    if parser.set_language(grammar).is_err() {
        return Err(Unparsed { span: at_start, why: "its grammar could not be loaded".into() });
    }
    let started = Instant::now();
    let mut over_budget = |_: &tree_sitter::ParseState| {
        if started.elapsed() > PARSE_BUDGET { ControlFlow::Break(()) } else { ControlFlow::Continue(()) }
    };
    let bytes = text.as_bytes();
    let mut input = |offset: usize, _| bytes.get(offset..).unwrap_or_default();
    let options = tree_sitter::ParseOptions::new().progress_callback(&mut over_budget);
    let Some(tree) = parser.parse_with_options(&mut input, None, Some(options)) else {
        let why = format!("parsing it took more than {} s", PARSE_BUDGET.as_secs());
        return Err(Unparsed { span: at_start, why });
    };
    let root = tree.root_node();
    if let Some(error) = first_error(root) {
        // javac reads `\u0041` anywhere (JLS 3.3); the grammar only in
        // strings and characters.
        if java && let Some(at) = unicode_escape_outside_strings(root, bytes) {
            let why = "it uses \\u escapes outside strings and characters, which javac translates and the Java reader does not read";
            return Err(Unparsed { span: Span::new(at, at + 2), why: why.into() });
        }
        let span = Span::new(error.start_byte(), error.end_byte());
        return Err(Unparsed { span, why: format!("it is not valid {name}") });
    }
    let nodes = root.descendant_count();
    if nodes > MAX_NODES {
        let why = format!(
            "it has {nodes} syntax nodes, more than the {MAX_NODES} sqsguard analyses of a code file (generated code?)"
        );
        return Err(Unparsed { span: at_start, why });
    }
    // A tree is never deeper than it has nodes: only one of more nodes
    // than the bound is walked for its depth (most handlers are far
    // smaller, and the walk was 7 % of reading a small inline function).
    if measure_depth && nodes > MAX_DEPTH && depth(root) > MAX_DEPTH {
        return Err(Unparsed { span: at_start, why: format!("it nests deeper than {MAX_DEPTH} levels") });
    }
    Ok(tree)
}

impl Unit {
    /// Parse `source` as `language` and find what the patterns find.
    pub fn parse(source: &Source, language: Language) -> Result<Unit, Unparsed> {
        let tree = parse_tree(source, language)?;
        let mut unit = Unit {
            source: source.clone(),
            host: None,
            language,
            tree,
            defs: Vec::new(),
            calls: Vec::new(),
            keys: Vec::new(),
            utilities: Vec::new(),
            returns: Vec::new(),
            imports: Vec::new(),
            package: None,
            calls_sqs: false,
            raises: Vec::new(),
        };
        unit.find();
        Ok(unit)
    }

    /// [`Unit::parse`] through the overlay's memo when it has one: an
    /// editor's checks read the same handlers and inline code at every
    /// keystroke, and each text is parsed once while it stays. The memo
    /// keeps one parse per path (a function's inline code has a path of
    /// its own); a parse as another language is made again.
    pub(crate) fn parse_kept(source: &Source, language: Language, overlay: &Overlay) -> Result<Unit, Unparsed> {
        if !overlay.memoizes() {
            return Unit::parse(source, language);
        }
        let (kept, parsed) = overlay.parsed(source, || (language, Unit::parse(source, language)));
        if kept == language { parsed } else { Unit::parse(source, language) }
    }

    /// Where a span of the code is, as findings point at it: in the file,
    /// or (inline code) in the file that holds it.
    pub(crate) fn origin(&self, span: Span) -> Origin {
        match &self.host {
            Some(host) => Origin::file(&host.source, host.span(&self.source, span)),
            None => Origin::file(&self.source, span),
        }
    }

    /// The text of a span.
    pub(crate) fn text(&self, span: Span) -> &str {
        self.source.text.get(span.start..span.end).unwrap_or_default()
    }

    fn find(&mut self) {
        let root = self.tree.root_node();
        let text = self.source.text.as_bytes();
        const FOUND_HERE: &[Pattern] = &[
            Pattern::Definitions,
            Pattern::Calls,
            Pattern::ResponseKeys,
            Pattern::BatchUtility,
            Pattern::Returns,
            Pattern::Imports,
            Pattern::SdkCalls,
            Pattern::Raises,
        ];
        each_match(self.language, FOUND_HERE, root, text, |pattern, m| match pattern {
            Pattern::Definitions => {
                let def = m.node("definition");
                let name = m.node("name").or_else(|| def.and_then(fields::defined_name));
                let (Some(def), Some(name)) = (def, name) else { return };
                let is_function = is_function(def);
                self.defs.push(Def { name: m.text(name), span: span(def), name_span: span(name), is_function });
            }
            Pattern::Calls => {
                for (call, callee) in fields::calls(m.node("call"), m.node("callee")) {
                    self.calls.push((span(call), m.text(callee)));
                }
            }
            Pattern::ResponseKeys => {
                if let Some(written) = m.node("written") {
                    for (key, value) in fields::written_keys(written) {
                        let value = value.map(|v| (span(v), m.text(v)));
                        self.keys.push(KeyWrite { text: m.text(key), span: span(key), value });
                    }
                    return;
                }
                let Some(key) = m.node("key") else { return };
                let value = m.node("value").map(|v| (span(v), m.text(v)));
                self.keys.push(KeyWrite { text: m.text(key), span: span(key), value });
            }
            Pattern::BatchUtility => {
                let utility = m
                    .node("utility")
                    .or_else(|| m.node("utility_call").and_then(fields::callee_name))
                    .or_else(|| m.node("utility_decorator").and_then(fields::decorated_name))
                    .or_else(|| m.node("utility_require").and_then(fields::required_module))
                    .or_else(|| m.node("utility_import").and_then(fields::imported_module));
                if let Some(u) = utility {
                    self.utilities.push((span(u), m.text(u)));
                }
            }
            Pattern::Returns => {
                let calls = m.node("returned_from").map(fields::returned_calls).unwrap_or_default();
                let returned = m.node("returned").or_else(|| m.node("returned_call").and_then(fields::callee_name));
                for r in returned.into_iter().chain(calls.into_iter().filter_map(fields::callee_name)) {
                    self.returns.push((span(r), m.text(r)));
                }
            }
            Pattern::Imports => imports::read(m, &mut self.imports, &mut self.package),
            Pattern::SdkCalls => self.calls_sqs = true,
            Pattern::Raises => self.raises.extend(m.node("raise").map(span)),
            _ => {}
        });
        // A pattern may match one node twice (a key both written and read):
        // once is enough.
        self.keys.sort_by_key(|k| (k.span, k.value.is_none()));
        self.keys.dedup_by_key(|k| k.span);
        self.calls.sort_by_key(|c| c.0.start);
    }
}

pub(crate) fn span(node: Node<'_>) -> Span {
    Span::new(node.start_byte(), node.end_byte())
}

/// Whether a definition is a function, not a name bound to another value.
fn is_function(def: Node<'_>) -> bool {
    const FUNCTIONS: &[&str] = &["arrow_function", "function_expression", "function", "lambda"];
    match def.kind() {
        "variable_declarator" => def.child_by_field_name("value").is_some_and(|v| FUNCTIONS.contains(&v.kind())),
        "assignment_expression" | "assignment" => {
            def.child_by_field_name("right").is_some_and(|v| FUNCTIONS.contains(&v.kind()))
        }
        "expression_statement" => def.named_child(0).is_some_and(is_function),
        _ => true,
    }
}

/// Where a Java `\\uXXXX` escape is written outside a string, a
/// character or a comment, if anywhere (an escaped backslash `\\\\u` is
/// none).
fn unicode_escape_outside_strings(root: Node<'_>, bytes: &[u8]) -> Option<usize> {
    const QUOTED: &[&str] = &["string_literal", "character_literal", "line_comment", "block_comment", "text_block"];
    let mut at = 0;
    while let Some(found) = bytes.get(at..).and_then(|rest| rest.windows(2).position(|w| w == b"\\u")) {
        let i = at + found;
        at = i + 2;
        let backslashes = bytes[..i].iter().rev().take_while(|b| **b == b'\\').count();
        let hex = bytes.get(i + 2..).map(|r| {
            let r = &r[r.iter().take_while(|b| **b == b'u').count()..];
            r.len() >= 4 && r[..4].iter().all(u8::is_ascii_hexdigit)
        });
        if backslashes % 2 == 1 || hex != Some(true) {
            continue;
        }
        let mut node = root.descendant_for_byte_range(i, i + 1);
        let mut quoted = false;
        while let Some(n) = node {
            if QUOTED.contains(&n.kind()) {
                quoted = true;
                break;
            }
            node = n.parent();
        }
        if !quoted {
            return Some(i);
        }
    }
    None
}

/// The first node in error, if any, depth first (no recursion).
fn first_error(root: Node<'_>) -> Option<Node<'_>> {
    if !root.has_error() {
        return None;
    }
    let mut cursor = root.walk();
    loop {
        let node = cursor.node();
        if node.is_error() || node.is_missing() {
            return Some(node);
        }
        // Go down only into what holds the error.
        if node.has_error() && cursor.goto_first_child() {
            continue;
        }
        while !cursor.goto_next_sibling() {
            if !cursor.goto_parent() {
                return Some(root);
            }
        }
    }
}

/// How deep the tree goes (no recursion).
fn depth(root: Node<'_>) -> usize {
    let mut cursor = root.walk();
    let (mut depth, mut deepest) = (0usize, 0usize);
    loop {
        if cursor.goto_first_child() {
            depth += 1;
            deepest = deepest.max(depth);
            if deepest > MAX_DEPTH {
                return deepest;
            }
            continue;
        }
        while !cursor.goto_next_sibling() {
            if !cursor.goto_parent() {
                return deepest;
            }
            depth -= 1;
        }
    }
}
