//! SQS001: VisibilityTimeout < 6 x function timeout + MaximumBatchingWindowInSeconds.

use super::helpers::{secs, timings};
use super::options::OptionKind;
use super::{Context, Findings, Link, LiveInput};
use sqsguard_model::Field;
use sqsguard_model::field::guidance;

rule! {
    code: "SQS001",
    name: "visibility-timeout-below-6x",
    severity: Warning,
    summary: "Queue VisibilityTimeout is below 6 x the consumer function's timeout plus its batching window",
    kind: Template,
    check: check,
    reads: &[Link::Consumer, Link::ConsumerQueue, Link::ConsumerFunction],
    needs: &[LiveInput::EventSourceMappings, LiveInput::FunctionConfiguration],
    options: VisibilityOptions::SPECS,
}

options! {
    /// What `rules: {SQS001: {multiplier: N}}` sets. SQS002's fix and
    /// `generate` size VisibilityTimeout with the same multiplier.
    pub struct VisibilityOptions {
        /// VisibilityTimeout must be at least this many times the function
        /// timeout, plus the batching window. Default 6 (AWS's recommendation).
        #[kind(OptionKind::Integer { min: 1, max: Some(100) })]
        pub multiplier: i64 = guidance::VISIBILITY_MULTIPLIER,
    }
}

fn check(cx: &Context<'_>, findings: &mut Findings) {
    let k = cx.options.of::<VisibilityOptions>().multiplier;
    for t in timings(cx) {
        let needed = t.needed(k);
        // Below the function timeout is SQS002's (an error); don't say it twice.
        if t.visibility < t.timeout || t.visibility >= needed {
            continue;
        }
        let message = format!(
            "{} {} < {k} x {} function timeout + {} batching window = {} (consumer {} of function {}){}{}",
            cx.name(Field::VisibilityTimeout),
            secs(t.visibility),
            secs(t.timeout),
            secs(t.window),
            secs(needed),
            t.consumer.resource,
            t.function.resource,
            t.when,
            t.given(cx)
        );
        let fix = format!(
            "set {} to at least {needed} ({k} x the function timeout + {}) so a batch that is retried by Lambda is not delivered twice{}",
            cx.name(Field::VisibilityTimeout),
            cx.name(Field::BatchingWindow),
            cx.run(Field::VisibilityTimeout, &t.queue.resource, &sqsguard_model::Scalar::Int(needed))
        );
        let related = [t.consumer.resource.as_str(), t.function.resource.as_str()];
        let mut finding =
            RULE.finding(&t.queue.resource, &t.visibility_alt.origin, message, fix).with_related(&related);
        finding.remedy = t.remedy(k);
        findings.push(finding);
    }
}
