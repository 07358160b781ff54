//! SQS002: VisibilityTimeout < function timeout; Lambda refuses the mapping.

use super::sqs001_visibility_timeout_below_6x::timings;
use super::{Findings, Options, Rule, secs};
use crate::finding::Severity;
use crate::model::{Field, Model};

pub static RULE: Rule = Rule {
    code: "SQS002",
    name: "visibility-timeout-below-function-timeout",
    severity: Severity::Error,
    summary: "Queue VisibilityTimeout is below the consumer function's timeout: Lambda rejects the event source mapping",
    live_only: false,
    doc: include_str!("../../rules/SQS002.md"),
    check,
};

fn check(model: &Model, _: &Options, findings: &mut Findings) {
    let d = model.dialect;
    for t in timings(model) {
        if t.visibility >= t.timeout {
            continue;
        }
        let message = format!(
            "{} {} < {} timeout of function {} (consumer {}): Lambda rejects the mapping with \"Queue visibility timeout: {} seconds is less than Function timeout: {} seconds\"{}",
            d.name(Field::VisibilityTimeout),
            secs(t.visibility),
            secs(t.timeout),
            t.function.resource,
            t.consumer.resource,
            t.visibility,
            t.timeout,
            t.when
        );
        let fix = format!(
            "set {} to at least {} (6 x the function timeout + {})",
            d.name(Field::VisibilityTimeout),
            6 * t.timeout + t.window,
            d.name(Field::BatchingWindow)
        );
        let related = [t.consumer.resource.as_str(), t.function.resource.as_str()];
        findings.add_related(&RULE, &t.queue.resource, &related, &t.visibility_alt.origin, message, fix);
    }
}
