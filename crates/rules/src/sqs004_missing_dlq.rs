//! SQS004: a queue without a RedrivePolicy (unless it is itself a DLQ).

use super::{Context, Findings, Link, LiveInput};
use sqsguard_finding::{Applicability, NewResource, Op, Remedy};
use sqsguard_model::field::guidance;
use sqsguard_model::module;
use sqsguard_model::{Dialect, Field, Origin, Value};
use sqsguard_source::Span;

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
                field: Field::RedrivePolicy,
                ops: same_type(queue, &alt.origin)
                    .map(|fifo_at| {
                        Op::AddResource(NewResource::DeadLetterQueue {
                            max_receive_count: guidance::SUGGESTED_MAX_RECEIVE_COUNT,
                            retention_seconds: guidance::MAX_RETENTION_SECONDS,
                            fifo_at,
                        })
                    })
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

/// Where the queue's FIFO flag is written, for the new queue to be of the
/// same type (`Some(None)`: nowhere, a standard queue); `None` when that
/// is not one place in the queue's file (a condition's branches).
fn same_type(queue: &sqsguard_model::Queue, at: &Origin) -> Option<Option<Span>> {
    let Origin::File { file, .. } = at else { return None };
    match queue.fifo.iter().collect::<Vec<_>>()[..] {
        [alt] if matches!(alt.value, Value::Absent) => Some(None),
        [alt] => match alt.written_at() {
            Origin::File { file: f, span } if f.path == file.path => Some(Some(*span)),
            _ => None,
        },
        _ => None,
    }
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
