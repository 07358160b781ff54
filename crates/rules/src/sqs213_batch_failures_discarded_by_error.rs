//! SQS213: the handler returns batch item failures, and also ends the
//! invocation with an error when a record fails.

use super::helpers::{REPORT, Reporting, reporting};
use super::{Context, Findings, Link};
use sqsguard_model::Field;
use sqsguard_model::code::{Language, Reports};

rule! {
    code: "SQS213",
    name: "batch-failures-discarded-by-error",
    severity: Warning,
    summary: "a handler that returns batchItemFailures also raises, throws or returns an error when a record fails: Lambda retries the whole batch and ignores the report",
    kind: Code,
    check: check,
    reads: &[Link::Consumer, Link::ConsumerFunction, Link::HandlerReports],
}

fn check(cx: &Context<'_>, findings: &mut Findings) {
    for Reporting { consumer, queue, function, handler, when } in reporting(cx) {
        // Only a report Lambda reads is discarded: a mapping without the
        // flag is SQS201's.
        if !matches!(handler.reports, Reports::Yes { .. }) {
            continue;
        }
        let (raises, error) = match handler.language {
            Language::Go => ("returns an error", "the error"),
            Language::Python => ("raises", "the exception"),
            _ => ("throws", "the exception"),
        };
        for at in &handler.raises {
            let message = format!(
                "the handler of {} returns batchItemFailures to consumer {} of {queue} ({} [{REPORT}]), but {raises} here when a record fails: with {error} Lambda counts the whole batch as failed, ignores the reported failures and retries every message, the ones that succeeded too{when}",
                function.resource,
                consumer.resource,
                cx.name(Field::FunctionResponseTypes),
            );
            let fix = format!(
                "record the failed record's messageId in batchItemFailures and go on to the next record: do not end the invocation with {error}"
            );
            findings.push(RULE.finding(&function.resource, at, message, fix));
        }
    }
}
