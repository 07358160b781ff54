//! SQS205: a send to a FIFO queue without the ids a FIFO queue needs.

use super::helpers::{call_words, known_fifo, queue_of, queue_words};
use super::{Context, Findings};
use sqsguard_model::code::Operation;
use sqsguard_model::{Field, Value};

rule! {
    code: "SQS205",
    name: "fifo-send-missing-ids",
    severity: Error,
    summary: "a send to a FIFO queue without MessageGroupId, or without MessageDeduplicationId when the queue has no content-based deduplication",
    kind: Code,
    check: check,
}

fn check(cx: &Context<'_>, findings: &mut Findings) {
    let sends =
        cx.model.calls.iter().filter(|c| matches!(c.operation, Operation::SendMessage | Operation::SendMessageBatch));
    for call in sends.filter(|c| c.complete) {
        if !known_fifo(cx, call) {
            continue;
        }
        let content_dedup = queue_of(cx, call).and_then(|q| {
            if q.content_based_dedup.iter().all(|a| matches!(a.value, Value::Absent | Value::Known(false))) {
                Some(false)
            } else if q.content_based_dedup.iter().all(|a| a.value.known() == Some(&true)) {
                Some(true)
            } else {
                None
            }
        });
        let mut missing = Vec::new();
        if call.arg("MessageGroupId").is_none() {
            missing.push("MessageGroupId");
        }
        if call.arg("MessageDeduplicationId").is_none() && content_dedup == Some(false) {
            missing.push("MessageDeduplicationId");
        }
        if missing.is_empty() {
            continue;
        }
        let queue = queue_words(cx, call).unwrap_or_else(|| "the queue".to_string());
        let whose = if call.operation.is_batch() { "its entries carry" } else { "it carries" };
        let why = if missing.contains(&"MessageGroupId") {
            "SQS rejects a send to a FIFO queue without a message group"
        } else {
            "without content-based deduplication SQS rejects a send to a FIFO queue that has no deduplication id"
        };
        let dedup = if content_dedup == Some(false) {
            format!(" ({} is off)", cx.name(Field::ContentBasedDedup))
        } else {
            String::new()
        };
        let message = format!(
            "{} sends to FIFO {queue}{dedup}, but {whose} no {}: {why}, so the send fails",
            call_words(call),
            missing.join(" and no "),
        );
        let fix = format!(
            "set {} on every send (the group orders messages; the deduplication id names the event, for example its source id)",
            missing.join(" and ")
        );
        findings.push(RULE.finding(&call.owner, &call.origin, message, fix));
    }
}
