//! Received messages passed to a function of the same file (SQS207): the
//! function's parameter holds them, and its uses are followed as the
//! caller's are. `handle(msg)`, `self.handle(msg)`, `this.handle(msg)`,
//! Java's `process(m)`; a Python keyword argument by its name. A function
//! the file defines more than once, a call with a spread before the
//! message (`*args`), a Go method, or code in another file is not
//! followed: the messages leave what was read there.

use tree_sitter::Node;

use super::received_flow::Flow;
use super::*;
use crate::kinds::FUNCTIONS;

impl<'a> Reader<'a> {
    /// The messages (`arg`, an argument of `call`) are passed to a function
    /// of the file: bind its parameter. `None` when it is not one this
    /// reader follows.
    pub(super) fn passed_to_function(
        &self,
        call: Node<'a>,
        arg: Node<'a>,
        callee: &str,
        flow: &mut Flow<'a>,
    ) -> Option<()> {
        // A spread hands over several values at once.
        if matches!(arg.kind(), "list_splat" | "dictionary_splat" | "spread_element") {
            return None;
        }
        let (name, on_self) = match callee.split_once('.') {
            None => (callee, false),
            Some(("self" | "this" | "cls", name)) if !name.contains('.') => (name, true),
            _ => return None,
        };
        let mut defs = self.unit.defs.iter().filter(|d| d.is_function && d.name == name);
        let def = defs.next()?;
        if defs.next().is_some() {
            return None;
        }
        let function = self.function_at(def.span)?;
        let params = self.parameters(function);
        let param = match arg.kind() {
            // Python: `handle(message=m)`.
            "keyword_argument" => {
                let key = self.text_of(arg.child_by_field_name("name")?);
                params.into_iter().find(|p| self.text_of(*p) == key)?
            }
            _ => {
                let args = call.child_by_field_name("arguments")?;
                let mut at = 0;
                for i in 0..args.named_child_count() {
                    let a = args.named_child(i as u32)?;
                    if a.id() == arg.id() {
                        break;
                    }
                    if matches!(a.kind(), "list_splat" | "dictionary_splat" | "spread_element" | "keyword_argument") {
                        return None;
                    }
                    if a.kind() != "comment" {
                        at += 1;
                    }
                }
                // A Python method called on `self` is given it first.
                let skip = usize::from(
                    on_self
                        && self.language == Language::Python
                        && params.first().is_some_and(|p| matches!(self.text_of(*p), "self" | "cls")),
                );
                *params.get(at + skip)?
            }
        };
        if self.language == Language::Python {
            let text = self.text_of(function);
            if text.contains("global ") || text.contains("nonlocal ") {
                return None;
            }
        }
        // Its names join the followed ones, once.
        if flow.functions.insert(function.id()) && !flow.within(function) {
            for (name, uses) in self.identifiers(function) {
                if flow.names.contains(name) {
                    flow.pending.extend(uses.iter().copied());
                }
                flow.uses.entry(name).or_default().extend(uses);
            }
            flow.scopes.push(function);
        }
        self.taint(param, flow);
        Some(())
    }

    /// The function node a definition's span holds (its decorators, or
    /// the `const` it is bound by, around it).
    fn function_at(&self, span: sqsguard_source::Span) -> Option<Node<'a>> {
        let mut node = self.unit.tree.root_node().descendant_for_byte_range(span.start, span.end)?;
        while node.start_byte() != span.start || node.end_byte() != span.end {
            node = node.parent()?;
        }
        let mut stack = vec![(node, 0)];
        while let Some((n, depth)) = stack.pop() {
            if FUNCTIONS.contains(&n.kind()) {
                return Some(n);
            }
            if depth < 3 {
                for i in 0..n.named_child_count() {
                    stack.extend(n.named_child(i as u32).map(|c| (c, depth + 1)));
                }
            }
        }
        None
    }

    /// A function's parameters' names, in order.
    fn parameters(&self, function: Node<'a>) -> Vec<Node<'a>> {
        let Some(params) =
            function.child_by_field_name("parameters").or_else(|| function.child_by_field_name("parameter"))
        else {
            return Vec::new();
        };
        if params.kind() == "identifier" {
            return vec![params];
        }
        let mut out = Vec::new();
        for i in 0..params.named_child_count() {
            let Some(p) = params.named_child(i as u32) else { continue };
            match p.kind() {
                "identifier" => out.push(p),
                "comment" => {}
                // Go: `a, b string` names two.
                "parameter_declaration" => {
                    let mut names = Vec::new();
                    for j in 0..p.named_child_count() {
                        if let Some(n) = p.named_child(j as u32).filter(|n| n.kind() == "identifier") {
                            names.push(n);
                        }
                    }
                    if names.is_empty() {
                        // An unnamed parameter: the places no longer line up.
                        return out;
                    }
                    out.extend(names);
                }
                _ => {
                    let name =
                        p.child_by_field_name("name").or_else(|| p.child_by_field_name("pattern")).or_else(|| {
                            (0..p.named_child_count())
                                .find_map(|j| p.named_child(j as u32).filter(|c| c.kind() == "identifier"))
                        });
                    match name {
                        Some(n) if n.kind() == "identifier" => out.push(n),
                        // A pattern or a splat: the places no longer line up.
                        _ => return out,
                    }
                }
            }
        }
        out
    }
}
