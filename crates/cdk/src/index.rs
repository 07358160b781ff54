//! Where an app's source creates constructs: each `new sqs.Queue(this,
//! "Jobs", {...})` (TypeScript, JavaScript) or `sqs.Queue(self, "Jobs",
//! ...)` (Python), with the class it creates, its id, the class whose code
//! creates it, the name it is bound to and the properties written in
//! place; and each `fn.addEventSource(new SqsEventSource(queue, {...}))`.
//! One walk of each file's tree.

use crate::syntax::Syntax;
use sqsguard_code::unit::MAX_DEPTH;
use sqsguard_edit::cdk::Prop;
use sqsguard_model::code::Language;
use sqsguard_source::{Position, Source, Span};
use tree_sitter::{Node, Tree};

/// A construct created in the source.
#[derive(Clone, Debug)]
pub(crate) struct Made {
    pub(crate) file: Source,
    /// Which of the app's files it is in ([`Lookup`]'s numbering).
    pub(crate) at: usize,
    /// The class created, its last name (`Queue` of `sqs.Queue`).
    pub(crate) class: String,
    /// The id, when it is written as a string; `None` when it is built at
    /// run time.
    pub(crate) id: Option<String>,
    /// The creation, from `new` (or the callee) to the end of the id.
    pub(crate) head: Span,
    /// Where the creation starts (1-based), as a creation stack's frame
    /// names it.
    pub(crate) start: Position,
    /// The class whose code creates it.
    pub(crate) within: Option<String>,
    /// The name it is bound to (`jobs`, `this.jobs`, `self.jobs`: `jobs`).
    pub(crate) bound: Option<String>,
    /// Properties written in place: name as written, the span of the
    /// whole property and of its value.
    pub(crate) props: Vec<Prop>,
    /// Where a property is added: the props' closing bracket, and the
    /// last member before it; `None` when the props are not written in
    /// place (no object literal; a spread, whose fields may be the one).
    pub(crate) insert: Option<(usize, Option<Span>)>,
    /// The first argument's name, when it is one (an event source's queue).
    pub(crate) first: Option<String>,
    /// Inside a loop: one line, several constructs.
    pub(crate) in_loop: bool,
}

/// `receiver.addEventSource(new SqsEventSource(...))`.
#[derive(Clone, Debug)]
pub(crate) struct Added {
    pub(crate) receiver: String,
    /// The call, for matching a creation stack's frame.
    pub(crate) call: Span,
    /// Its first and last lines (1-based).
    pub(crate) lines: (usize, usize),
    /// The event source created in it.
    pub(crate) source: Made,
}

/// Everything one file creates.
#[derive(Default)]
pub(crate) struct FileIndex {
    /// Written after the assembly was: its creation stacks' lines may
    /// name other lines now.
    pub(crate) newer: bool,
    pub(crate) made: Vec<Made>,
    pub(crate) added: Vec<Added>,
}

/// A file parsed: what a walk reads.
pub(crate) struct Parsed {
    pub(crate) source: Source,
    pub(crate) language: Syntax,
    pub(crate) tree: Tree,
}

/// Index a parsed file; a file nested deeper than the code reader reads
/// ([`MAX_DEPTH`]) is not indexed, and why is said.
pub(crate) fn index(unit: &Parsed) -> Result<FileIndex, String> {
    let names = Names::of(unit.language, &unit.tree.language());
    let mut walk = Walk { unit, names, out: FileIndex::default(), too_deep: false };
    walk.node(unit.tree.root_node(), &Context::default());
    if walk.too_deep {
        return Err(format!("it nests deeper than {MAX_DEPTH} levels"));
    }
    let mut out = walk.out;
    // Where each is, once: every finding's creation stack is matched by line.
    let file = &unit.source;
    for made in out.made.iter_mut().chain(out.added.iter_mut().map(|a| &mut a.source)) {
        made.start = file.position(made.head.start);
    }
    for added in &mut out.added {
        added.lines = (file.position(added.call.start).line, file.position(added.call.end).line);
    }
    Ok(out)
}

/// Where a node is: the class whose code it is in, the name its value is
/// bound to, whether it is in a loop, how deep. Borrowed from the text: a
/// walk allocates only for what it keeps.
#[derive(Clone, Copy, Default)]
struct Context<'u> {
    class: Option<&'u str>,
    bound: Option<&'u str>,
    in_loop: bool,
    depth: usize,
}

struct Walk<'u> {
    unit: &'u Parsed,
    names: &'static Names,
    out: FileIndex,
    /// The walk stopped at [`MAX_DEPTH`] (it recurses).
    too_deep: bool,
}

const LOOPS: &[&str] =
    &["for_statement", "for_in_statement", "enhanced_for_statement", "while_statement", "do_statement"];

impl<'u> Walk<'u> {
    fn kind(&self, node: Node<'_>) -> &'static str {
        self.names.kind(node)
    }

    fn field<'n>(&self, node: Node<'n>, name: &str) -> Option<Node<'n>> {
        self.names.field(node, name)
    }

    /// Whether `node` has a named child of one of `kinds`.
    fn has_child(&self, node: Node<'_>, kinds: &[&str]) -> bool {
        let mut cursor = node.walk();
        node.named_children(&mut cursor).any(|c| kinds.contains(&self.kind(c)))
    }

    fn text(&self, node: Node<'_>) -> &'u str {
        let unit: &'u Parsed = self.unit;
        unit.source.text.get(node.byte_range()).unwrap_or_default()
    }

    fn python(&self) -> bool {
        self.unit.language.is(Language::Python)
    }

    fn node(&mut self, node: Node<'_>, context: &Context<'u>) {
        if context.depth >= MAX_DEPTH {
            self.too_deep = true;
            return;
        }
        let context = &Context { depth: context.depth + 1, ..*context };
        let handled = match self.unit.language {
            Syntax::Code(Language::Java | Language::Go) => self.java_go(node, context),
            Syntax::CSharp => self.csharp(node, context),
            Syntax::Code(_) => false,
        };
        if handled {
            return;
        }
        let mut inner = *context;
        match self.kind(node) {
            "class_declaration" | "class_definition" | "class" | "abstract_class_declaration" => {
                inner.class = self.field(node, "name").map(|n| self.text(n));
            }
            kind if LOOPS.contains(&kind) || (kind == "call_expression" && self.is_each(node)) => inner.in_loop = true,
            "variable_declarator" | "assignment_expression" | "assignment" => {
                let (name, value) =
                    if self.kind(node) == "variable_declarator" { ("name", "value") } else { ("left", "right") };
                if let (Some(name), Some(value)) = (self.field(node, name), self.field(node, value)) {
                    let bound = Context { bound: Some(self.last_name(name)), ..*context };
                    self.node(value, &bound);
                    return;
                }
            }
            "new_expression" | "call" => {
                if let Some(made) = self.made(node, context) {
                    self.out.made.push(made);
                }
            }
            _ => {}
        }
        if matches!(self.kind(node), "call_expression" | "call") {
            self.added(node, context);
        }
        inner.bound = None;
        let mut cursor = node.walk();
        for child in node.named_children(&mut cursor) {
            self.node(child, &inner);
        }
    }

    /// `.forEach(...)`, `.map(...)`: a callback run for each element.
    fn is_each(&self, call: Node<'_>) -> bool {
        let property = self.field(call, "function").and_then(|f| self.field(f, "property"));
        property.is_some_and(|p| matches!(self.text(p), "forEach" | "map" | "flatMap"))
    }

    /// `jobs`, `this.jobs`, `self.jobs`, Go's `p.jobs`, Java's
    /// `awscdk.services.sqs.Queue`: the last name.
    fn last_name(&self, node: Node<'_>) -> &'u str {
        let last = ["property", "attribute", "field"].iter().find_map(|f| self.field(node, f));
        let text = self.text(last.unwrap_or(node));
        text.rsplit('.').next().unwrap_or(text)
    }

    /// A construct creation: `new C(scope, "id", props)` or, in Python, a
    /// call of a capitalised name `C(scope, "id", ...)` (or `id="..."`).
    fn made(&self, node: Node<'_>, context: &Context<'u>) -> Option<Made> {
        let callee = self.field(node, if self.python() { "function" } else { "constructor" })?;
        let class = self.last_name(callee);
        if !class.starts_with(|c: char| c.is_ascii_uppercase()) {
            return None;
        }
        let arguments = self.field(node, "arguments")?;
        let mut cursor = arguments.walk();
        let args: Vec<Node<'_>> =
            arguments.named_children(&mut cursor).filter(|n| self.kind(*n) != "comment").collect();
        let positional: Vec<Node<'_>> = args.iter().copied().filter(|n| self.kind(*n) != "keyword_argument").collect();
        let keyword = |name: &str| {
            args.iter()
                .copied()
                .filter(|n| self.kind(*n) == "keyword_argument")
                .find(|n| self.field(*n, "name").is_some_and(|k| self.text(k) == name))
        };
        let id_node = positional.get(1).copied().or_else(|| keyword("id").and_then(|k| self.field(k, "value")));
        let (props, insert) = if self.python() {
            let props = args
                .iter()
                .filter(|n| self.kind(**n) == "keyword_argument")
                .filter_map(|n| self.prop(*n, self.field(*n, "name")?, self.field(*n, "value")?))
                .filter(|p| p.name != "scope" && p.name != "id")
                .collect();
            let spread = args.iter().any(|n| matches!(self.kind(*n), "dictionary_splat" | "list_splat"));
            let close = arguments.end_byte().saturating_sub(1);
            (props, (!spread).then(|| (close, args.last().map(|n| span(*n)))))
        } else {
            // The props object: the third argument of a construct, the
            // second of an event source (`new SqsEventSource(queue, {...})`).
            let at = if class.ends_with("EventSource") { 1 } else { 2 };
            match positional.get(at).filter(|n| self.kind(**n) == "object") {
                Some(object) => self.members(*object),
                None => (Vec::new(), None),
            }
        };
        let event_source = class.ends_with("EventSource");
        if !event_source && id_node.is_none() {
            return None;
        }
        let id = id_node.and_then(|n| self.literal(n));
        let end = id_node.map_or(callee.end_byte(), |n| n.end_byte());
        Some(Made {
            file: self.unit.source.clone(),
            at: 0,
            class: class.to_string(),
            id,
            head: Span::new(node.start_byte(), end.max(callee.end_byte())),
            start: Position::default(),
            within: context.class.map(String::from),
            bound: context.bound.map(String::from),
            props,
            insert,
            first: positional.first().map(|n| self.last_name(*n).to_string()),
            in_loop: context.in_loop,
        })
    }

    /// A string literal's text; `None` for anything built at run time.
    fn literal(&self, node: Node<'_>) -> Option<String> {
        let text = self.text(node);
        match self.kind(node) {
            "string" if !self.has_child(node, &["interpolation", "template_substitution"]) => {
                let inner = text.trim_start_matches(['r', 'b', 'u', 'R', 'B', 'U']);
                let quote = inner.chars().next()?;
                Some(inner.strip_prefix(quote)?.strip_suffix(quote)?.to_string())
            }
            "template_string" if node.named_child_count() == 0 || !text.contains("${") => {
                Some(text.trim_matches('`').to_string())
            }
            _ => None,
        }
    }

    /// The properties of an object literal (`key: value`, `key`, methods)
    /// by name, and where a property is added (none after a spread).
    fn members(&self, object: Node<'_>) -> (Vec<Prop>, Option<(usize, Option<Span>)>) {
        let mut cursor = object.walk();
        let members: Vec<Node<'_>> =
            object.named_children(&mut cursor).filter(|n| self.kind(*n) != "comment").collect();
        let props = members
            .iter()
            .filter_map(|member| match self.kind(*member) {
                "pair" => self.prop(*member, self.field(*member, "key")?, self.field(*member, "value")?),
                "method_definition" => self.prop(*member, self.field(*member, "name")?, *member),
                "shorthand_property_identifier" => self.prop(*member, *member, *member),
                _ => None,
            })
            .collect();
        let spread = members.iter().any(|m| self.kind(*m) == "spread_element");
        let close = object.end_byte().saturating_sub(1);
        (props, (!spread).then(|| (close, members.last().map(|n| span(*n)))))
    }

    fn prop(&self, whole: Node<'_>, key: Node<'_>, value: Node<'_>) -> Option<Prop> {
        let name = self.text(key).trim_matches(['"', '\'']).to_string();
        Some(Prop { name, span: span(whole), value: span(value) })
    }

    /// `receiver.addEventSource(new SqsEventSource(...))`, and Python's
    /// `add_event_source`.
    fn added(&mut self, call: Node<'_>, context: &Context<'u>) {
        let Some(function) = self.field(call, "function") else { return };
        let (object, property) = if self.python() {
            (self.field(function, "object"), self.field(function, "attribute"))
        } else {
            (self.field(function, "object"), self.field(function, "property"))
        };
        let (Some(object), Some(property)) = (object, property) else { return };
        if !matches!(self.text(property), "addEventSource" | "add_event_source") {
            return;
        }
        let Some(arguments) = self.field(call, "arguments") else { return };
        let Some(first) = arguments.named_child(0) else { return };
        if let Some(source) = self.made(first, context) {
            let receiver = self.last_name(object).to_string();
            self.out.added.push(Added { receiver, call: span(call), lines: (0, 0), source });
        }
    }
}

fn span(node: Node<'_>) -> Span {
    Span::new(node.start_byte(), node.end_byte())
}

mod csharp;
mod java_go;
mod names;

use names::Names;

#[cfg(test)]
mod tests;
