//! SQS211: a request parameter written in code with a value the SQS API
//! rejects.

use super::helpers::{call_words, known_fifo, queue_words};
use super::{Context, Findings};
use std::ops::RangeInclusive;

use sqsguard_model::Field;
use sqsguard_model::code::{Arg, Operation, SdkCall};
use sqsguard_model::field::guidance::MAX_MESSAGES_PER_CALL;

rule! {
    code: "SQS211",
    name: "sdk-parameter-invalid",
    severity: Error,
    summary: "a value the SQS API rejects, written in code: a wait, batch size, visibility timeout or delay out of range, a delay on a FIFO send, more than 10 batch entries",
    kind: Code,
    check: check,
}

/// The values the API accepts for a parameter of an operation: those of
/// the queue attribute the request's value stands in for (the field
/// table's), and MaxNumberOfMessages's own. `None`: not checked.
fn accepted(name: &str, operation: Operation) -> Option<RangeInclusive<i64>> {
    use Operation::*;
    match (name, operation) {
        ("WaitTimeSeconds", ReceiveMessage) => Field::ReceiveWaitTime.range(),
        ("MaxNumberOfMessages", ReceiveMessage) => Some(1..=MAX_MESSAGES_PER_CALL),
        ("VisibilityTimeout", ReceiveMessage | ChangeMessageVisibility | ChangeMessageVisibilityBatch) => {
            Field::VisibilityTimeout.range()
        }
        ("DelaySeconds", SendMessage | SendMessageBatch) => Field::DelaySeconds.range(),
        _ => None,
    }
}

fn check(cx: &Context<'_>, findings: &mut Findings) {
    for call in &cx.model.calls {
        let written = call.written();
        let fifo =
            matches!(call.operation, Operation::SendMessage | Operation::SendMessageBatch) && known_fifo(cx, call);
        for arg in written {
            if fifo && arg.name == "DelaySeconds" {
                let queue = queue_words(cx, call).unwrap_or_else(|| "a FIFO queue".to_string());
                let message = format!(
                    "{} sets DelaySeconds on a message to {queue}, a FIFO queue: a FIFO queue takes only the queue's delay, and SQS rejects the request",
                    call_words(call)
                );
                let fix = "remove DelaySeconds from the message; set DelaySeconds on the queue for a delay".to_string();
                findings.push(RULE.finding(&call.owner, &arg.origin, message, fix));
                continue;
            }
            if let Some(finding) = out_of_range(call, arg) {
                findings.push(finding);
            }
        }
        if let Some(n) = call.written_entries.filter(|&n| n as i64 > MAX_MESSAGES_PER_CALL) {
            let message = format!(
                "{} writes {n} entries: a batch takes at most {MAX_MESSAGES_PER_CALL}, and SQS rejects the whole request (TooManyEntriesInBatchRequest)",
                call_words(call)
            );
            let fix = format!("send the entries in batches of at most {MAX_MESSAGES_PER_CALL}");
            findings.push(RULE.finding(&call.owner, &call.origin, message, fix));
        }
    }
}

/// The finding on `arg` when its value is known and out of the range the
/// API accepts for it in `call`.
fn out_of_range(call: &SdkCall, arg: &Arg) -> Option<sqsguard_finding::Finding> {
    let value = arg.int?;
    let range = accepted(arg.name, call.operation)?;
    if range.contains(&value) {
        return None;
    }
    let (name, min, max) = (arg.name, range.start(), range.end());
    let message =
        format!("{} sets {name} to {value}: SQS accepts {min} to {max}, and rejects the request", call_words(call));
    let fix = format!("set {name} to a value from {min} to {max}");
    Some(RULE.finding(&call.owner, &arg.origin, message, fix))
}
