//! What the call readers look up across a whole file, found in one walk
//! the first time a reader asks (most files never do): the fields the file
//! assigns (`self.sqs = boto3.client(...)`, SQS212's client) and its timer
//! and scheduler calls (`setInterval(beat, ms)`, SQS210's heartbeat). A
//! walk per call instead made a file of many calls cost its size times
//! their number.

use tree_sitter::Node;

use super::*;

/// The calls that run a function later or again: JavaScript's
/// `setInterval` and `setTimeout`, Python's `threading.Timer`, Java's
/// scheduled executors.
const TIMERS: &[&str] = &["setInterval", "setTimeout", "Timer", "scheduleAtFixedRate", "scheduleWithFixedDelay"];

#[derive(Default)]
pub(super) struct Walked<'a> {
    /// `(field name, value)` of each assignment to a field.
    pub field_sets: Vec<(&'a str, Node<'a>)>,
    /// Each call of a [`TIMERS`] name, with its arguments.
    pub timers: Vec<(Node<'a>, Node<'a>)>,
}

impl<'a> Reader<'a> {
    pub(super) fn walked(&self) -> &Walked<'a> {
        self.walked.get_or_init(|| self.walk_file())
    }

    fn walk_file(&self) -> Walked<'a> {
        let mut walked = Walked::default();
        let mut stack = vec![self.unit.tree.root_node()];
        while let Some(n) = stack.pop() {
            if let Some(set) = self.field_set(n) {
                walked.field_sets.push(set);
            }
            if let Some(args) = n.child_by_field_name("arguments")
                && TIMERS.contains(&self.callee_last(n))
            {
                walked.timers.push((n, args));
            }
            for i in 0..n.named_child_count() {
                stack.extend(n.named_child(i as u32));
            }
        }
        walked
    }

    /// `self.sqs = value`, `this.client = value`: the field's name and the
    /// value.
    fn field_set(&self, n: Node<'a>) -> Option<(&'a str, Node<'a>)> {
        if !matches!(n.kind(), "assignment" | "assignment_expression") {
            return None;
        }
        let (left, right) = (n.child_by_field_name("left")?, n.child_by_field_name("right")?);
        if !matches!(left.kind(), "attribute" | "member_expression" | "field_access") {
            return None;
        }
        let field = left
            .child_by_field_name("attribute")
            .or_else(|| left.child_by_field_name("property"))
            .or_else(|| left.child_by_field_name("field"))?;
        Some((self.text_of(field), right))
    }

    /// The last name of what a call calls: `setInterval`, `Timer` of
    /// `threading.Timer`, `scheduleAtFixedRate` of a Java method call.
    pub(super) fn callee_last(&self, call: Node<'a>) -> &'a str {
        let callee = match call.kind() {
            "method_invocation" => call.child_by_field_name("name"),
            "call" | "call_expression" => call.child_by_field_name("function"),
            _ => None,
        };
        let text = callee.map(|c| self.text_of(c)).unwrap_or_default();
        text.rsplit('.').next().unwrap_or(text)
    }
}
