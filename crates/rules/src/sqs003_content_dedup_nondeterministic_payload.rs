//! SQS003: content-based deduplication on a FIFO queue whose payload is not
//! deterministic (error), or whose payload is not declared (warning).

use super::helpers::all_of;
use super::{Context, Findings, LiveInput};
use sqsguard_finding::Severity;
use sqsguard_model::code::Operation;
use sqsguard_model::{Dialect, Field, Payload, Target, Value};

rule! {
    code: "SQS003",
    name: "content-dedup-nondeterministic-payload",
    severity: Error,
    summary: "FIFO ContentBasedDeduplication with a payload that is not deterministic (or not declared)",
    kind: Template,
    check: check,
    milder: Some(Severity::Warning),
    needs: &[LiveInput::QueueTags],
    misled_without: &[LiveInput::QueueTags],
}

fn check(cx: &Context<'_>, findings: &mut Findings) {
    sends(cx, findings);
    let cbd_name = cx.name(Field::ContentBasedDedup);
    for queue in &cx.model.queues {
        for fifo in queue.fifo.iter() {
            for cbd in queue.content_based_dedup.iter() {
                let (Some(true), Some(true)) = (fifo.value.known(), cbd.value.known()) else { continue };
                let Some(when) = all_of(&[&fifo.when, &cbd.when]) else { continue };
                let finding = match &queue.payload {
                    Some(decl) => {
                        let Value::Known(Payload::NonDeterministic(reasons)) = &decl.payload else { continue };
                        let message = format!(
                            "{cbd_name} is true but the payload declared in {} is not deterministic ({}): a retried send of the same event gets a new body and a new deduplication id, so duplicates get through{}",
                            decl.source,
                            reasons.join(", "),
                            when
                        );
                        let fix = format!(
                            "set {cbd_name} to false and send an explicit MessageDeduplicationId built from the event's stable identity (for example \"{{sourceId}}-{{runId}}\")"
                        );
                        RULE.finding(&queue.resource, &cbd.origin, message, fix).with_severity(Severity::Error)
                    }
                    None => {
                        let message = format!(
                            "{cbd_name} is true and no payload is declared, so sqsguard cannot tell whether message bodies are deterministic; a timestamp or UUID in the body defeats deduplication{when}"
                        );
                        let fix = format!(
                            "declare the payload ({}), or send an explicit MessageDeduplicationId and set {cbd_name} to false",
                            payload_declaration(cx.dialect())
                        );
                        RULE.finding(&queue.resource, &cbd.origin, message, fix).with_severity(Severity::Warning)
                    }
                };
                findings.push(finding);
            }
        }
    }
}

/// The code's sends to a FIFO queue with content-based deduplication that
/// pass no MessageDeduplicationId, and whose body holds a value that
/// differs on every call: an error at the call, whatever payload the queue
/// declares.
fn sends(cx: &Context<'_>, findings: &mut Findings) {
    let cbd_name = cx.name(Field::ContentBasedDedup);
    let sends =
        cx.model.calls.iter().filter(|c| matches!(c.operation, Operation::SendMessage | Operation::SendMessageBatch));
    for call in sends {
        if call.nondeterministic.is_empty() || call.arg("MessageDeduplicationId").is_some() || !call.complete {
            continue;
        }
        let Value::Known(Target::Queue(i)) = call.queue else { continue };
        let Some(queue) = cx.model.queues.get(i) else { continue };
        for fifo in queue.fifo.iter() {
            for cbd in queue.content_based_dedup.iter() {
                let (Some(true), Some(true)) = (fifo.value.known(), cbd.value.known()) else { continue };
                let Some(when) = all_of(&[&fifo.when, &cbd.when]) else { continue };
                let sources: Vec<String> = call
                    .nondeterministic
                    .iter()
                    .map(|(origin, text)| match origin.location() {
                        Some(at) => format!("`{text}` at line {}", at.line),
                        None => format!("`{text}`"),
                    })
                    .collect();
                let who = if call.owner == "-" { String::new() } else { format!(" of {}", call.owner) };
                let message = format!(
                    "the {} call{who} sends to queue {}, which has {cbd_name} true, with no MessageDeduplicationId, and its message body holds {}, which differs on every call: a retried send gets a new body and a new deduplication id, so duplicates get through{when}",
                    call.operation.name(),
                    queue.resource,
                    sources.join(", "),
                );
                let fix = "pass a MessageDeduplicationId built from the event's stable identity (for example \"{sourceId}-{runId}\"), or keep the clock and the random values out of the body".to_string();
                let finding = RULE.finding(&call.owner, &call.origin, message, fix).with_related(&[&queue.resource]);
                findings.push(finding.with_severity(Severity::Error));
            }
        }
    }
}

/// How a queue's payload is declared for SQS003.
fn payload_declaration(dialect: Dialect) -> &'static str {
    match dialect {
        Dialect::CloudFormation | Dialect::Serverless => {
            "queue Metadata `sqsguard: {payload: {fields: ...}}` or the tag `sqsguard:payload`"
        }
        // A live queue: its tag, or the config's `payloads`.
        Dialect::Api => {
            "tag the queue `sqsguard:payload` (aws sqs tag-queue --tags sqsguard:payload=deterministic) or add it to `payloads:` in .sqsguard.yaml"
        }
        Dialect::Terraform => "the tag `\"sqsguard:payload\" = \"deterministic\"` once it is true",
    }
}
