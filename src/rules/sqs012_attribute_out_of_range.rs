//! SQS012: an SQS or event source mapping attribute outside what AWS accepts.

use super::{Context, Findings, Rule, set};
use crate::finding::{Applicability, Severity};
use crate::model::{Attr, Field, Scalar};

pub static RULE: Rule = Rule {
    code: "SQS012",
    name: "attribute-out-of-range",
    severity: Severity::Error,
    summary: "An SQS queue or event source mapping attribute is outside the range AWS accepts",
    milder: None,
    live_only: false,
    doc: include_str!("../../rules/SQS012.md"),
    check,
};

fn check(cx: &Context<'_>, findings: &mut Findings) {
    for queue in &cx.model.queues {
        let r = &queue.resource;
        in_range(cx, findings, r, Field::VisibilityTimeout, &queue.visibility_timeout);
        in_range(cx, findings, r, Field::ReceiveWaitTime, &queue.receive_wait_time);
        in_range(cx, findings, r, Field::RetentionPeriod, &queue.retention_period);
        in_range(cx, findings, r, Field::DelaySeconds, &queue.delay_seconds);
        for redrive in queue.redrive.iter() {
            if let Some(policy) = redrive.value.known() {
                in_range(cx, findings, r, Field::MaxReceiveCount, &policy.max_receive_count);
            }
        }
    }
    for consumer in &cx.model.consumers {
        let r = &consumer.resource;
        in_range(cx, findings, r, Field::BatchSize, &consumer.batch_size);
        in_range(cx, findings, r, Field::BatchingWindow, &consumer.batching_window);
    }
}

fn in_range(cx: &Context<'_>, findings: &mut Findings, resource: &str, field: Field, attr: &Attr<i64>) {
    let Some(range) = field.range() else { return };
    let attribute = cx.name(field);
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
        let clamped = Scalar::Int(v.clamp(*range.start(), *range.end()));
        let remedy = set(resource, field, clamped, alt, Applicability::Unsafe);
        findings.push(RULE.finding(resource, &alt.origin, message, fix).with_remedy(remedy));
    }
}
