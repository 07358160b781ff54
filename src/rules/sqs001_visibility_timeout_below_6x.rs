//! SQS001 and SQS002 share one walk over (queue, consumer, function)
//! triples; this file holds SQS001 and the walk.
//!
//! SQS001: VisibilityTimeout < 6 x function timeout + MaximumBatchingWindowInSeconds.

use super::{Findings, Options, Rule, all_of, consumer_reads, secs};
use crate::finding::Severity;
use crate::model::{Alt, Consumer, Field, Function, Model, Queue, Target};

pub static RULE: Rule = Rule {
    code: "SQS001",
    name: "visibility-timeout-below-6x",
    severity: Severity::Warning,
    summary: "Queue VisibilityTimeout is below 6 x the consumer function's timeout plus its batching window",
    live_only: false,
    doc: include_str!("../../rules/SQS001.md"),
    check,
};

/// One consistent combination of a queue's VisibilityTimeout with the
/// timeout and batching window of a Lambda consumer reading it.
pub(crate) struct Timing<'a> {
    pub queue: &'a Queue,
    pub consumer: &'a Consumer,
    pub function: &'a Function,
    pub visibility_alt: &'a Alt<i64>,
    pub visibility: i64,
    pub timeout: i64,
    pub window: i64,
    pub when: crate::model::When,
}

/// Every known (queue, consumer, function) timing in the model; unknown
/// values are left out, absent ones take AWS's defaults (30 s visibility,
/// 3 s function timeout, 0 s window).
pub(crate) fn timings(model: &Model) -> Vec<Timing<'_>> {
    let mut out = Vec::new();
    for read in consumer_reads(model) {
        let (queue, consumer) = (read.queue, read.consumer);
        for f_alt in consumer.function.iter() {
            let Some(Target::Function(fi)) = f_alt.value.known() else { continue };
            let function = &model.functions[*fi];
            for vt in queue.visibility_timeout.iter() {
                for to in function.timeout.iter() {
                    for win in consumer.batching_window.iter() {
                        let Some(when) = all_of(&[&read.when, &f_alt.when, &vt.when, &to.when, &win.when]) else {
                            continue;
                        };
                        let (Some(visibility), Some(timeout), Some(window)) =
                            (vt.value.or_default(30), to.value.or_default(3), win.value.or_default(0))
                        else {
                            continue;
                        };
                        out.push(Timing {
                            queue,
                            consumer,
                            function,
                            visibility_alt: vt,
                            visibility,
                            timeout,
                            window,
                            when,
                        });
                    }
                }
            }
        }
    }
    out
}

fn check(model: &Model, options: &Options, findings: &mut Findings) {
    let d = model.dialect;
    let k = options.visibility_multiplier;
    for t in timings(model) {
        let needed = k * t.timeout + t.window;
        // Below the function timeout is SQS002's (an error); don't say it twice.
        if t.visibility < t.timeout || t.visibility >= needed {
            continue;
        }
        let message = format!(
            "{} {} < {k} x {} function timeout + {} batching window = {} (consumer {} of function {}){}",
            d.name(Field::VisibilityTimeout),
            secs(t.visibility),
            secs(t.timeout),
            secs(t.window),
            secs(needed),
            t.consumer.resource,
            t.function.resource,
            t.when
        );
        let fix = format!(
            "set {} to at least {needed} ({k} x the function timeout + {}) so a batch that is retried by Lambda is not delivered twice",
            d.name(Field::VisibilityTimeout),
            d.name(Field::BatchingWindow)
        );
        let related = [t.consumer.resource.as_str(), t.function.resource.as_str()];
        findings.add_related(&RULE, &t.queue.resource, &related, &t.visibility_alt.origin, message, fix);
    }
}
