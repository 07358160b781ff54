//! What a function adds to a mapping, object or list bound to a name
//! before it sends it: `body.update({...})`, `body["k"] = v`,
//! `Object.assign(body, {...})`, `body.k = v`, Go's `body["k"] = v`, Java's
//! `body.put(k, v)`. The message body then holds what was added too.
//!
//! Read by walking the function's tree, only when a message body's name is
//! followed (a few per file), not by a query: a query that matches these
//! shapes costs about 10 ms to compile per language (tree-sitter analyses
//! every pattern against the whole grammar), paid by every run that reads
//! the language, for an answer wanted on few calls.

use tree_sitter::Node;

use super::super::lang::Language;
use super::Reader;

/// Methods that add their arguments to the receiver.
const PYTHON_ADDS: &[&str] = &["update", "setdefault", "append", "extend", "insert"];
const JAVASCRIPT_ADDS: &[&str] = &["push", "unshift"];
const JAVA_ADDS: &[&str] = &["put", "putIfAbsent", "putAll", "add", "addAll"];

impl<'a> Reader<'a> {
    /// What was added to `name` in the function around byte `at` (the
    /// file's top level when there is none), after byte `from` (the
    /// binding it adds to) and before `at`.
    pub(super) fn added(&self, name: &str, from: usize, at: usize) -> Vec<Node<'a>> {
        let (start, end) = self.innermost(at).map_or((0, self.text.len()), |f| (f.start, f.end));
        let root = self.unit.tree.root_node();
        let Some(mut scope) = root.descendant_for_byte_range(start, end) else { return Vec::new() };
        while scope.start_byte() > start || scope.end_byte() < end {
            match scope.parent() {
                Some(p) => scope = p,
                None => break,
            }
        }
        let mut out = Vec::new();
        let mut stack = vec![scope];
        while let Some(n) = stack.pop() {
            // Only what lies between the binding and the use.
            if n.end_byte() <= from || n.start_byte() >= at {
                continue;
            }
            if n.start_byte() >= from
                && let Some(value) = self.addition(n, name)
            {
                out.push(value);
            }
            for i in 0..n.named_child_count() {
                if let Some(c) = n.named_child(i as u32) {
                    stack.push(c);
                }
            }
        }
        out.sort_by_key(Node::start_byte);
        out
    }

    /// The value `node` adds to `name`, when it is an addition to it.
    fn addition(&self, node: Node<'a>, name: &str) -> Option<Node<'a>> {
        let is_name = |n: Option<Node<'a>>| n.is_some_and(|n| n.kind() == "identifier" && self.text_of(n) == name);
        let field = |n: Node<'a>, f: &str| n.child_by_field_name(f);
        match (self.language, node.kind()) {
            // `body.update({...})`: the arguments.
            (Language::Python, "call") => {
                let function = field(node, "function").filter(|f| f.kind() == "attribute")?;
                let method = field(function, "attribute").map(|m| self.text_of(m))?;
                (is_name(field(function, "object")) && PYTHON_ADDS.contains(&method))
                    .then(|| field(node, "arguments"))?
            }
            // `body["k"] = v`.
            (Language::Python, "assignment") => {
                let left = field(node, "left").filter(|l| l.kind() == "subscript")?;
                is_name(field(left, "value")).then(|| field(node, "right"))?
            }
            // `body.k = v`, `body["k"] = v`.
            (Language::JavaScript | Language::TypeScript | Language::Tsx, "assignment_expression") => {
                let left =
                    field(node, "left").filter(|l| matches!(l.kind(), "member_expression" | "subscript_expression"))?;
                is_name(field(left, "object")).then(|| field(node, "right"))?
            }
            // `Object.assign(body, {...})`, `items.push(v)`.
            (Language::JavaScript | Language::TypeScript | Language::Tsx, "call_expression") => {
                let function = field(node, "function").filter(|f| f.kind() == "member_expression")?;
                let (object, property) = (field(function, "object")?, field(function, "property")?);
                let arguments = field(node, "arguments")?;
                let assign = self.text_of(object) == "Object" && self.text_of(property) == "assign";
                let target = if assign { arguments.named_child(0) } else { Some(object) };
                let adds = assign || JAVASCRIPT_ADDS.contains(&self.text_of(property));
                (adds && is_name(target)).then_some(arguments)
            }
            // `body["k"] = v`, `body.K = v`.
            (Language::Go, "assignment_statement") => {
                let left = field(node, "left")?.named_child(0)?;
                let operand = match left.kind() {
                    "index_expression" | "selector_expression" => field(left, "operand"),
                    _ => None,
                };
                is_name(operand).then(|| field(node, "right"))?
            }
            // `body.put(k, v)`.
            (Language::Java, "method_invocation") => {
                let method = field(node, "name").map(|m| self.text_of(m))?;
                (is_name(field(node, "object")) && JAVA_ADDS.contains(&method)).then(|| field(node, "arguments"))?
            }
            _ => None,
        }
    }
}
