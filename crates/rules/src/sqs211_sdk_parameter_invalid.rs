//! SQS211: a request parameter written in code with a value the SQS API
//! rejects.

use super::helpers::{call_words, known_fifo, queue_words};
use super::{Context, Findings};
use sqsguard_model::code::{Arg, Operation, SdkCall};

rule! {
    code: "SQS211",
    name: "sdk-parameter-invalid",
    severity: Error,
    summary: "a value the SQS API rejects, written in code: a wait, batch size, visibility timeout or delay out of range, a delay on a FIFO send, more than 10 batch entries",
    kind: Code,
    check: check,
}

/// The parameters checked, the operations they are checked on, and the
/// values the API accepts.
const RANGES: &[(&str, &[Operation], i64, i64)] = &[
    ("WaitTimeSeconds", &[Operation::ReceiveMessage], 0, 20),
    ("MaxNumberOfMessages", &[Operation::ReceiveMessage], 1, 10),
    ("VisibilityTimeout", &[Operation::ReceiveMessage, Operation::ChangeMessageVisibilityBatch], 0, 43_200),
    ("DelaySeconds", &[Operation::SendMessage, Operation::SendMessageBatch], 0, 900),
];

/// The most entries a batch call takes.
const MAX_ENTRIES: usize = 10;

fn check(cx: &Context<'_>, findings: &mut Findings) {
    for call in &cx.model.calls {
        // A batch's parameters are its entries'; another call's are its own.
        let written: Vec<&Arg> = if call.operation.is_batch() {
            call.entries.iter().flatten().collect()
        } else {
            call.args.iter().collect()
        };
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
        if let Some(n) = call.written_entries.filter(|&n| n > MAX_ENTRIES) {
            let message = format!(
                "{} writes {n} entries: a batch takes at most {MAX_ENTRIES}, and SQS rejects the whole request (TooManyEntriesInBatchRequest)",
                call_words(call)
            );
            let fix = format!("send the entries in batches of at most {MAX_ENTRIES}");
            findings.push(RULE.finding(&call.owner, &call.origin, message, fix));
        }
    }
}

/// The finding on `arg` when its value is known and out of the range the
/// API accepts for it in `call`.
fn out_of_range(call: &SdkCall, arg: &Arg) -> Option<sqsguard_finding::Finding> {
    let value = arg.int?;
    let &(name, _, min, max) =
        RANGES.iter().find(|(name, operations, ..)| *name == arg.name && operations.contains(&call.operation))?;
    if (min..=max).contains(&value) {
        return None;
    }
    let message =
        format!("{} sets {name} to {value}: SQS accepts {min} to {max}, and rejects the request", call_words(call));
    let fix = format!("set {name} to a value from {min} to {max}");
    Some(RULE.finding(&call.owner, &arg.origin, message, fix))
}
