//! Where the messages a receive returns go (SQS207): the receive's result
//! is followed through the names it is bound to, in the function that
//! makes it (the whole file for a receive at its top level), until every
//! use of it is known to be harmless: a part that cannot delete a message
//! is read (`Body`, `MessageId`, `.length`), it is tested, printed or
//! logged, or given to a visibility change. Then the messages are
//! [`Received::Kept`], and with no delete anywhere in the file, never
//! deleted.
//!
//! Any other use is where the messages may leave what was read, and so
//! may be deleted elsewhere: returned or yielded, passed to a function
//! (even one of the same file), sent down a channel, put in a list, an
//! object or a field, assigned to a name declared outside the function,
//! or used in a way this reader does not know. That is
//! [`Received::Elsewhere`] with its reason, never a finding. A name is
//! followed wherever it is written in the function, before or after the
//! receive: a use too many only makes the answer "elsewhere".

use std::collections::HashSet;

use tree_sitter::Node;

use super::received_flow::{ACCESSES, Flow, PARTS, Step, is_comparison, plain};
use super::*;
use crate::kinds::FUNCTIONS;
use sqsguard_model::code::Received;

/// Expressions whose value is the value they hold: an `await`, a cast,
/// parentheses, a string that interpolates it, a comprehension.
const SAME_VALUE: &[&str] = &[
    "await",
    "await_expression",
    "parenthesized_expression",
    "as_expression",
    "non_null_expression",
    "satisfies_expression",
    "type_assertion",
    "interpolation",
    "template_substitution",
    "template_string",
    "string",
    "list_comprehension",
    "generator_expression",
    "set_comprehension",
];

/// The most uses followed for one receive.
const MAX_USES: usize = 10_000;

impl<'a> Reader<'a> {
    /// Where the messages a receive (`call`) returns go.
    pub(super) fn received(&self, call: Node<'a>) -> Received {
        let elsewhere = |why: &str| Received::Elsewhere(why.to_string());
        if *self.deletes.get_or_init(|| self.file_deletes()) {
            return elsewhere("the file deletes messages");
        }
        // JavaScript v3: the command's result is what `send` returns.
        let start = match call.kind() {
            "new_expression" => match self.sent(call) {
                Some(send) => send,
                None => return elsewhere("the command is sent where sqsguard does not follow it"),
            },
            _ => call,
        };
        let scope = self.scope_node(call);
        let text = self.text_of(scope);
        if self.language == Language::Python
            && scope.kind() != "module"
            && (text.contains("global ") || text.contains("nonlocal "))
        {
            return elsewhere("its function declares names global or nonlocal");
        }
        let mut flow = Flow {
            uses: self.identifiers(scope),
            names: HashSet::new(),
            pending: vec![start],
            callbacks: HashSet::new(),
            scopes: vec![scope],
            functions: HashSet::from([scope.id()]),
        };
        // JavaScript's callback style (`sqs.receiveMessage(params, (err,
        // data) => ...)`): the callback is handed the response. A function
        // given to a receive elsewhere builds its request (Java's
        // `r -> r.queueUrl(url)`) or sets its options (Go).
        if matches!(self.language, Language::JavaScript | Language::TypeScript | Language::Tsx)
            && let Err(why) = self.callbacks(start, false, &mut flow)
        {
            return Received::Elsewhere(why);
        }
        let mut followed = 0;
        while let Some(node) = flow.pending.pop() {
            followed += 1;
            if followed > MAX_USES {
                return elsewhere("it has more uses than sqsguard follows");
            }
            if let Err(why) = self.follow(node, &mut flow) {
                return Received::Elsewhere(why);
            }
        }
        Received::Kept
    }

    /// Whether the file deletes messages anywhere, as far as its words
    /// tell: a token other than a comment or a docstring that says
    /// `delete` (`delete_message`, `DeleteMessageBatchCommand`,
    /// `message.delete()`, `queue.delete_messages`, `"DeleteMessage"`) or
    /// `purge` (`purge_queue`, which deletes every message).
    fn file_deletes(&self) -> bool {
        let mut stack = vec![self.unit.tree.root_node()];
        while let Some(n) = stack.pop() {
            // A string that is a statement of its own does nothing.
            if n.kind() == "expression_statement"
                && n.named_child_count() == 1
                && n.named_child(0).is_some_and(|s| s.kind() == "string")
            {
                continue;
            }
            if n.child_count() == 0 {
                let text = self.text_of(n).as_bytes();
                let says = |word: &[u8]| text.windows(word.len()).any(|w| w.eq_ignore_ascii_case(word));
                if !n.kind().contains("comment") && (says(b"delete") || says(b"purge")) {
                    return true;
                }
                continue;
            }
            for i in 0..n.child_count() {
                stack.extend(n.child(i));
            }
        }
        false
    }

    /// The function a call is made in, or the file's root at its top level.
    fn scope_node(&self, call: Node<'a>) -> Node<'a> {
        let root = self.unit.tree.root_node();
        let Some(span) = self.innermost(call.start_byte()) else { return root };
        let mut at = call.parent();
        while let Some(n) = at {
            if n.start_byte() == span.start && n.end_byte() == span.end {
                return n;
            }
            at = n.parent();
        }
        root
    }

    /// Follow one node that holds the messages (or a receipt handle) up to
    /// where it is used.
    fn follow(&self, from: Node<'a>, flow: &mut Flow<'a>) -> Step {
        if self.in_visibility_change(from) {
            return Ok(());
        }
        let mut node = from;
        for _ in 0..32 {
            let Some(parent) = node.parent() else { return Err("it reaches the top of the file".to_string()) };
            match self.step(node, parent, flow)? {
                Some(up) => node = up,
                None => return Ok(()),
            }
        }
        Err("it is used deeper than sqsguard follows".to_string())
    }

    /// What `parent` does with `node`, which holds the messages: `Some`
    /// the node that holds them next, `None` when the use is harmless.
    fn step(&self, node: Node<'a>, parent: Node<'a>, flow: &mut Flow<'a>) -> Result<Option<Node<'a>>, String> {
        let is = |field: &str| parent.child_by_field_name(field).is_some_and(|c| c.id() == node.id());
        let operator = || parent.child_by_field_name("operator").map(|o| self.text_of(o));
        Ok(match parent.kind() {
            kind if SAME_VALUE.contains(&kind) => Some(parent),
            "conditional_expression" | "ternary_expression" => (!is("condition")).then_some(parent),
            "boolean_operator" | "binary_expression" | "binary_operator" => {
                (!is_comparison(operator().unwrap_or_default())).then_some(parent)
            }
            "unary_expression" | "not_operator" => {
                (!matches!(operator().unwrap_or("not"), "!" | "not" | "typeof" | "void")).then_some(parent)
            }
            "comparison_operator" | "expression_statement" | "assert_statement" => None,
            "if_statement" | "while_statement" | "elif_clause" | "do_statement" | "for_statement"
                if is("condition") =>
            {
                None
            }
            kind if ACCESSES.contains(&kind) => self.access(node, parent, flow)?,
            // Java: `response.messages()`, `message.body()`.
            "method_invocation" if is("object") => {
                let name = parent.child_by_field_name("name").map(|n| plain(self.text_of(n))).unwrap_or_default();
                (!self.method(&name, parent, flow)?).then_some(parent)
            }
            "keyword_argument" | "spread_element" | "list_splat" if !is("name") => Some(parent),
            // A default value: what it defaults is not followed.
            "assignment_pattern" | "object_assignment_pattern" | "default_parameter" | "typed_default_parameter"
                if is("right") || is("value") =>
            {
                return Err("it is a default value".to_string());
            }
            "argument_list" | "arguments" => self.argument(parent, node, flow).map(|()| None)?,
            "assignment"
            | "assignment_expression"
            | "augmented_assignment"
            | "augmented_assignment_expression"
            | "variable_declarator"
            | "named_expression" => self.assigned(node, parent, flow)?,
            "expression_list" => self.go_list(parent, node, flow).map(|()| None)?,
            "for_statement" | "for_in_statement" | "for_in_clause" | "enhanced_for_statement" | "range_clause" => {
                self.looped(node, parent, flow)?
            }
            "return_statement" | "arrow_function" | "lambda" | "lambda_expression"
                if self.in_callback(parent, flow) =>
            {
                None
            }
            "return_statement" | "yield" | "yield_expression" => return Err("it is returned".to_string()),
            "send_statement" => return Err("it is sent down a channel".to_string()),
            // A parameter or a pattern named like it declares a name.
            kind if kind.contains("parameter") || kind.contains("pattern") => None,
            kind => {
                let what = kind.replace('_', " ");
                return Err(format!("it is used in a {what} (`{}`)", self.first_line(parent)));
            }
        })
    }

    /// The messages are read through (`m["Body"]`, `resp.Messages`,
    /// `msgs[0]`, `resp.get("Messages")`): a part that cannot delete is
    /// harmless; anything else still holds them.
    fn access(&self, node: Node<'a>, parent: Node<'a>, flow: &mut Flow<'a>) -> Result<Option<Node<'a>>, String> {
        let object = ["object", "value", "operand", "array"].iter().find_map(|f| parent.child_by_field_name(f));
        if object.is_none_or(|o| o.id() != node.id()) {
            return Err(format!("it is used as a key in `{}`", self.text_of(parent)));
        }
        let key = ["attribute", "property", "subscript", "index", "field"]
            .iter()
            .find_map(|f| parent.child_by_field_name(f))
            .map(|k| plain(self.text_of(k)))
            .unwrap_or_default();
        if PARTS.contains(&key.as_str()) {
            return Ok(None);
        }
        match parent.parent() {
            Some(call)
                if matches!(call.kind(), "call" | "call_expression")
                    && call.child_by_field_name("function").is_some_and(|f| f.id() == parent.id()) =>
            {
                Ok((!self.method(&key, call, flow)?).then_some(call))
            }
            _ => Ok(Some(parent)),
        }
    }

    /// The messages are assigned: the names they are bound to hold them.
    fn assigned(&self, node: Node<'a>, parent: Node<'a>, flow: &mut Flow<'a>) -> Result<Option<Node<'a>>, String> {
        let is = |field: &str| parent.child_by_field_name(field).is_some_and(|c| c.id() == node.id());
        if is("left") || is("name") {
            return Ok(None);
        }
        let target = parent.child_by_field_name("left").or_else(|| parent.child_by_field_name("name"));
        let Some(target) = target else { return Err("it is assigned".to_string()) };
        let declares = parent.kind() == "variable_declarator"
            || self.language == Language::Python
            || self.declared(self.text_of(target), parent, flow);
        self.bind(target, declares, flow)?;
        // `(msgs := ...)` and `a = b = ...` are values too.
        Ok(match parent.parent().map(|p| p.kind()) {
            Some("expression_statement" | "lexical_declaration" | "variable_declaration")
            | Some("local_variable_declaration" | "block" | "module") => None,
            _ => Some(parent),
        })
    }

    /// The messages are looped over: the loop's variables hold each one.
    fn looped(&self, node: Node<'a>, parent: Node<'a>, flow: &mut Flow<'a>) -> Result<Option<Node<'a>>, String> {
        let is = |field: &str| parent.child_by_field_name(field).is_some_and(|c| c.id() == node.id());
        if is("left") || is("name") {
            return Ok(None);
        }
        if !(is("right") || is("value")) {
            return Err(format!("it is used in `{}`", self.first_line(parent)));
        }
        let vars = parent.child_by_field_name("left").or_else(|| parent.child_by_field_name("name"));
        let Some(vars) = vars else { return Err("its loop has no variable".to_string()) };
        self.bind(vars, true, flow)?;
        // A comprehension: its value carries what it picks.
        Ok((parent.kind() == "for_in_clause").then(|| parent.parent()).flatten())
    }

    /// Whether a return (or a lambda's body) is that of a function an
    /// iterator handed the messages to: it gives them back to the iterator,
    /// whose result is followed.
    fn in_callback(&self, node: Node<'a>, flow: &Flow<'a>) -> bool {
        let mut at = Some(node);
        while let Some(n) = at {
            if FUNCTIONS.contains(&n.kind()) {
                return flow.callbacks.contains(&n.id());
            }
            at = n.parent();
        }
        false
    }

    /// Whether `node` is written inside a `ChangeMessageVisibility` call
    /// (its request included): a receipt handle given to SQS itself.
    fn in_visibility_change(&self, node: Node<'a>) -> bool {
        self.visibility.iter().any(|s| s.start <= node.start_byte() && node.end_byte() <= s.end)
    }
}
