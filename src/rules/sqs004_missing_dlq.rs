//! SQS004: a queue without a RedrivePolicy (unless it is itself a DLQ).

use super::{Findings, Options, Rule};
use crate::finding::Severity;
use crate::model::{Dialect, Field, Model, Value};

pub static RULE: Rule = Rule {
    code: "SQS004",
    name: "missing-dlq",
    severity: Severity::Warning,
    summary: "Queue has no dead-letter queue (RedrivePolicy)",
    live_only: false,
    doc: include_str!("../../rules/SQS004.md"),
    check,
};

fn check(model: &Model, _: &Options, findings: &mut Findings) {
    let d = model.dialect;
    for (qi, queue) in model.queues.iter().enumerate() {
        if model.is_dead_letter_target(qi) {
            continue;
        }
        for alt in queue.redrive.iter() {
            if !matches!(alt.value, Value::Absent) {
                continue;
            }
            let message = format!(
                "queue {} has no {}: a message that keeps failing is received again and again until MessageRetentionPeriod expires, then lost{}",
                queue.resource,
                d.name(Field::RedrivePolicy),
                alt.when
            );
            let fix = match d {
                Dialect::CloudFormation => "add a RedrivePolicy with deadLetterTargetArn (a queue of the same type) and maxReceiveCount (for example 5)",
                Dialect::Terraform => "add redrive_policy = jsonencode({ deadLetterTargetArn = <a queue of the same type>.arn, maxReceiveCount = 5 })",
            }
            .to_string();
            findings.add(&RULE, &queue.resource, &alt.origin, message, fix);
        }
    }
}
