//! SQS002: VisibilityTimeout < function timeout; Lambda refuses the mapping.

use super::helpers::{secs, timings};
use super::{Context, Findings, Link, LiveInput, VisibilityOptions};
use sqsguard_model::Field;

rule! {
    code: "SQS002",
    name: "visibility-timeout-below-function-timeout",
    severity: Error,
    summary: "Queue VisibilityTimeout is below the consumer function's timeout: Lambda rejects the event source mapping",
    kind: Template,
    check: check,
    reads: &[Link::Consumer, Link::ConsumerQueue, Link::ConsumerFunction],
    needs: &[LiveInput::EventSourceMappings, LiveInput::FunctionConfiguration],
}

fn check(cx: &Context<'_>, findings: &mut Findings) {
    for t in timings(cx) {
        if t.visibility >= t.timeout {
            continue;
        }
        let message = format!(
            "{} {} < {} timeout of function {} (consumer {}): Lambda rejects the mapping with \"Queue visibility timeout: {} seconds is less than Function timeout: {} seconds\"{}{}",
            cx.name(Field::VisibilityTimeout),
            secs(t.visibility),
            secs(t.timeout),
            t.function.resource,
            t.consumer.resource,
            t.visibility,
            t.timeout,
            t.when,
            t.given(cx)
        );
        // The fix sizes it for SQS001 too (rules/SQS002.md: the same fix).
        let k = cx.options.of::<VisibilityOptions>().multiplier;
        let fix = format!(
            "set {} to at least {} ({k} x the function timeout + {}){}",
            cx.name(Field::VisibilityTimeout),
            t.needed(k),
            cx.name(Field::BatchingWindow),
            cx.run(Field::VisibilityTimeout, &t.queue.resource, &sqsguard_model::Scalar::Int(t.needed(k)))
        );
        let related = [t.consumer.resource.as_str(), t.function.resource.as_str()];
        let mut finding =
            RULE.finding(&t.queue.resource, &t.visibility_alt.origin, message, fix).with_related(&related);
        finding.remedy = t.remedy(k);
        findings.push(finding);
    }
}
