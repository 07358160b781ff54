//! SQS005: a Lambda consumer with BatchSize > 1 without ReportBatchItemFailures.

use super::helpers::{REPORT, all_of, set};
use super::{Context, Findings, Link, LiveInput};
use sqsguard_finding::Applicability;
use sqsguard_model::code::Reports;
use sqsguard_model::{Dialect, Field, Scalar, Value};

rule! {
    code: "SQS005",
    name: "missing-batch-item-failures",
    severity: Warning,
    summary: "Lambda SQS consumer with BatchSize > 1 lacks FunctionResponseTypes ReportBatchItemFailures",
    kind: Template,
    check: check,
    reads: &[Link::Consumer],
    needs: &[LiveInput::EventSourceMappings],
}

fn check(cx: &Context<'_>, findings: &mut Findings) {
    for consumer in &cx.model.consumers {
        for batch in consumer.batch_size.iter() {
            for types in consumer.response_types.iter() {
                let Some(size) = batch.value.or_aws_default(Field::BatchSize) else { continue };
                let reports = match &types.value {
                    Value::Known(list) => list.iter().any(|t| t == REPORT),
                    Value::Absent => false,
                    Value::Unknown(_) => continue,
                };
                if size <= 1 || reports {
                    continue;
                }
                let Some(when) = all_of(&[&batch.when, &types.when]) else { continue };
                let message = format!(
                    "consumer {} reads batches of {} without {} [{REPORT}]: one failed message makes Lambda retry the whole batch{}",
                    consumer.resource,
                    size,
                    cx.name(Field::FunctionResponseTypes),
                    when
                );
                let wanted = Scalar::List(vec![REPORT.to_string()]);
                // A handler read whole that never returns them: turning the
                // setting on would only move the problem (SQS202, and every
                // message of a batch counted as done), so the hint says
                // what the handler must return, where, and no fix is made.
                let silent = cx
                    .index
                    .handler(consumer)
                    .filter(|(_, handler)| matches!(handler.reports, Reports::No) && handler.misspelt.is_empty());
                if let Some((function, handler)) = silent {
                    let at = handler.origin.location().map(|l| format!(" ({}:{})", l.file, l.line)).unwrap_or_default();
                    let fix = format!(
                        "the handler of {}{at} does not return batch item failures yet: make it return {{\"batchItemFailures\": [{{\"itemIdentifier\": messageId}}]}} for the failed messages only (or use Powertools' batch utility), then add {}",
                        function.resource,
                        cx.dialect().assign(Field::FunctionResponseTypes, &wanted)
                    );
                    findings.push(RULE.finding(&consumer.resource, &types.origin, message, fix));
                    continue;
                }
                let fix = match cx.dialect() {
                    // A live mapping: the handler first (with the setting
                    // on, a function that returns nothing has succeeded
                    // for every message), then the call that turns it on.
                    Dialect::Api => format!(
                        "make the function return {{\"batchItemFailures\": [{{\"itemIdentifier\": messageId}}]}} for the failed messages only, then set {} to [{REPORT}] on the mapping{}",
                        cx.name(Field::FunctionResponseTypes),
                        cx.run(Field::FunctionResponseTypes, &consumer.resource, &wanted)
                    ),
                    _ => format!(
                        "add {} and return {{\"batchItemFailures\": [{{\"itemIdentifier\": messageId}}]}} for the failed messages only",
                        cx.dialect().assign(Field::FunctionResponseTypes, &wanted)
                    ),
                };
                // The handler must return batchItemFailures too.
                let remedy =
                    set(&consumer.resource, Field::FunctionResponseTypes, wanted, types, Applicability::Unsafe);
                findings.push(RULE.finding(&consumer.resource, &types.origin, message, fix).with_remedy(remedy));
            }
        }
    }
}
