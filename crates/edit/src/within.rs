//! Set a field inside a nested map, creating the map when it is absent
//! (an EventBridge target's `SqsParameters: {MessageGroupId: ...}`, a
//! Terraform `sqs_target { message_group_id = ... }` block).

use hcl_edit::Span as _;

use super::Edit;
use super::insert::{block_end, flow_member, json_member};
use super::locate::line_ending;
use super::render::literal;
use super::terraform::{BlockTail, Parsed};
use sqsguard_model::Scalar;
use sqsguard_source::{Source, Span, lines};
use sqsguard_syntax::{Kind, Node};

/// `inner: value` in the map `outer` of the map `node`, the map added when
/// absent: block, flow or JSON, as `node` is written.
pub(crate) fn within(file: &Source, node: &Node, json: bool, outer: &str, inner: &str, value: &Scalar) -> Option<Edit> {
    let text = &file.text;
    let v = literal(value, json);
    let (at, replacement) = match node.get(outer) {
        Some(existing) => {
            if existing.get(inner).is_some() {
                return None;
            }
            let line = if json { format!("\"{inner}\": {v}") } else { format!("{inner}: {v}") };
            add(text, existing, json, &line, |_, _| format!("{inner}: {v}"))?
        }
        None => {
            let flat =
                if json { format!("\"{outer}\": {{\"{inner}\": {v}}}") } else { format!("{outer}: {{{inner}: {v}}}") };
            add(text, node, json, &flat, |nl, pad| format!("{outer}:{nl}{pad}  {inner}: {v}"))?
        }
    };
    Some(Edit { file: file.clone(), span: Span::new(at, at), replacement })
}

/// A member added after the last of the map `node`'s: `flat` in JSON or a
/// flow mapping, `block(line ending, indentation)` in a block mapping.
fn add(
    text: &str,
    node: &Node,
    json: bool,
    flat: &str,
    block: impl Fn(&str, &str) -> String,
) -> Option<(usize, String)> {
    let Kind::Map(entries) = &node.kind else { return None };
    let nl = line_ending(text);
    if json {
        let last = entries.last()?;
        return Some((last.value.span.end, json_member(text, entries, flat, nl)));
    }
    if text[node.span.start..].starts_with('{') {
        return flow_member(text, node, flat.to_string());
    }
    let first = entries.first()?;
    let column = first.key_span.start - lines::line_start(text, first.key_span.start);
    let pad = " ".repeat(column);
    let (at, end_line) = block_end(text, entries.last()?.key_span.start)?;
    let start = if end_line { nl } else { "" };
    Some((at, format!("{start}{pad}{}{nl}", block(nl, &pad))))
}

/// SQS021 in a `.tf` file: `outer { inner = value }` added as the last
/// block of the resource block at `at` (an `aws_cloudwatch_event_target`
/// without one), after a blank line as `terraform fmt` leaves it.
pub(crate) fn hcl_block(
    file: &Source,
    parsed: &Parsed,
    at: Span,
    outer: &str,
    inner: &str,
    value: &Scalar,
) -> Option<Edit> {
    let text = &file.text;
    let block = parsed.block_at(at.start)?;
    if block.ident.as_str() != "resource" || block.labels.len() != 2 {
        return None;
    }
    let taken = |k: &str| block.body.blocks().any(|b| b.ident.as_str() == k || b.ident.as_str() == "dynamic");
    if taken(outer) || block.body.attributes().any(|a| a.key.as_str() == outer) {
        return None;
    }
    let span = block.span()?;
    let BlockTail { at, indent, nl, blank, .. } = BlockTail::of(text, span)?;
    let v = super::render::literal(value, true);
    let replacement = format!("{blank}{indent}{outer} {{{nl}{indent}  {inner} = {v}{nl}{indent}}}{nl}");
    Some(Edit { file: file.clone(), span: Span::new(at, at), replacement })
}
