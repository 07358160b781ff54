//! SQS202: the mapping asks for batch item failures, and the handler never
//! returns them.

use super::helpers::{REPORT, all_of};
use super::{Context, Findings, Link};
use sqsguard_model::code::Reports;
use sqsguard_model::{Field, Value};

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
    for (consumer, queue, read_when) in cx.index.mapped() {
        let Some((function, handler)) = cx.index.handler(consumer) else { continue };
        // A misspelt response is SQS203's.
        if !matches!(handler.reports, Reports::No) || !handler.misspelt.is_empty() {
            continue;
        }
        for types in consumer.response_types.iter() {
            let Value::Known(list) = &types.value else { continue };
            if !list.iter().any(|t| t == REPORT) {
                continue;
            }
            let Some(when) = all_of(&[&read_when, &types.when]) else { continue };
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
}
