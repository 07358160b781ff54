//! SQS209: a receive in a loop that takes one message at a time.

use super::helpers::{call_words, queue_words};
use super::{Context, Findings};
use sqsguard_model::code::Operation;
use sqsguard_model::field::guidance::MAX_MESSAGES_PER_CALL;

rule! {
    code: "SQS209",
    name: "receive-one-message",
    severity: Warning,
    summary: "a ReceiveMessage call in a loop without MaxNumberOfMessages: one message per request",
    kind: Code,
    check: check,
}

fn check(cx: &Context<'_>, findings: &mut Findings) {
    let receives = cx.model.calls.iter().filter(|c| c.operation == Operation::ReceiveMessage);
    // A request sqsguard does not read whole may set it where it is not seen.
    for call in receives.filter(|c| c.in_loop && c.complete && c.arg("MaxNumberOfMessages").is_none()) {
        let queue = queue_words(cx, call).map(|q| format!(" from {q}")).unwrap_or_default();
        let message = format!(
            "{} receives{queue} again and again (in a loop, a recursive poll or a schedule) without MaxNumberOfMessages: SQS returns at most one message a receive by default, so the worker makes a request for every message",
            call_words(call)
        );
        let fix = format!(
            "pass MaxNumberOfMessages {MAX_MESSAGES_PER_CALL}, the most one receive returns, and handle each message of the response"
        );
        findings.push(RULE.finding(&call.owner, &call.origin, message, fix));
    }
}
