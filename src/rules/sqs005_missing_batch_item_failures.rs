//! SQS005: a Lambda consumer with BatchSize > 1 without ReportBatchItemFailures.

use super::{Findings, Options, Rule, all_of};
use crate::finding::Severity;
use crate::model::{Field, Model, Value};

pub static RULE: Rule = Rule {
    code: "SQS005",
    name: "missing-batch-item-failures",
    severity: Severity::Warning,
    summary: "Lambda SQS consumer with BatchSize > 1 lacks FunctionResponseTypes ReportBatchItemFailures",
    live_only: false,
    doc: include_str!("../../rules/SQS005.md"),
    check,
};

fn check(model: &Model, _: &Options, findings: &mut Findings) {
    let d = model.dialect;
    for consumer in &model.consumers {
        for batch in consumer.batch_size.iter() {
            for types in consumer.response_types.iter() {
                let Some(size) = batch.value.or_default(10) else { continue };
                let reports = match &types.value {
                    Value::Known(list) => list.iter().any(|t| t == "ReportBatchItemFailures"),
                    Value::Absent => false,
                    Value::Unknown(_) => continue,
                };
                if size <= 1 || reports {
                    continue;
                }
                let Some(when) = all_of(&[&batch.when, &types.when]) else { continue };
                let message = format!(
                    "consumer {} reads batches of {} without {} [ReportBatchItemFailures]: one failed message makes Lambda retry the whole batch{}",
                    consumer.resource,
                    size,
                    d.name(Field::FunctionResponseTypes),
                    when
                );
                let fix = format!(
                    "add {} and return {{\"batchItemFailures\": [{{\"itemIdentifier\": messageId}}]}} for the failed messages only",
                    d.assign(Field::FunctionResponseTypes, "[\"ReportBatchItemFailures\"]")
                );
                findings.add(&RULE, &consumer.resource, &types.origin, message, fix);
            }
        }
    }
}
