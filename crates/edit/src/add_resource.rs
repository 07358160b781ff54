//! `AddResource(NewResource::Queue)` in a template: a new queue beside the
//! queue (`<Queue>DLQ`, SQS004's dead-letter queue) and the RedrivePolicy
//! that points at it. What the new queue is (name, type, retention, the
//! link's maxReceiveCount) the recipe says, from the model; this only
//! writes it, reading the tree for where and how (indentation, flow or
//! block, JSON, and whether the queue's FIFO flag is a literal or an
//! expression to copy).
//!
//! Two edits that go in together or not at all (as `fix::apply` applies them):
//! where they meet (the queue's last property is the end of its resource)
//! they are one edit. Only shapes whose result is certain are written: a
//! queue written as a YAML block, a YAML flow mapping or in JSON, an HCL
//! block or a `*.tf.json` object without `count`/`for_each`, and no
//! resource already of the new name.

use super::insert::{block_end, flow_close, flow_member, indent_of, json_member, props_key};
use super::locate::{Keys, line_ending};
use super::{Edit, NewFifo, NewQueue};
use sqsguard_source::{Source, Span, lines};
use sqsguard_syntax::{Entry, Kind, Node};

/// Whether the new queue is FIFO.
#[derive(Debug, PartialEq, Eq)]
enum Fifo {
    Literal(bool),
    /// As the queue's expression says (its text).
    Same(String),
}

impl Fifo {
    /// The value written in the new queue, if any (`true`, `!Ref IsFifo`).
    fn written(&self) -> Option<&str> {
        match self {
            Fifo::Literal(true) => Some("true"),
            Fifo::Literal(false) => None,
            Fifo::Same(text) => Some(text),
        }
    }
}

/// What the new queue is, as the recipe says and the file writes it.
struct Dlq {
    fifo: Fifo,
    name: Option<String>,
    max_receive_count: i64,
    retention_seconds: i64,
}

/// How the new queue's FIFO flag is written in a template whose queue has
/// `props`: `None` when it cannot be (a literal the model did not resolve,
/// an expression written over lines).
fn written(text: &str, keys: &mut Keys, props: Option<&Node>, fifo: &NewFifo) -> Option<Fifo> {
    let NewFifo::Same { known, at } = fifo else { return Some(Fifo::Literal(false)) };
    match &keys.node_at(props?, *at)?.kind {
        Kind::Bool(_) => Some(Fifo::Literal((*known)?)),
        Kind::String(s) if s == "true" || s == "false" => Some(Fifo::Literal((*known)?)),
        // An intrinsic function, on one line so that it keeps its meaning
        // wherever it is copied.
        Kind::Map(_) => {
            let written = text.get(at.start..at.end)?;
            (!written.contains(['\n', '\r'])).then(|| Fifo::Same(written.to_string()))
        }
        _ => None,
    }
}

/// The fix in a CloudFormation/SAM template or a Serverless service's
/// `resources`: `resources` is the mapping holding the queue's entry.
pub(crate) fn template(
    file: &Source,
    keys: &mut Keys,
    resources: &Node,
    queue: &Entry,
    json: bool,
    new: &NewQueue,
) -> Option<Vec<Edit>> {
    let text = &file.text;
    if queue.value.get("Type")?.as_str()? != "AWS::SQS::Queue" {
        return None;
    }
    let id = format!("{}DLQ", queue.key);
    if keys.entry(resources, &id).is_some() {
        return None;
    }
    let props = queue.value.get("Properties");
    let dlq = Dlq {
        fifo: written(text, keys, props, &new.fifo)?,
        name: new.name.clone(),
        max_receive_count: new.max_receive_count,
        retention_seconds: new.retention_seconds,
    };
    let condition = match queue.value.get("Condition") {
        Some(c) => Some(c.as_str()?.to_string()),
        None => None,
    };
    let nl = line_ending(text);
    let edit = |pos: usize, replacement: String| Edit { file: file.clone(), span: Span::new(pos, pos), replacement };
    if json {
        let (redrive_at, redrive) = json_redrive(text, queue, &id, &dlq, nl)?;
        let (queue_at, new_queue) = json_queue(text, queue, &id, &dlq, condition.as_deref(), nl)?;
        return Some(vec![edit(redrive_at, redrive), edit(queue_at, new_queue)]);
    }
    if text[queue.value.span.start..].starts_with('{') {
        return flow(text, resources, queue, &id, &dlq, condition.as_deref(), nl)
            .map(|edits| edits.into_iter().map(|(pos, replacement)| edit(pos, replacement)).collect());
    }
    let key_indent = indent_of(text, queue.key_span.start)?;
    let first = queue.value.as_map()?.first()?;
    let step = indent_of(text, first.key_span.start)?.len().checked_sub(key_indent.len()).filter(|s| *s > 0)?;
    let pad = |n: usize| format!("{key_indent}{}", " ".repeat(step * n));
    let redrive_lines = |indent: &str| {
        format!(
            "{indent}RedrivePolicy:{nl}{indent}{s}deadLetterTargetArn: !GetAtt {id}.Arn{nl}{indent}{s}maxReceiveCount: {}{nl}",
            dlq.max_receive_count,
            s = " ".repeat(step)
        )
    };
    let (redrive_at, redrive) = match props {
        Some(p) if text[p.span.start..].starts_with('{') => flow_member(
            text,
            p,
            format!(
                "RedrivePolicy: {{deadLetterTargetArn: !GetAtt {id}.Arn, maxReceiveCount: {}}}",
                dlq.max_receive_count
            ),
        )?,
        Some(p) => {
            let entries = p.as_map()?;
            let indent = indent_of(text, entries.first()?.key_span.start)?;
            let (at, end_line) = block_end(text, props_key(queue)?.start)?;
            (at, format!("{}{}", if end_line { nl } else { "" }, redrive_lines(indent)))
        }
        None => {
            let (at, end_line) = block_end(text, queue.key_span.start)?;
            (at, format!("{}{}Properties:{nl}{}", if end_line { nl } else { "" }, pad(1), redrive_lines(&pad(2))))
        }
    };
    // The new resource after the queue's block, separated as the queue is
    // from what comes before it.
    let (queue_end, end_line) = block_end(text, queue.key_span.start)?;
    let line_start = lines::line_start(text, queue.key_span.start);
    let spaced = text[..line_start].trim_end_matches(' ').ends_with(&format!("{nl}{nl}"));
    let mut new_queue = String::new();
    if end_line && queue_end != redrive_at {
        new_queue.push_str(nl);
    }
    if spaced {
        new_queue.push_str(nl);
    }
    new_queue.push_str(&block_queue(key_indent, step, &id, condition.as_deref(), &dlq, nl));
    if queue_end == redrive_at {
        return Some(vec![edit(redrive_at, format!("{redrive}{new_queue}"))]);
    }
    Some(vec![edit(redrive_at, redrive), edit(queue_end, new_queue)])
}

/// The new queue's entry in block YAML: its key at `key_indent`, each
/// level `step` spaces deeper.
fn block_queue(key_indent: &str, step: usize, id: &str, condition: Option<&str>, dlq: &Dlq, nl: &str) -> String {
    let pad = |n: usize| format!("{key_indent}{}", " ".repeat(step * n));
    let mut new_queue = format!("{key_indent}{id}:{nl}{}Type: AWS::SQS::Queue{nl}", pad(1));
    if let Some(c) = condition {
        new_queue.push_str(&format!("{}Condition: {c}{nl}", pad(1)));
    }
    new_queue.push_str(&format!("{}Properties:{nl}", pad(1)));
    new_queue.push_str(&format!("{}MessageRetentionPeriod: {}{nl}", pad(2), dlq.retention_seconds));
    if let Some(fifo) = dlq.fifo.written() {
        new_queue.push_str(&format!("{}FifoQueue: {fifo}{nl}", pad(2)));
    }
    if let Some(name) = &dlq.name {
        new_queue.push_str(&format!("{}QueueName: {}{nl}", pad(2), serde_json::Value::from(name.as_str())));
    }
    new_queue
}

/// The fix of a queue written whole as a YAML flow mapping (`Jobs: {Type:
/// AWS::SQS::Queue, Properties: {...}}`): the RedrivePolicy inside its
/// Properties (or a new Properties), and the new queue as a flow mapping
/// too, on a line of its own after the queue's under a block `Resources`,
/// or as the next member of a flow one.
fn flow(
    text: &str,
    resources: &Node,
    queue: &Entry,
    id: &str,
    dlq: &Dlq,
    condition: Option<&str>,
    nl: &str,
) -> Option<Vec<(usize, String)>> {
    let policy =
        format!("RedrivePolicy: {{deadLetterTargetArn: !GetAtt {id}.Arn, maxReceiveCount: {}}}", dlq.max_receive_count);
    let redrive = match queue.value.get("Properties") {
        Some(p) if text[p.span.start..].starts_with('{') => flow_member(text, p, policy)?,
        Some(_) => return None,
        None => flow_member(text, &queue.value, format!("Properties: {{{policy}}}"))?,
    };
    let mut props = vec![format!("MessageRetentionPeriod: {}", dlq.retention_seconds)];
    if let Some(fifo) = dlq.fifo.written() {
        props.push(format!("FifoQueue: {fifo}"));
    }
    if let Some(name) = &dlq.name {
        props.push(format!("QueueName: {}", serde_json::Value::from(name.as_str())));
    }
    let condition = condition.map(|c| format!("Condition: {c}, ")).unwrap_or_default();
    let new_queue = format!("{id}: {{Type: AWS::SQS::Queue, {condition}Properties: {{{}}}}}", props.join(", "));
    let end = flow_close(text, &queue.value)? + 1;
    if text[resources.span.start..].starts_with('{') {
        return Some(vec![redrive, (end, format!(", {new_queue}"))]);
    }
    // A block `Resources`: a line of its own, at the queue's indentation,
    // after a blank line when the queue has one before it.
    let key_indent = indent_of(text, queue.key_span.start)?;
    let line_end = lines::content_end(text, end);
    let line_start = lines::line_start(text, queue.key_span.start);
    let spaced = text[..line_start].trim_end_matches(' ').ends_with(&format!("{nl}{nl}"));
    let blank = if spaced { nl } else { "" };
    Some(vec![redrive, (line_end, format!("{nl}{blank}{key_indent}{new_queue}"))])
}

/// `"RedrivePolicy": {...}` added to the queue's JSON Properties (or a
/// new Properties holding it).
fn json_redrive(text: &str, queue: &Entry, id: &str, dlq: &Dlq, nl: &str) -> Option<(usize, String)> {
    let policy = format!(
        "{{\"deadLetterTargetArn\": {{\"Fn::GetAtt\": [\"{id}\", \"Arn\"]}}, \"maxReceiveCount\": {}}}",
        dlq.max_receive_count
    );
    let entries = queue.value.as_map()?;
    match queue.value.get("Properties") {
        Some(props) => {
            let inner = props.as_map()?;
            if inner.is_empty() {
                // `"Properties": {}`: inside the braces, on their line.
                let open = props.span.start;
                let body = text.get(open + 1..props.span.end.checked_sub(1)?)?;
                return (text.get(open..open + 1) == Some("{") && body.trim().is_empty())
                    .then(|| (open + 1, format!("\"RedrivePolicy\": {policy}")));
            }
            let end = inner.last()?.value.span.end;
            Some((end, json_member(text, inner, &format!("\"RedrivePolicy\": {policy}"), nl)))
        }
        None => {
            let indent = indent_of(text, entries.first()?.key_span.start)?;
            Some((
                entries.last()?.value.span.end,
                format!(",{nl}{indent}\"Properties\": {{\"RedrivePolicy\": {policy}}}"),
            ))
        }
    }
}

/// The new queue as a JSON member after the queue's.
fn json_queue(
    text: &str,
    queue: &Entry,
    id: &str,
    dlq: &Dlq,
    condition: Option<&str>,
    nl: &str,
) -> Option<(usize, String)> {
    let key_indent = indent_of(text, queue.key_span.start)?;
    let inner = indent_of(text, queue.value.as_map()?.first()?.key_span.start)?;
    let step = inner.len().checked_sub(key_indent.len()).filter(|s| *s > 0)?;
    let deeper = format!("{inner}{}", " ".repeat(step));
    let mut props = vec![format!("\"MessageRetentionPeriod\": {}", dlq.retention_seconds)];
    if let Some(fifo) = dlq.fifo.written() {
        props.push(format!("\"FifoQueue\": {fifo}"));
    }
    if let Some(name) = &dlq.name {
        props.push(format!("\"QueueName\": {}", serde_json::Value::from(name.as_str())));
    }
    let mut members = vec!["\"Type\": \"AWS::SQS::Queue\"".to_string()];
    if let Some(c) = condition {
        members.push(format!("\"Condition\": {}", serde_json::Value::from(c)));
    }
    let props = props.iter().map(|p| format!("{deeper}{p}")).collect::<Vec<_>>().join(&format!(",{nl}"));
    members.push(format!("\"Properties\": {{{nl}{props}{nl}{inner}}}"));
    let members = members.iter().map(|m| format!("{inner}{m}")).collect::<Vec<_>>().join(&format!(",{nl}"));
    Some((queue.value.span.end, format!(",{nl}{key_indent}\"{id}\": {{{nl}{members}{nl}{key_indent}}}")))
}
