//! SQS021: a producer that cannot deliver to the queue's type: a standard
//! SNS topic or an S3 notification into a FIFO queue, an EventBridge target
//! on a FIFO queue without a message group id or without content-based
//! deduplication, a FIFO queue as an EventBridge target's dead-letter queue.

use super::helpers::all_of;
use super::{Context, Findings, Link, LiveInput};
use sqsguard_finding::{Applicability, Op, Remedy};
use sqsguard_model::policy::SourceId;
use sqsguard_model::{Alt, Field, Origin, Producer, Queue, Scalar, Service, Value, queue_alts};

rule! {
    code: "SQS021",
    name: "producer-incompatible-with-queue-type",
    severity: Error,
    summary: "Producer cannot deliver to the queue's type (standard topic or S3 into FIFO, FIFO target without group id)",
    kind: Template,
    check: check,
    reads: &[Link::ProducerQueue],
    needs: &[LiveInput::QueueAttributes, LiveInput::Subscriptions, LiveInput::EventBridgeTargets],
}

/// The FifoQueue alternatives of `queue` that make it FIFO.
fn fifo(queue: &Queue) -> impl Iterator<Item = &Alt<bool>> {
    queue.fifo.iter().filter(|a| a.value.or_aws_default(Field::FifoQueue) == Some(true))
}

fn check(cx: &Context<'_>, findings: &mut Findings) {
    for feed in cx.index.feeds() {
        let p = feed.producer;
        let Some(queue) = cx.model.queues.get(feed.queue) else { continue };
        for f in fifo(queue) {
            let Some(when) = all_of(&[&feed.target.when, &f.when]) else { continue };
            let mut push = |at: &Origin, problem: String, fix: String, remedy: Option<Remedy>| {
                let message = format!("{} delivers to FIFO queue {}: {problem}{when}", p.name(), queue.resource);
                let finding = RULE.finding(&queue.resource, at, message, fix).with_related(&[p.resource.as_str()]);
                findings.push(match remedy {
                    Some(remedy) => finding.with_remedy(remedy),
                    None => finding,
                });
            };
            match p.service {
                Service::Sns => {
                    for t in p.fifo_source.iter() {
                        if t.value.or_aws_default(Field::FifoTopic) == Some(false) {
                            push(
                                &f.origin,
                                "the topic is a standard topic, and SNS refuses to subscribe a FIFO queue to it".into(),
                                format!(
                                    "subscribe the queue to a FIFO topic ({} and a name ending in .fifo), or use a standard queue",
                                    cx.name(Field::FifoTopic)
                                ),
                                None,
                            );
                        }
                    }
                }
                Service::S3 => push(
                    &f.origin,
                    "S3 event notifications do not deliver to FIFO queues, so the deployment fails".into(),
                    format!(
                        "notify a standard queue, or send the bucket's events through EventBridge with a {}",
                        cx.name(Field::MessageGroupId)
                    ),
                    None,
                ),
                Service::EventBridge => eventbridge(cx, p, queue, &f.origin, &mut push),
                Service::Pipes => {}
            }
        }
    }
    dead_letter_queues(cx, findings);
}

/// An EventBridge target on a FIFO queue needs a message group id, and the
/// queue needs content-based deduplication (rules send no deduplication id).
fn eventbridge(
    cx: &Context<'_>,
    p: &Producer,
    queue: &Queue,
    fifo_at: &Origin,
    push: &mut impl FnMut(&Origin, String, String, Option<Remedy>),
) {
    let group = format!("{}.{}", cx.name(Field::SqsParameters), cx.name(Field::MessageGroupId));
    for g in p.message_group_id.iter() {
        if matches!(g.value, Value::Absent) {
            push(
                fifo_at,
                format!(
                    "the target has no {group}, which EventBridge needs to send to a FIFO queue, so no event is delivered"
                ),
                format!(
                    "add {group} to the target (one group keeps every event in order; a value per key lets groups run in parallel)"
                ),
                Some(group_id(p, g)),
            );
        }
    }
    let dedup = cx.name(Field::ContentBasedDedup);
    for d in queue.content_based_dedup.iter() {
        if d.value.or_aws_default(Field::ContentBasedDedup) == Some(false) {
            let at = if matches!(d.value, Value::Absent) { fifo_at } else { &d.origin };
            push(
                at,
                format!(
                    "the queue has no {dedup}, and an EventBridge rule sends no deduplication id, so SQS refuses every event"
                ),
                format!(
                    "set {dedup} to true on the queue{}",
                    cx.run(Field::ContentBasedDedup, &queue.resource, &sqsguard_model::Scalar::Bool(true))
                ),
                None,
            );
        }
    }
}

/// The rule's name as the target's message group id: every event of the
/// rule in one group, in order.
fn group_id(p: &Producer, absent: &Alt<String>) -> Remedy {
    let rule = match &p.source {
        Value::Known(SourceId::Resource(id)) => id.rsplit('.').next().unwrap_or(id),
        _ => p.resource.as_str(),
    };
    Remedy {
        resource: p.resource.clone(),
        field: Some(Field::MessageGroupId),
        ops: vec![Op::SetWithin { map: Field::SqsParameters, value: Scalar::Str(rule.to_string()) }],
        at: absent.origin.clone(),
        absent: true,
        conditional: !absent.when.is_always(),
        given: None,
        // Ordering (one group) is a design choice.
        applicability: Applicability::Unsafe,
    }
}

/// A FIFO queue as an EventBridge target's dead-letter queue: EventBridge
/// takes only standard queues there.
fn dead_letter_queues(cx: &Context<'_>, findings: &mut Findings) {
    for p in cx.model.producers.iter().filter(|p| p.service == Service::EventBridge) {
        for (qi, target) in queue_alts(&p.dead_letter) {
            let Some(dlq) = cx.model.queues.get(qi) else { continue };
            for f in fifo(dlq) {
                let Some(when) = all_of(&[&target.when, &f.when]) else { continue };
                let message = format!(
                    "{} names FIFO queue {} as its dead-letter queue: EventBridge dead-letter queues must be standard queues, so the deployment fails{when}",
                    p.name(),
                    dlq.resource
                );
                let fix = "name a standard queue in the target's DeadLetterConfig".to_string();
                findings
                    .push(RULE.finding(&dlq.resource, &f.origin, message, fix).with_related(&[p.resource.as_str()]));
            }
        }
    }
}
