//! SQS202: the mapping asks for batch item failures, and the handler never
//! returns them.

use super::helpers::{REPORT, Reporting, reporting};
use super::{Context, Findings, Link};
use sqsguard_model::Field;
use sqsguard_model::code::Reports;

rule! {
    code: "SQS202",
    name: "batch-failures-not-returned",
    severity: Warning,
    summary: "the mapping has ReportBatchItemFailures but its handler never returns batchItemFailures",
    kind: Code,
    check: check,
    reads: &[Link::Consumer, Link::ConsumerFunction, Link::HandlerReports],
}

fn check(cx: &Context<'_>, findings: &mut Findings) {
    for Reporting { consumer, queue, function, handler, when } in reporting(cx) {
        // A misspelt response is SQS203's.
        if !matches!(handler.reports, Reports::No) || !handler.misspelt.is_empty() {
            continue;
        }
        let message = format!(
            "consumer {} of {} has {} [{REPORT}], but the handler of {} never returns batchItemFailures: a failure retries the whole batch when the handler raises, and is lost when it catches it{when}",
            consumer.resource,
            queue,
            cx.name(Field::FunctionResponseTypes),
            function.resource,
        );
        let fix = "catch failures per record and return {\"batchItemFailures\": [{\"itemIdentifier\": <messageId>}]} for the failed ones (or use Powertools' batch utility)".to_string();
        findings.push(RULE.finding(&function.resource, &handler.origin, message, fix));
    }
}
