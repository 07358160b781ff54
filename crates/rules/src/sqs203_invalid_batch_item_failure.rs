//! SQS203: a partial batch response that Lambda cannot read: a key spelt
//! otherwise, or an item identifier that is not the message ID.

use super::{Context, Findings, Link};

rule! {
    code: "SQS203",
    name: "invalid-batch-item-failure",
    severity: Error,
    summary: "the handler's partial batch response misspells a key or fills itemIdentifier with something other than the messageId",
    kind: Code,
    check: check,
    reads: &[Link::Consumer, Link::ConsumerFunction],
}

fn check(cx: &Context<'_>, findings: &mut Findings) {
    // Each handler once, however many queues its function reads.
    let mut seen = std::collections::HashSet::new();
    for (consumer, _, _) in cx.index.mapped() {
        let Some((function, handler)) = cx.index.handler(consumer) else { continue };
        if !seen.insert(handler.function) {
            continue;
        }
        for m in &handler.misspelt {
            let message = format!(
                "the handler of {} writes `{}` in its response where Lambda reads `{}`: {}",
                function.resource,
                m.written,
                m.meant,
                if m.meant == "batchItemFailures" {
                    "the response reads as \"nothing failed\", and the failed messages are deleted"
                } else {
                    "Lambda cannot read the failure, and fails the whole batch"
                }
            );
            findings.push(RULE.finding(&function.resource, &m.origin, message, format!("spell it `{}`", m.meant)));
        }
        for w in &handler.wrong_identifiers {
            let message = format!(
                "the handler of {} fills itemIdentifier with `{}`, which is not the record's messageId: Lambda fails the whole batch",
                function.resource, w.from
            );
            let fix = "set itemIdentifier to the failed record's messageId".to_string();
            findings.push(RULE.finding(&function.resource, &w.origin, message, fix));
        }
    }
}
