//! What a function adds to a mapping, object or list bound to a name
//! before it sends it: `body.update({...})`, `body["k"] = v`,
//! `Object.assign(body, {...})`, `body.k = v`, Go's `body["k"] = v`, Java's
//! `body.put(k, v)`. The message body then holds what was added too.
//!
//! Read by one walk of the file's tree, made the first time a message
//! body's name is followed and kept for the file, not by a query: a query
//! that matches these shapes costs about 10 ms to compile per language
//! (tree-sitter analyses every pattern against the whole grammar), paid by
//! every run that reads the language, for an answer wanted on few calls.

use tree_sitter::Node;

use super::super::lang::Language;
use super::Reader;

/// Methods that add their arguments to the receiver.
const PYTHON_ADDS: &[&str] = &["update", "setdefault", "append", "extend", "insert"];
const JAVASCRIPT_ADDS: &[&str] = &["push", "unshift"];
const JAVA_ADDS: &[&str] = &["put", "putIfAbsent", "putAll", "add", "addAll"];

/// A value added to a name: where, in which function, and the value.
pub(super) struct Addition<'a> {
    name: &'a str,
    at: usize,
    function: Option<sqsguard_source::Span>,
    value: Node<'a>,
}

impl<'a> Reader<'a> {
    /// What was added to `name` in the function around byte `at` (the
    /// file's top level when there is none), after byte `from` (the
    /// binding it adds to) and before `at`, in the order written.
    pub(super) fn added(&self, name: &str, from: usize, at: usize) -> impl Iterator<Item = Node<'a>> {
        let function = self.innermost(at);
        self.additions
            .get_or_init(|| self.additions_of_file())
            .iter()
            .filter(move |a| a.name == name && from <= a.at && a.at < at && a.function == function)
            .map(|a| a.value)
    }

    /// Every addition of the file, in the order written.
    fn additions_of_file(&self) -> Vec<Addition<'a>> {
        let mut out = Vec::new();
        let mut stack = vec![self.unit.tree.root_node()];
        while let Some(n) = stack.pop() {
            if let Some((target, value)) = self.addition(n) {
                let at = n.start_byte();
                out.push(Addition { name: self.text_of(target), at, function: self.innermost(at), value });
            }
            for i in 0..n.named_child_count() {
                if let Some(c) = n.named_child(i as u32) {
                    stack.push(c);
                }
            }
        }
        out.sort_by_key(|a| a.at);
        out
    }

    /// The name `node` adds to and the value it adds, when it is an
    /// addition.
    fn addition(&self, node: Node<'a>) -> Option<(Node<'a>, Node<'a>)> {
        let name = |n: Option<Node<'a>>| n.filter(|n| n.kind() == "identifier");
        let field = |n: Node<'a>, f: &str| n.child_by_field_name(f);
        match (self.language, node.kind()) {
            // `body.update({...})`: the arguments.
            (Language::Python, "call") => {
                let function = field(node, "function").filter(|f| f.kind() == "attribute")?;
                let method = field(function, "attribute").map(|m| self.text_of(m))?;
                PYTHON_ADDS.contains(&method).then_some(())?;
                Some((name(field(function, "object"))?, field(node, "arguments")?))
            }
            // `body["k"] = v`.
            (Language::Python, "assignment") => {
                let left = field(node, "left").filter(|l| l.kind() == "subscript")?;
                Some((name(field(left, "value"))?, field(node, "right")?))
            }
            // `body.k = v`, `body["k"] = v`.
            (Language::JavaScript | Language::TypeScript | Language::Tsx, "assignment_expression") => {
                let left =
                    field(node, "left").filter(|l| matches!(l.kind(), "member_expression" | "subscript_expression"))?;
                Some((name(field(left, "object"))?, field(node, "right")?))
            }
            // `Object.assign(body, {...})`, `items.push(v)`.
            (Language::JavaScript | Language::TypeScript | Language::Tsx, "call_expression") => {
                let function = field(node, "function").filter(|f| f.kind() == "member_expression")?;
                let (object, property) = (field(function, "object")?, field(function, "property")?);
                let arguments = field(node, "arguments")?;
                let target = if self.text_of(object) == "Object" && self.text_of(property) == "assign" {
                    arguments.named_child(0)
                } else if JAVASCRIPT_ADDS.contains(&self.text_of(property)) {
                    Some(object)
                } else {
                    None
                };
                Some((name(target)?, arguments))
            }
            // `body["k"] = v`, `body.K = v`.
            (Language::Go, "assignment_statement") => {
                let left = field(node, "left")?.named_child(0)?;
                let operand = match left.kind() {
                    "index_expression" | "selector_expression" => field(left, "operand"),
                    _ => None,
                };
                Some((name(operand)?, field(node, "right")?))
            }
            // `body.put(k, v)`.
            (Language::Java, "method_invocation") => {
                let method = field(node, "name").map(|m| self.text_of(m))?;
                JAVA_ADDS.contains(&method).then_some(())?;
                Some((name(field(node, "object"))?, field(node, "arguments")?))
            }
            _ => None,
        }
    }
}
