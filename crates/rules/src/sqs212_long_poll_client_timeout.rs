//! SQS212: a receive whose SDK client gives up before the long poll can
//! answer, or before the queue's visibility timeout ends.

use super::helpers::{call_words, queue_of, seconds};
use super::{Context, Findings};
use sqsguard_model::Attr;
use sqsguard_model::Field;
use sqsguard_model::code::Operation;

rule! {
    code: "SQS212",
    name: "long-poll-client-timeout",
    severity: Warning,
    summary: "a receive whose SDK client times out before its long poll can answer (read timeout < wait + 5 s), or not before the queue's visibility timeout ends",
    kind: Code,
    check: check,
}

/// How much longer than the wait a client must listen: SQS answers an
/// empty long poll when the wait ends, and the answer still has to come
/// back.
const MARGIN_SECONDS: f64 = 5.0;

fn check(cx: &Context<'_>, findings: &mut Findings) {
    let receives = cx.model.calls.iter().filter(|c| c.operation == Operation::ReceiveMessage);
    for call in receives {
        let Some(timeout) = &call.client_timeout else { continue };
        let queue = queue_of(cx, call);
        // The call's own wait, else the queue's when every reading of it
        // is known (the smallest: the rule must hold for each).
        let (wait, from) = match call.arg("WaitTimeSeconds") {
            Some(arg) => (arg.int, "its WaitTimeSeconds".to_string()),
            None if call.complete => {
                let least = queue.and_then(|q| least(&q.receive_wait_time, Field::ReceiveWaitTime));
                let name = queue.map(|q| format!("queue {}'s {}", q.resource, cx.name(Field::ReceiveWaitTime)));
                (least, name.unwrap_or_default())
            }
            None => (None, String::new()),
        };
        let t = timeout.seconds;
        if let Some(w) = wait.filter(|&w| w >= 1)
            && t < w as f64 + MARGIN_SECONDS
        {
            let message = format!(
                "{} waits up to {w} s ({from}), but its SDK client gives up after {} ({}): an empty long poll times out in the client before SQS answers, so an idle worker sees timeouts and retries instead of empty receives",
                call_words(call),
                seconds(t),
                timeout.name
            );
            let fix = format!(
                "set {} to at least {} s (the wait + {MARGIN_SECONDS} s), or wait less than {} s",
                timeout.name,
                w as f64 + MARGIN_SECONDS,
                seconds(t - MARGIN_SECONDS)
            );
            findings.push(RULE.finding(&call.owner, &call.origin, message, fix));
            continue;
        }
        if let Some((queue, v)) =
            queue.and_then(|q| least(&q.visibility_timeout, Field::VisibilityTimeout).map(|v| (q, v)))
            && (v as f64) <= t
        {
            let message = format!(
                "{} is made with an SDK client that waits up to {} ({}) for SQS's answer, and queue {}'s {} is {v} s, not longer: messages of a receive that is still in flight when they become visible again are received by another consumer too",
                call_words(call),
                seconds(t),
                timeout.name,
                queue.resource,
                cx.name(Field::VisibilityTimeout)
            );
            let fix = format!(
                "set the queue's {} longer than the client's {}",
                cx.name(Field::VisibilityTimeout),
                timeout.name
            );
            findings.push(RULE.finding(&call.owner, &call.origin, message, fix));
        }
    }
}

/// An attribute's smallest value when every reading of it is known (AWS's
/// default where it is not set).
fn least(attr: &Attr<i64>, field: Field) -> Option<i64> {
    attr.iter().map(|a| a.value.or_aws_default(field)).collect::<Option<Vec<i64>>>()?.into_iter().min()
}
