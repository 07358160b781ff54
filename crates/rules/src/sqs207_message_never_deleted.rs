//! SQS207: a worker that receives messages and never deletes them.

use super::helpers::{call_words, queue_words};
use super::{Context, Findings};
use sqsguard_model::code::{Operation, Received};

rule! {
    code: "SQS207",
    name: "message-never-deleted",
    severity: Error,
    summary: "code receives messages and nothing deletes them: each comes back after the visibility timeout and ends in the DLQ",
    kind: Code,
    check: check,
}

fn check(cx: &Context<'_>, findings: &mut Findings) {
    let receives = cx.model.calls.iter().filter(|c| c.operation == Operation::ReceiveMessage);
    // Every use of the messages was read and none deletes them or hands
    // them on (`Received::Kept`); a request not read whole may be a peek.
    for call in receives.filter(|c| c.received == Some(Received::Kept) && c.complete && !peeks(c)) {
        let queue = queue_words(cx, call).map(|q| format!(" from {q}")).unwrap_or_default();
        let message = format!(
            "{} receives messages{queue} that are never deleted: nothing in the file deletes a message, and neither the messages nor their receipt handles reach other code. Each one comes back when its visibility timeout ends, is processed again, and after maxReceiveCount receives moves to the dead-letter queue (or expires) although it succeeded",
            call_words(call)
        );
        let fix = "delete each message once it is processed: DeleteMessage with its ReceiptHandle, or DeleteMessageBatch for the messages of one receive".to_string();
        findings.push(RULE.finding(&call.owner, &call.origin, message, fix));
    }
}

/// A receive that sets `VisibilityTimeout` 0, or a value that cannot be
/// read: its messages stay visible (a peek), or may.
fn peeks(call: &sqsguard_model::code::SdkCall) -> bool {
    call.arg("VisibilityTimeout").is_some_and(|a| a.int.is_none_or(|v| v <= 0))
}
