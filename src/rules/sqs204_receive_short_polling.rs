//! SQS204: code that receives without waiting, from a queue that does not
//! wait by itself.

use super::{Context, Findings};
use crate::model::code::{Operation, SdkCall};
use crate::model::field::guidance;
use crate::model::{Field, Queue, Target, Value};

rule! {
    code: "SQS204",
    name: "receive-short-polling",
    severity: Warning,
    summary: "a ReceiveMessage call without WaitTimeSeconds, on a queue not known to long-poll: short polling",
    kind: Code,
    check: check,
}

fn check(cx: &Context<'_>, findings: &mut Findings) {
    for call in cx.model.calls.iter().filter(|c| c.operation == Operation::ReceiveMessage) {
        let wait = call.arg("WaitTimeSeconds");
        let short = match wait {
            Some(arg) => arg.int == Some(0),
            None => call.complete,
        };
        if !short {
            continue;
        }
        let queue = queue_of(cx, call);
        // The queue's own ReceiveMessageWaitTimeSeconds applies when the
        // call sets none.
        if wait.is_none()
            && let Some(q) = queue
            && q.receive_wait_time.iter().all(|alt| alt.value.known().is_some_and(|&w| w >= 1))
        {
            continue;
        }
        let how = match wait {
            Some(_) => "with WaitTimeSeconds 0".to_string(),
            None => "without WaitTimeSeconds".to_string(),
        };
        let queue_words = match queue {
            Some(q) => format!(", and queue {} has no {} of 1 or more", q.resource, cx.name(Field::ReceiveWaitTime)),
            None => match &call.queue {
                Value::Known(Target::External(q)) => format!(" on {q}, a queue not known to wait by itself"),
                Value::Unknown(what) => format!(" on the queue of {what}, not known to wait by itself"),
                _ => ", on a queue not known to wait by itself".to_string(),
            },
        };
        let message = format!(
            "{} receives {how}{queue_words}: each receive returns at once, empty or from a sample of the servers, so an idle poller pays for a request every time and may miss messages",
            call_words(call)
        );
        let fix = format!(
            "pass WaitTimeSeconds {0} to ReceiveMessage (long polling), or set {1} to {0} on the queue",
            guidance::LONG_POLL_SECONDS,
            cx.name(Field::ReceiveWaitTime)
        );
        let origin = wait.map_or(&call.origin, |a| &a.origin);
        findings.push(RULE.finding(&call.owner, origin, message, fix));
    }
}

/// The queue of the analysed set a call names.
pub(super) fn queue_of<'m>(cx: &Context<'m>, call: &SdkCall) -> Option<&'m Queue> {
    match &call.queue {
        Value::Known(Target::Queue(i)) => cx.model.queues.get(*i),
        _ => None,
    }
}

/// `the ReceiveMessage call of poll`, `the SendMessage call of OrdersFunction`,
/// `the ReceiveMessage call at the top level`.
pub(super) fn call_words(call: &SdkCall) -> String {
    if call.owner == "-" {
        format!("the {} call at the top level of the file", call.operation.name())
    } else {
        format!("the {} call of {}", call.operation.name(), call.owner)
    }
}

/// `queue orders`, `https://sqs.../orders.fifo`, or nothing when the queue
/// is not known.
pub(super) fn queue_words(cx: &Context<'_>, call: &SdkCall) -> Option<String> {
    match &call.queue {
        Value::Known(Target::Queue(i)) => cx.model.queues.get(*i).map(|q| format!("queue {}", q.resource)),
        Value::Known(Target::External(q)) => Some(format!("queue {q}")),
        _ => None,
    }
}
