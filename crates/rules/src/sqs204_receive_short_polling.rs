//! SQS204: code that receives without waiting, from a queue that does not
//! wait by itself.

use super::helpers::{call_words, queue_of};
use super::{Context, Findings};
use sqsguard_model::code::Operation;
use sqsguard_model::field::guidance;
use sqsguard_model::{Field, Target, Value};

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
