//! Whether a call is made again and again (SQS209): written in a loop of
//! its own function (or of the file's top level), or in a function that
//! runs again by itself (a recursive poll: `poll()` or `setTimeout(poll)`
//! in `poll`'s body), or that a scheduler runs at a fixed rate
//! (`setInterval(poll, ms)`, Java's `scheduleAtFixedRate` and
//! `scheduleWithFixedDelay`, a method annotated `@Scheduled`). A loop in a
//! caller, or a caller in another file, is not followed.
//!
//! A function is named again only as itself: bare (`poll`), on `self`,
//! `this` or a Go method's receiver (`this.poll`, `w.poll`), or as a
//! method reference (`this::poll`): `sqs.receive_message` inside a
//! function named `receive_message` is another function.

use tree_sitter::Node;

use super::*;
use crate::kinds::{FUNCTIONS, LOOPS};

/// The calls that run a function at a fixed rate.
const SCHEDULERS: &[&str] = &["setInterval", "scheduleAtFixedRate", "scheduleWithFixedDelay"];

impl<'a> Reader<'a> {
    /// Whether `call` is made again and again.
    pub(super) fn repeated(&self, call: Node<'a>) -> bool {
        let mut at = call.parent();
        let function = loop {
            let Some(n) = at else { return false };
            if LOOPS.contains(&n.kind()) {
                return true;
            }
            if FUNCTIONS.contains(&n.kind()) {
                break n;
            }
            at = n.parent();
        };
        // Spring's `@Scheduled(fixedDelay = ...)` on the method.
        if function.kind() == "method_declaration"
            && function
                .named_child(0)
                .is_some_and(|m| m.kind() == "modifiers" && self.text_of(m).contains("@Scheduled"))
        {
            return true;
        }
        // `setInterval(async () => { ... }, ms)`.
        if function.parent().is_some_and(|args| self.scheduled(args)) {
            return true;
        }
        let Some(name) = self.function_name(function) else { return false };
        let receiver = self.go_receiver(function);
        let is_itself = |n: Node<'a>| self.names_itself(n, name, receiver);
        // Scheduled by name anywhere in the file.
        if self.walked().timers.iter().any(|(timer, args)| {
            SCHEDULERS.contains(&self.callee_last(*timer))
                && (0..args.named_child_count()).filter_map(|i| args.named_child(i as u32)).any(is_itself)
        }) {
            return true;
        }
        // Named again in its own body: called, or handed to a timer.
        let body = function.child_by_field_name("body").unwrap_or(function);
        let mut stack = vec![body];
        while let Some(n) = stack.pop() {
            if let Some(parent) = n.parent() {
                let called = matches!(parent.kind(), "call" | "call_expression")
                    && parent.child_by_field_name("function").is_some_and(|f| f.id() == n.id());
                let invoked = parent.kind() == "method_invocation"
                    && parent.child_by_field_name("name").is_some_and(|f| f.id() == n.id())
                    && parent.child_by_field_name("object").is_none_or(|o| self.text_of(o) == "this");
                let handed = matches!(parent.kind(), "arguments" | "argument_list");
                if (called || handed) && is_itself(n) || invoked && self.text_of(n) == name {
                    return true;
                }
            }
            for i in 0..n.named_child_count() {
                stack.extend(n.named_child(i as u32));
            }
        }
        false
    }

    /// Whether `args` are those of a call that runs them at a fixed rate.
    fn scheduled(&self, args: Node<'a>) -> bool {
        matches!(args.kind(), "arguments" | "argument_list")
            && args.parent().is_some_and(|call| SCHEDULERS.contains(&self.callee_last(call)))
    }

    /// A function's name as the code calls it: its own, or that of the
    /// name, field or key a function expression is bound to.
    fn function_name(&self, function: Node<'a>) -> Option<&'a str> {
        if let Some(name) = function.child_by_field_name("name") {
            return Some(self.text_of(name));
        }
        let parent = function.parent()?;
        let bound = match parent.kind() {
            "variable_declarator" | "public_field_definition" | "field_definition" => {
                parent.child_by_field_name("name").or_else(|| parent.child_by_field_name("property"))
            }
            "assignment" | "assignment_expression" => parent.child_by_field_name("left"),
            "pair" => parent.child_by_field_name("key"),
            _ => None,
        }?;
        let text = self.text_of(bound);
        Some(text.rsplit('.').next().unwrap_or(text))
    }

    /// A Go method's receiver name (`w` of `func (w *Worker) poll()`).
    fn go_receiver(&self, function: Node<'a>) -> Option<&'a str> {
        let receiver = function.child_by_field_name("receiver")?;
        let text = self.text_of(receiver).trim_matches(['(', ')']);
        text.split_whitespace().next()
    }

    /// Whether `n` names the function `name` itself: `poll`, `self.poll`,
    /// `this.poll`, `w.poll` (Go's receiver), `this::poll`.
    fn names_itself(&self, n: Node<'a>, name: &str, receiver: Option<&str>) -> bool {
        let text = self.text_of(n);
        let text = text.strip_suffix(".bind(this)").unwrap_or(text);
        let Some((object, last)) = text.rsplit_once(['.', ':']) else { return text == name };
        let object = object.trim_end_matches(':');
        last == name && (matches!(object, "self" | "this" | "cls") || receiver.is_some_and(|r| r == object))
    }
}
