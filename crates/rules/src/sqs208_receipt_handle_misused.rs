//! SQS208: a delete or visibility change given something other than the
//! received message's receipt handle.

use super::helpers::call_words;
use super::{Context, Findings};
use sqsguard_finding::{Applicability, Op, Remedy};
use sqsguard_model::code::{MessagePart, PartRead, SdkCall};

rule! {
    code: "SQS208",
    name: "receipt-handle-misused",
    severity: Error,
    summary: "a DeleteMessage or ChangeMessageVisibility given a message's MessageId, body, attribute or the queue URL as its ReceiptHandle: the call always fails",
    kind: Code,
    check: check,
}

fn check(cx: &Context<'_>, findings: &mut Findings) {
    for call in cx.model.calls.iter().filter(|c| c.operation.takes_receipt_handle()) {
        for arg in call.written().into_iter().filter(|a| a.name == "ReceiptHandle") {
            let Some(read) = arg.reads.as_ref().filter(|r| r.part != MessagePart::ReceiptHandle) else { continue };
            let what = match read.part {
                MessagePart::QueueUrl => "the queue URL".to_string(),
                MessagePart::Attribute => "one of the message's attributes".to_string(),
                part => format!("the message's {}", part.name()),
            };
            let fails = if call.operation.name().starts_with("Delete") {
                "so the message is never deleted: it comes back after the visibility timeout, is processed again, and after maxReceiveCount receives moves to the dead-letter queue although it succeeded"
            } else {
                "so the message's visibility is never changed: it becomes visible again while it is still being processed"
            };
            let message = format!(
                "{} passes {what} as its ReceiptHandle: SQS takes only the handle a receive returned and rejects the call (ReceiptHandleIsInvalid), {fails}",
                call_words(call)
            );
            let fix = "pass the received message's ReceiptHandle".to_string();
            let finding = RULE.finding(&call.owner, &arg.origin, message, fix);
            findings.push(match remedy(call, read) {
                Some(remedy) => finding.with_remedy(remedy),
                None => finding,
            });
        }
    }
}

/// The message's receipt handle read where its ID or body is: only where
/// the read is written in the argument itself (a name bound to it may be
/// read elsewhere as what it is), and unsafe, as any change of code.
fn remedy(call: &SdkCall, read: &PartRead) -> Option<Remedy> {
    let renamed = matches!(read.part, MessagePart::MessageId | MessagePart::Body);
    (renamed && read.direct).then(|| Remedy {
        resource: call.owner.clone(),
        field: None,
        ops: vec![Op::Rename { to: MessagePart::ReceiptHandle.name() }],
        at: read.name.clone(),
        absent: false,
        conditional: false,
        given: None,
        applicability: Applicability::Unsafe,
    })
}
