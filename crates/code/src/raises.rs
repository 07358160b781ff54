//! Where a handler ends its invocation with an error on a record's
//! failure path (SQS213): a raise or throw in the `except`/`catch` of a
//! loop over the event's records, which no `try` around it catches; in
//! Go, an error returned inside that loop. A handler that also returns
//! batch item failures loses them there: Lambda counts the whole batch as
//! failed.
//!
//! The raises are the `raises.scm` pattern's matches; what surrounds each
//! is read from the tree, up to the function it is in. A loop is over the
//! records when its header names them (`event["Records"]`,
//! `event.Records`, `event.getRecords()`, `sqsEvent.Records`).

use tree_sitter::Node;

use super::lang::Language;
use super::unit::Unit;
use sqsguard_model::Origin;
use sqsguard_source::Span;

/// The clauses that handle an error: a raise inside one re-raises.
const CATCHES: &[&str] = &["except_clause", "catch_clause"];
/// The statements whose body an error is caught from.
const TRIES: &[&str] = &["try_statement", "try_with_resources_statement"];
use super::kinds::{FUNCTIONS, LOOPS};

/// The raises of `unit` inside `spans` (a handler's body) that are on a
/// record's failure path.
pub(crate) fn on_failure_path(unit: &Unit, spans: &[Span]) -> Vec<Origin> {
    let root = unit.tree.root_node();
    let text = unit.source.text.as_str();
    let inside = |s: Span| spans.iter().any(|d| d.start <= s.start && s.end <= d.end);
    let mut out = Vec::new();
    for span in unit.raises.iter().copied().filter(|s| inside(*s)) {
        let Some(node) = node_at(root, span) else { continue };
        if unit.language == Language::Go && !returns_an_error(node, text) {
            continue;
        }
        if failure_path(node, unit.language, text) {
            out.push(unit.origin(span));
        }
    }
    out
}

/// The node a pattern matched at `span`.
fn node_at(root: Node<'_>, span: Span) -> Option<Node<'_>> {
    let mut node = root.descendant_for_byte_range(span.start, span.end)?;
    while node.start_byte() != span.start || node.end_byte() != span.end {
        node = node.parent()?;
    }
    Some(node)
}

/// Go: `return resp, err` whose last value is not `nil`.
fn returns_an_error(node: Node<'_>, text: &str) -> bool {
    let Some(list) = node.named_child(0).filter(|l| l.kind() == "expression_list") else { return false };
    let count = list.named_child_count();
    count >= 2 && list.named_child(count as u32 - 1).is_some_and(|last| &text[last.byte_range()] != "nil")
}

/// Whether `raise` is in a handling clause of a loop over the records
/// (Go has none: inside the loop), with no `try` between it and the
/// function that would catch it.
fn failure_path(raise: Node<'_>, language: Language, text: &str) -> bool {
    let mut handling = language == Language::Go;
    let mut at = raise;
    while let Some(parent) = at.parent() {
        let kind = parent.kind();
        if CATCHES.contains(&kind) {
            handling = true;
        } else if TRIES.contains(&kind) && parent.child_by_field_name("body").is_some_and(|b| b.id() == at.id()) {
            // Raised in a `try`'s body: that `try` catches it.
            return false;
        } else if LOOPS.contains(&kind) && handling && over_records(parent, text) {
            // A `try` further out would still catch it.
            return !caught_further_out(parent);
        } else if FUNCTIONS.contains(&kind) {
            return false;
        }
        at = parent;
    }
    false
}

/// Whether a loop's header (what comes before its body) names the records.
fn over_records(lp: Node<'_>, text: &str) -> bool {
    let end = lp.child_by_field_name("body").map_or(lp.end_byte(), |b| b.start_byte());
    text.get(lp.start_byte()..end).is_some_and(|h| h.to_ascii_lowercase().contains("records"))
}

/// Whether a `try` between `node` and its function catches what it raises.
fn caught_further_out(node: Node<'_>) -> bool {
    let mut at = node;
    while let Some(parent) = at.parent() {
        if TRIES.contains(&parent.kind()) && parent.child_by_field_name("body").is_some_and(|b| b.id() == at.id()) {
            return true;
        }
        if FUNCTIONS.contains(&parent.kind()) {
            return false;
        }
        at = parent;
    }
    false
}

#[cfg(test)]
#[path = "raises_tests.rs"]
mod tests;
