//! Where a handler ends its invocation with an error on a record's
//! failure path (SQS213): a raise or throw in the `except`/`catch` of a
//! loop over the event's records, which no `try` around it catches; in
//! Go, an error returned inside that loop (a `forEach` or `map` callback
//! over the records is that loop's body); and, in every language, one
//! after that loop in an `if` on what the loop writes (`if failures:
//! raise`). A handler that also returns batch item failures loses them
//! there: Lambda counts the whole batch as failed.
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
            // `event.Records.forEach((record) => { try ... catch { throw } })`:
            // the callback is the loop's body.
            if let Some(each) = each_record(parent, text) {
                return handling && !caught_further_out(each);
            }
            return after_a_failure(raise, parent, text);
        }
        at = parent;
    }
    false
}

/// Whether `raise` (no `try` around it, in `function`) is after a loop
/// over the records and in an `if` whose condition reads what that loop
/// writes where it handles a record's failure: `if failures: raise`,
/// `if (failed) throw`, Go's `if len(failures) > 0 { return resp,
/// errFailed }`. That is the raise "after the loop when a record failed";
/// an `if` on anything else (a count, a setting) is not known to be one.
fn after_a_failure(raise: Node<'_>, function: Node<'_>, text: &str) -> bool {
    let mut condition = None;
    let mut at = raise;
    while let Some(parent) = at.parent() {
        if parent.id() == function.id() {
            break;
        }
        if matches!(parent.kind(), "if_statement" | "elif_clause") && condition.is_none() {
            condition = parent.child_by_field_name("condition");
        }
        at = parent;
    }
    let Some(condition) = condition else { return false };
    let mut names = Vec::new();
    identifiers(condition, text, &mut names);
    let mut stack = vec![function.child_by_field_name("body").unwrap_or(function)];
    while let Some(n) = stack.pop() {
        if n.start_byte() >= raise.start_byte() || (FUNCTIONS.contains(&n.kind()) && n.id() != function.id()) {
            continue;
        }
        if LOOPS.contains(&n.kind()) && n.end_byte() <= condition.start_byte() && over_records(n, text) {
            let mut written = Vec::new();
            for failing in failure_handling(n, text) {
                writes(failing, text, &mut written);
            }
            if names.iter().any(|name| written.contains(name)) {
                return true;
            }
            continue;
        }
        for i in 0..n.named_child_count() {
            stack.extend(n.named_child(i as u32));
        }
    }
    false
}

/// Where a loop handles a record's failure: its `except`/`catch`
/// clauses, and the `if`s that test an error or a failure (Go's `if err
/// != nil`, `if not ok`, `if result.failed`). A name written elsewhere in
/// the loop (a count, a total) says nothing of a failure.
fn failure_handling<'n>(lp: Node<'n>, text: &str) -> Vec<Node<'n>> {
    let mut out = Vec::new();
    let mut stack = vec![lp];
    while let Some(n) = stack.pop() {
        let tests_a_failure = n.kind() == "if_statement"
            && n.child_by_field_name("condition").is_some_and(|c| {
                let c = text[c.byte_range()].to_ascii_lowercase();
                ["err", "fail", "exception", "not ok", "!ok"].iter().any(|w| c.contains(w))
            });
        if CATCHES.contains(&n.kind()) || tests_a_failure {
            out.push(n);
            continue;
        }
        for i in 0..n.named_child_count() {
            stack.extend(n.named_child(i as u32));
        }
    }
    out
}

/// The identifiers under `node`, as written.
fn identifiers<'t>(node: Node<'_>, text: &'t str, out: &mut Vec<&'t str>) {
    let mut stack = vec![node];
    while let Some(n) = stack.pop() {
        if n.kind() == "identifier" {
            out.push(&text[n.byte_range()]);
        }
        for i in 0..n.named_child_count() {
            stack.extend(n.named_child(i as u32));
        }
    }
}

/// The names a loop writes: assigned (`failed = True`, Go's `failures =
/// append(failures, ...)`), or added to (`failures.append(...)`,
/// `failures.push(...)`, `failures.add(...)`).
fn writes<'t>(lp: Node<'_>, text: &'t str, out: &mut Vec<&'t str>) {
    const ADDS: &[&str] = &["append", "push", "add", "extend", "insert", "put", "unshift"];
    let mut stack = vec![lp];
    while let Some(n) = stack.pop() {
        let target = match n.kind() {
            "assignment" | "assignment_expression" | "augmented_assignment" | "augmented_assignment_expression" => {
                n.child_by_field_name("left")
            }
            "assignment_statement" | "short_var_declaration" => n.child_by_field_name("left"),
            "call" | "call_expression" | "method_invocation" => {
                let callee = n.child_by_field_name("function");
                let method = callee
                    .and_then(|f| f.child_by_field_name("attribute").or_else(|| f.child_by_field_name("property")))
                    .or_else(|| n.child_by_field_name("name"));
                let object =
                    callee.and_then(|f| f.child_by_field_name("object")).or_else(|| n.child_by_field_name("object"));
                method.filter(|m| ADDS.contains(&&text[m.byte_range()])).and(object)
            }
            _ => None,
        };
        if let Some(target) = target {
            identifiers(target, text, out);
        }
        for i in 0..n.named_child_count() {
            stack.extend(n.named_child(i as u32));
        }
    }
}

/// The call a function is the callback of, when it is called for each
/// record: `event.Records.forEach(fn)`, `records.map(fn)`, Java's
/// `event.getRecords().forEach(fn)`.
fn each_record<'n>(function: Node<'n>, text: &str) -> Option<Node<'n>> {
    let args = function.parent().filter(|a| matches!(a.kind(), "arguments" | "argument_list"))?;
    let call = args.parent()?;
    let callee = call.child_by_field_name("function").unwrap_or(call);
    let end = args.start_byte();
    let written = text.get(callee.start_byte()..end)?.to_ascii_lowercase();
    let method = written.rsplit('.').next().unwrap_or_default().trim();
    (matches!(method, "foreach" | "map") && written.contains("records")).then_some(call)
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
