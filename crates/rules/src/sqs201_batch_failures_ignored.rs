//! SQS201: the handler returns batch item failures, and its mapping does
//! not let Lambda read them.

use super::helpers::{REPORT, all_of, set};
use super::{Context, Findings, Link};
use sqsguard_finding::Applicability;
use sqsguard_model::code::Reports;
use sqsguard_model::{Field, Scalar, Value};

rule! {
    code: "SQS201",
    name: "batch-failures-ignored",
    severity: Error,
    summary: "the handler returns batchItemFailures but its mapping lacks ReportBatchItemFailures: the failed messages are deleted",
    kind: Code,
    check: check,
    reads: &[Link::Consumer, Link::ConsumerFunction, Link::HandlerReports],
}

fn check(cx: &Context<'_>, findings: &mut Findings) {
    for (consumer, queue, read_when) in cx.index.mapped() {
        let Some((function, handler)) = cx.index.handler(consumer) else { continue };
        let Reports::Yes { origin, how } = &handler.reports else { continue };
        for types in consumer.response_types.iter() {
            let reports = match &types.value {
                Value::Known(list) => list.iter().any(|t| t == REPORT),
                Value::Absent => false,
                Value::Unknown(_) => continue,
            };
            if reports {
                continue;
            }
            let Some(when) = all_of(&[&read_when, &types.when]) else { continue };
            let message = format!(
                "the handler of {} returns batch item failures ({how}), but consumer {} of {} has no {} [{REPORT}]: Lambda ignores the response and deletes the failed messages with the batch{when}",
                function.resource,
                consumer.resource,
                queue,
                cx.name(Field::FunctionResponseTypes),
            );
            let wanted = Scalar::List(vec![REPORT.to_string()]);
            let fix = format!("add {} to the mapping", cx.dialect().assign(Field::FunctionResponseTypes, &wanted));
            // The handler already returns them: nothing else must change.
            let remedy = set(&consumer.resource, Field::FunctionResponseTypes, wanted, types, Applicability::Safe);
            findings.push(RULE.finding(&function.resource, origin, message, fix).with_remedy(remedy));
        }
    }
}
