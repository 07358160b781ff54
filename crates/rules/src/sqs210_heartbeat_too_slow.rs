//! SQS210: a heartbeat that extends a message's visibility less often
//! than the visibility it sets lasts.

use super::helpers::{call_words, seconds};
use super::{Context, Findings};

rule! {
    code: "SQS210",
    name: "heartbeat-too-slow",
    severity: Error,
    summary: "a heartbeat that calls ChangeMessageVisibility every P s setting VisibilityTimeout V with P >= V: the message is visible between beats",
    kind: Code,
    check: check,
}

fn check(cx: &Context<'_>, findings: &mut Findings) {
    for call in cx.model.calls.iter() {
        let Some(beat) = &call.heartbeat else { continue };
        // The visibility each beat sets: the call's, or every entry's.
        let set: Option<Vec<i64>> =
            call.written().into_iter().filter(|a| a.name == "VisibilityTimeout").map(|a| a.int).collect();
        let Some(v) = set.and_then(|v| v.into_iter().min()) else { continue };
        let p = beat.seconds;
        if p < v as f64 {
            continue;
        }
        let message = format!(
            "{} sets VisibilityTimeout {v} s, and the heartbeat around it ({}) makes it every {}: the message becomes visible again before the next beat, and another worker receives it while this one still works on it",
            call_words(call),
            beat.how,
            seconds(p)
        );
        let fix = format!(
            "beat more often than every {v} s: every {} s (a third of the VisibilityTimeout) leaves room for a late beat, or set a VisibilityTimeout longer than {}",
            (v / 3).max(1),
            seconds(p)
        );
        findings.push(RULE.finding(&call.owner, &call.origin, message, fix));
    }
}
