//! SQS012: an SQS or event source mapping attribute outside what AWS accepts.

use std::ops::RangeInclusive;

use super::{Findings, Options, Rule};
use crate::finding::Severity;
use crate::model::{Attr, Field, Model};

pub static RULE: Rule = Rule {
    code: "SQS012",
    name: "attribute-out-of-range",
    severity: Severity::Error,
    summary: "An SQS queue or event source mapping attribute is outside the range AWS accepts",
    live_only: false,
    doc: include_str!("../../rules/SQS012.md"),
    check,
};

fn check(model: &Model, _: &Options, findings: &mut Findings) {
    let n = |f: Field| model.dialect.name(f);
    for queue in &model.queues {
        let r = &queue.resource;
        in_range(findings, r, n(Field::VisibilityTimeout), &queue.visibility_timeout, 0..=43_200);
        in_range(findings, r, n(Field::ReceiveWaitTime), &queue.receive_wait_time, 0..=20);
        in_range(findings, r, n(Field::RetentionPeriod), &queue.retention_period, 60..=1_209_600);
        in_range(findings, r, n(Field::DelaySeconds), &queue.delay_seconds, 0..=900);
        for redrive in queue.redrive.iter() {
            if let Some(policy) = redrive.value.known() {
                in_range(findings, r, "maxReceiveCount", &policy.max_receive_count, 1..=1000);
            }
        }
    }
    for consumer in &model.consumers {
        let r = &consumer.resource;
        in_range(findings, r, n(Field::BatchSize), &consumer.batch_size, 1..=10_000);
        in_range(findings, r, n(Field::BatchingWindow), &consumer.batching_window, 0..=300);
    }
}

fn in_range(findings: &mut Findings, resource: &str, attribute: &str, attr: &Attr<i64>, range: RangeInclusive<i64>) {
    for alt in attr.iter() {
        let Some(&v) = alt.value.known() else { continue };
        if range.contains(&v) {
            continue;
        }
        let message = format!(
            "{attribute} {v} is outside {}..{}, the range AWS accepts, so the deployment fails{}",
            range.start(),
            range.end(),
            alt.when
        );
        let fix = format!("set {attribute} between {} and {}", range.start(), range.end());
        findings.add(&RULE, resource, &alt.origin, message, fix);
    }
}
