//! SQS004: a queue without a RedrivePolicy (unless it is itself a DLQ).

use super::{Context, Findings, Link, LiveInput};
use sqsguard_finding::{Applicability, NewFifo, NewQueue, NewResource, Op, Remedy};
use sqsguard_model::field::guidance;
use sqsguard_model::module;
use sqsguard_model::{Alt, Dialect, Field, Origin, Queue, Value};

rule! {
    code: "SQS004",
    name: "missing-dlq",
    severity: Warning,
    summary: "Queue has no dead-letter queue (RedrivePolicy)",
    kind: Template,
    check: check,
    reads: &[Link::DeadLetterTarget],
    needs: &[LiveInput::QueueAttributes],
    misled_without: &[LiveInput::QueueAttributes],
}

fn check(cx: &Context<'_>, findings: &mut Findings) {
    for (qi, queue) in cx.model.queues.iter().enumerate() {
        if cx.index.is_dead_letter_target(qi) {
            continue;
        }
        for alt in queue.redrive.iter() {
            if !matches!(alt.value, Value::Absent) {
                continue;
            }
            let message = format!(
                "queue {} has no {}: a message that keeps failing is received again and again until MessageRetentionPeriod expires, then lost{}",
                queue.resource,
                cx.name(Field::RedrivePolicy),
                alt.when
            );
            let fix = match &queue.module {
                Some(m) if m.source.is_registry(module::SQS) => create_dlq(&m.call) + NEW_DLQ_ALARM,
                // A live queue is pointed at a queue that exists: no new one.
                _ if cx.dialect() == Dialect::Api => add_redrive_policy(Dialect::Api),
                _ => add_redrive_policy(cx.dialect()) + NEW_DLQ_ALARM,
            };
            let remedy = Remedy {
                resource: queue.resource.clone(),
                field: Some(Field::RedrivePolicy),
                ops: new_queue(queue, &alt.origin, cx.dialect())
                    .map(|q| Op::AddResource(NewResource::Queue(q)))
                    .into_iter()
                    .collect(),
                at: alt.origin.clone(),
                absent: true,
                conditional: !alt.when.is_always(),
                given: alt.given.clone(),
                // A new resource someone has to watch.
                applicability: Applicability::Unsafe,
            };
            findings.push(RULE.finding(&queue.resource, &alt.origin, message, fix).with_remedy(remedy));
        }
    }
}

/// The dead-letter queue to add to `queue`, from what the model resolved:
/// of the queue's type, named after it when it has a known FIFO name,
/// keeping messages longer than it does (SQS007). `None` (the hint) when
/// that is not known: the queue's type or retention depends on a
/// condition, or is not one place in the queue's file; the queue already
/// keeps messages the longest; a FIFO name that is not known.
fn new_queue(queue: &Queue, at: &Origin, dialect: Dialect) -> Option<NewQueue> {
    let retention_seconds = guidance::MAX_RETENTION_SECONDS;
    let fifo = same_type(queue, at)?;
    // The new queue must keep messages longer than this one.
    match only(queue.retention_period.iter())? {
        Alt { value: Value::Absent, .. } => {}
        alt @ Alt { value: Value::Known(n), .. } if *n < retention_seconds && in_place(alt) => {}
        _ => return None,
    }
    let name = match fifo {
        NewFifo::Same { known: Some(true), .. } => fifo_name(queue, dialect)?,
        NewFifo::Same { known: None, .. } if queue.name.is_set_somewhere() => return None,
        _ => None,
    };
    Some(NewQueue { name, fifo, retention_seconds, max_receive_count: guidance::SUGGESTED_MAX_RECEIVE_COUNT })
}

/// Of the queue's type: where its FIFO flag is written and what the model
/// resolved it to; `None` when that is not one place in the queue's file
/// (a condition's branches, a variable's default elsewhere).
fn same_type(queue: &Queue, at: &Origin) -> Option<NewFifo> {
    let Origin::File { file, .. } = at else { return None };
    let alt = only(queue.fifo.iter())?;
    let known = match &alt.value {
        Value::Absent => return Some(NewFifo::Standard),
        Value::Known(b) => Some(*b),
        Value::Unknown(_) => None,
    };
    match alt.written_at() {
        Origin::File { file: f, span } if f.path == file.path => Some(NewFifo::Same { known, at: *span }),
        _ => None,
    }
}

/// The new FIFO queue's name: `<name>-dlq.fifo` for a queue whose name the
/// model knows and the file writes as a literal in its own place;
/// `Some(None)` (the provider names it) when the queue has none, or, in a
/// template, when its name is anything else; `None` (no fix) for such a
/// Terraform name.
fn fifo_name(queue: &Queue, dialect: Dialect) -> Option<Option<String>> {
    match only(queue.name.iter()) {
        Some(Alt { value: Value::Absent, .. }) => Some(None),
        Some(alt @ Alt { value: Value::Known(n), .. }) if in_place(alt) && reads(&alt.origin, &n.text) => {
            let base = n.text.strip_suffix(".fifo").unwrap_or(&n.text);
            Some(Some(format!("{base}-dlq.fifo")))
        }
        _ if dialect == Dialect::Terraform => None,
        _ => Some(None),
    }
}

/// Whether `origin` is `text` written as it is, quoted or not: not a
/// parameter (`!Ref QueueName`), a variable or an interpolation, whose
/// value may differ between deployments, so that a name derived from it
/// could be taken twice.
fn reads(origin: &Origin, text: &str) -> bool {
    let Origin::File { file, span } = origin else { return false };
    file.text.get(span.start..span.end).is_some_and(|w| w.trim().trim_matches(['"', '\'']) == text)
}

/// The attribute's one alternative (not a condition's branches).
fn only<'a, T: 'a>(mut alts: impl Iterator<Item = &'a Alt<T>>) -> Option<&'a Alt<T>> {
    let alt = alts.next()?;
    alts.next().is_none().then_some(alt)
}

/// Whether a value is written where the queue uses it, not given for the
/// run nor brought from a variable's default.
fn in_place<T>(alt: &Alt<T>) -> bool {
    alt.written.is_none() && alt.given.is_none()
}

/// What follows a new dead-letter queue, said with every SQS004 fix of a
/// file (the fix writes a new queue; a live queue is pointed at one that
/// exists): SQS015
/// reports it until an alarm watches it, and the alarm's action (a topic,
/// a pager) is a choice no fix can make.
const NEW_DLQ_ALARM: &str = "; the new dead-letter queue then gets SQS015 until a CloudWatch alarm watches it (what the alarm notifies is yours to choose)";

/// How to give a queue of the registry SQS module a dead-letter queue: from
/// version 4.0 the module makes one, and the redrive_policy to it, from one
/// input (maxReceiveCount 5, the module's default, unless its
/// `redrive_policy` input sets one).
fn create_dlq(call: &str) -> String {
    format!(
        "set create_dlq = true in {call} ({} 4.0 or later): the module then creates a dead-letter queue of the same type and the redrive_policy to it (maxReceiveCount 5 unless redrive_policy = {{ maxReceiveCount = N }} sets it)",
        module::SQS
    )
}

/// How to give a queue a dead-letter queue (SQS004).
fn add_redrive_policy(dialect: Dialect) -> String {
    let count = guidance::SUGGESTED_MAX_RECEIVE_COUNT;
    match dialect {
        // A live queue: the attribute to set, and the call that sets it.
        Dialect::Api => format!(
            "set the queue's RedrivePolicy to {{\"deadLetterTargetArn\": \"<the ARN of a queue of the same type>\", \"maxReceiveCount\": \"{count}\"}} (aws sqs set-queue-attributes)"
        ),
        Dialect::CloudFormation | Dialect::Serverless => format!(
            "add a RedrivePolicy with deadLetterTargetArn (a queue of the same type) and maxReceiveCount (for example {count})"
        ),
        Dialect::Terraform => format!(
            "add redrive_policy = jsonencode({{ deadLetterTargetArn = <a queue of the same type>.arn, maxReceiveCount = {count} }})"
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sqsguard_source::{SourceFile, Span};

    #[test]
    fn a_name_is_derived_only_from_a_literal_written_in_place() {
        let file =
            SourceFile::new(std::path::PathBuf::from("t.yaml"), "QueueName: \"jobs.fifo\"\nOther: !Ref QName\n".into());
        let at = |start, end| Origin::File { file: file.clone(), span: Span::new(start, end) };
        assert!(reads(&at(11, 22), "jobs.fifo"));
        // The same value brought from a parameter: it may differ per stack.
        assert!(!reads(&at(30, 40), "jobs.fifo"));
        assert!(!reads(&Origin::live("https://sqs/q", None, None), "jobs.fifo"));
    }
}
