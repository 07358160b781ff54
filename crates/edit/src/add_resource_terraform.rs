//! `AddResource(NewResource::Queue)` in Terraform: `redrive_policy` added
//! to the queue and a `resource "aws_sqs_queue" "<name>_dlq"` beside it,
//! in a `.tf` file's block or a `*.tf.json` object, as the recipe says
//! (see [`super::add_resource`] for what is and is not written).

use hcl_edit::Span as _;

use super::insert::indent_of;
use super::locate::{Keys, line_ending};
use super::terraform::{BlockTail, Parsed};
use super::{Edit, NewFifo, NewQueue};
use sqsguard_model::{Dialect, Field};
use sqsguard_source::{Source, Span};
use sqsguard_syntax::{Kind, Node};

/// The names the queue's arguments are written by.
const TF: Dialect = Dialect::Terraform;

/// Whether the new queue is FIFO, when the queue's flag is written as a
/// literal (`written`: whether the text at its place is one); an
/// expression is not copied into Terraform.
fn fifo(fifo: &NewFifo, written: impl Fn(Span) -> bool) -> Option<bool> {
    match fifo {
        NewFifo::Standard => Some(false),
        NewFifo::Same { known, at } => (*known).filter(|_| written(*at)),
    }
}

/// The new queue's arguments in Terraform, each value as HCL and JSON
/// write it alike.
fn terraform_attributes(name: Option<&str>, fifo: bool, retention_seconds: i64) -> Vec<(&'static str, String)> {
    let mut attrs = Vec::new();
    if let Some(name) = name {
        attrs.push(("name", serde_json::Value::from(name).to_string()));
    }
    if fifo {
        attrs.push(("fifo_queue", "true".into()));
    }
    attrs.push(("message_retention_seconds", retention_seconds.to_string()));
    attrs
}

/// The fix in a `.tf` file: `redrive_policy` added as the queue block's
/// last attribute (after a blank line, so `terraform fmt` keeps its
/// answer), and `resource "aws_sqs_queue" "<name>_dlq"` after the block.
/// `taken` says whether a resource address is already declared in the
/// module.
pub(crate) fn hcl(
    file: &Source,
    parsed: &Parsed,
    at: Span,
    recipe: &NewQueue,
    taken: impl Fn(&str) -> bool,
) -> Option<Vec<Edit>> {
    let NewQueue { name, retention_seconds, max_receive_count, .. } = recipe;
    let text = &file.text;
    let block = parsed.block_at(at.start)?;
    if block.ident.as_str() != "resource" || block.labels.len() != 2 || block.labels[0].as_str() != "aws_sqs_queue" {
        return None;
    }
    let attr = |k: &str| block.body.attributes().find(|a| a.key.as_str() == k);
    if ["count", "for_each", TF.name(Field::RedrivePolicy)].iter().any(|k| attr(k).is_some())
        || block.body.blocks().any(|b| b.ident.as_str() == "dynamic")
    {
        return None;
    }
    let new = format!("{}_dlq", block.labels[1].as_str());
    if taken(&format!("aws_sqs_queue.{new}")) {
        return None;
    }
    let fifo =
        fifo(&recipe.fifo, |at| text.get(at.start..at.end).is_some_and(|v| matches!(v.trim(), "true" | "false")))?;
    let span = block.span()?;
    let tail = BlockTail::of(text, span.clone())?;
    let BlockTail { at: line_start, outer, indent, nl, blank } = tail;
    let redrive = format!(
        "{blank}{indent}redrive_policy = jsonencode({{{nl}{indent}  deadLetterTargetArn = aws_sqs_queue.{new}.arn{nl}{indent}  maxReceiveCount     = {max_receive_count}{nl}{indent}}}){nl}"
    );
    let attrs = terraform_attributes(name.as_deref(), fifo, *retention_seconds);
    let width = attrs.iter().map(|(k, _)| k.len()).max().unwrap_or(0);
    let lines: String = attrs.iter().map(|(k, v)| format!("{indent}{k:width$} = {v}{nl}")).collect();
    let new_block = format!("{nl}{nl}{outer}resource \"aws_sqs_queue\" \"{new}\" {{{nl}{lines}{outer}}}");
    let edit = |pos: usize, replacement: String| Edit { file: file.clone(), span: Span::new(pos, pos), replacement };
    Some(vec![edit(line_start, redrive), edit(span.end, new_block)])
}

/// The fix in a `*.tf.json` file: a `"<name>_dlq"` object beside the
/// queue's under `resource.aws_sqs_queue`, and a `redrive_policy` member
/// to it, written as Terraform's JSON syntax writes an expression.
pub(crate) fn terraform_json(
    file: &Source,
    keys: &mut Keys,
    (root, at): (&Node, Span),
    address: &str,
    recipe: &NewQueue,
    taken: impl Fn(&str) -> bool,
) -> Option<Vec<Edit>> {
    let NewQueue { name: dlq_name, retention_seconds, max_receive_count, .. } = recipe;
    let text = &file.text;
    let name = address.strip_prefix("aws_sqs_queue.")?;
    // The object of queues by name (not the list form), and the queue's.
    let queues = root.get("resource")?.get("aws_sqs_queue")?;
    let Kind::Map(siblings) = &queues.kind else { return None };
    // The reader refuses a repeated key: the entry of the name is the one.
    let queue = keys.entry(queues, name).filter(|e| e.key_span == at)?;
    let Kind::Map(members) = &queue.value.kind else { return None };
    let member = |k: &str| members.iter().find(|e| e.key == k).map(|e| &e.value.kind);
    if ["count", "for_each", TF.name(Field::RedrivePolicy), "dynamic"].iter().any(|k| member(k).is_some()) {
        return None;
    }
    let new = format!("{name}_dlq");
    if taken(&format!("aws_sqs_queue.{new}")) || keys.entry(queues, &new).is_some() {
        return None;
    }
    let fifo = fifo(&recipe.fifo, |at| {
        queue
            .value
            .as_map()
            .is_some_and(|m| m.iter().any(|e| e.value.span == at && matches!(e.value.kind, Kind::Bool(_))))
    })?;
    let nl = line_ending(text);
    let outer = indent_of(text, siblings.first()?.key_span.start)?;
    let inner = indent_of(text, members.first()?.key_span.start)?;
    let policy = format!(
        "${{jsonencode({{deadLetterTargetArn = aws_sqs_queue.{new}.arn, maxReceiveCount = {max_receive_count}}})}}"
    );
    let redrive = format!(",{nl}{inner}\"redrive_policy\": {}", serde_json::Value::from(policy));
    let attrs = terraform_attributes(dlq_name.as_deref(), fifo, *retention_seconds);
    let lines: Vec<String> = attrs.iter().map(|(k, v)| format!("{inner}\"{k}\": {v}")).collect();
    let new_queue = format!(",{nl}{outer}\"{new}\": {{{nl}{}{nl}{outer}}}", lines.join(&format!(",{nl}")));
    let last_member = members.last()?.value.span.end;
    let last_sibling = siblings.last()?.value.span.end;
    let edit = |pos: usize, replacement: String| Edit { file: file.clone(), span: Span::new(pos, pos), replacement };
    Some(vec![edit(last_member, redrive), edit(last_sibling, new_queue)])
}
